"""A size limit on HTTP request bodies ("hostile input never hurts").

FastAPI reads a whole body before it validates it and before a route's rate-limit dependency
runs, so without a limit anybody could make the server hold a 200 MB body in memory (RSS
98 → 489 MB per request) just to answer 422. ``BodyLimit`` is a pure ASGI middleware, installed
by ``app.main.create_app`` with the setting ``max_body_bytes`` (``ARENA_MAX_BODY_BYTES``):

- a request declaring ``Content-Length`` above the limit is answered 413 before a byte of its
  body is read;
- a body without a length (chunked, streamed) is counted as it arrives; the read that passes the
  limit raises ``HTTPException(413)``, which FastAPI passes on ("a middleware raises an
  HTTPException") to ``app.api.errors.http_error``: the same answer, the rest is never read.

The answer is ``413 {"detail": {"code": "request_too_large", "message"}}``. The connection stays
open: uvicorn drops the rest of the body unbuffered once the answer is sent (closing it instead
resets a client that is still sending before it can read the 413). Every HTTP route is
covered; websockets
and lifespan pass through untouched (``/ws/rooms/…`` never reaches the middleware stack at all:
``app.realtime.endpoint.ArenaApp``). RFC 9110 §15.5.14 (413 Content Too Large).
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_response
from app.metrics import count_error

CODE = "request_too_large"


def too_large_message(limit: int) -> str:
    """Return the human text of the 413 answer for a limit of ``limit`` bytes."""
    return f"The request body is larger than {limit} bytes."


def declared_length(scope: Scope) -> int | None:
    """Return the request's ``Content-Length`` (bytes), or None when it declares none.

    A malformed header counts as none here (uvicorn's parser already refuses it with 400).
    """
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """ASGI middleware refusing HTTP request bodies larger than ``limit`` bytes with 413.

    Args:
        app: the wrapped ASGI application.
        limit: the largest body accepted, in bytes (``Settings.max_body_bytes``); a body of
            exactly ``limit`` bytes passes.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = declared_length(scope)
        if declared is not None and declared > self.limit:
            count_error(scope["app"], CODE, "http")
            await error_response(413, CODE, too_large_message(self.limit))(scope, receive, send)
            return
        await self.app(scope, self.counting(receive), send)

    def counting(self, receive: Receive) -> Receive:
        """Return ``receive`` counting the body bytes; the read passing the limit raises.

        Raises (from the returned callable):
            HTTPException: 413 ``request_too_large`` (answered by ``app.api.errors.http_error``).
        """
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise HTTPException(413, too_large_message(self.limit))
            return message

        return limited
