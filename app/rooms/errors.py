"""The one error type the room service raises towards the REST and websocket layers."""

from __future__ import annotations


class RoomError(Exception):
    """A refused request, with a stable ``code``, an English ``message`` and an HTTP status.

    Websocket handlers send ``{"type": "error", "code", "message"}``; REST routes answer
    ``status`` with ``{"detail": {"code", "message"}}``, and a ``Retry-After`` header of
    ``retry_after`` whole seconds when it is given (a rate limit's 429: RFC 9110 §10.2.3).
    """

    def __init__(self, code: str, message: str, status: int = 409,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
