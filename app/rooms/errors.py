"""The one error type the room service raises towards the REST and websocket layers."""

from __future__ import annotations


class RoomError(Exception):
    """A refused request, with a stable ``code``, an English ``message`` and an HTTP status.

    Websocket handlers send ``{"type": "error", "code", "message"}``; REST routes answer
    ``status`` with ``{"detail": {"code", "message"}}``.
    """

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
