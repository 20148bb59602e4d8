"""The browser's defences: security headers on every HTTP answer of the server.

``install(app)`` makes ``SecurityHeaders`` the outermost layer of the application's middleware
stack, outside Starlette's ``ServerErrorMiddleware`` (which ``add_middleware`` cannot wrap), so
pages, the API, static files, 404 and 405 answers, the 413 of ``app.api.body_limit`` and the 500
of an unexpected exception all carry ``HEADERS``. A websocket handshake is left alone: its
answer (``101``, or uvicorn's bare ``403`` for a refused one) is never a document, so none of these
headers applies to it (docs/security.md "Browser defences").

A header the answer already carries is kept: a route may set its own (the ``/docs`` page sends a
``Content-Security-Policy`` naming the hash of its one inline script: ``app.api.api_docs``).
Why each header, and what the policy allows: docs/security.md "Browser defences". Sources:
CSP Level 3 (W3C; ``'self'`` also matches ``ws:``/``wss:`` on the page's own host and port),
Permissions Policy (W3C), Fetch (``X-Content-Type-Options``), HTML (``Cross-Origin-Opener-Policy``),
RFC 7034 (``X-Frame-Options``).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.applications import Starlette
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The Content-Security-Policy of every page: scripts, styles, fonts, frames and connections
#: (fetch and the room websocket) only from this origin; images also as ``data:`` URLs; no
#: plugin, no ``<base>``, forms post only here, and no other site may frame a page.
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

#: Browser features the site never uses, denied to the page and to any frame in it.
DENIED_FEATURES = ("accelerometer", "camera", "display-capture", "geolocation", "gyroscope",
                   "hid", "magnetometer", "microphone", "midi", "payment", "serial", "usb",
                   "xr-spatial-tracking")

#: ``(name, value)`` of every header added to each answer, names in lower case.
HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("permissions-policy", ", ".join(f"{feature}=()" for feature in DENIED_FEATURES)),
    ("cross-origin-opener-policy", "same-origin"),
    ("x-frame-options", "DENY"),
)
_RAW_HEADERS = tuple((name.encode("latin-1"), value.encode("latin-1")) for name, value in HEADERS)


def with_security_headers(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """Return the ASGI ``headers`` (``(name, value)`` bytes pairs) followed by each of
    ``HEADERS`` whose name (case-insensitively) is not among them yet."""
    headers = list(headers)
    present = {name.lower() for name, _ in headers}
    return headers + [header for header in _RAW_HEADERS if header[0] not in present]


def http_send(send: Send) -> Send:
    """Return ``send`` adding the security headers to the ``http.response.start`` message."""
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": with_security_headers(message.get("headers", ()))}
        await send(message)

    return sending


class SecurityHeaders:
    """Pure ASGI middleware adding ``HEADERS`` to every HTTP answer of ``app``; websocket and
    lifespan scopes pass through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, http_send(send) if scope["type"] == "http" else send)


def install(app: Starlette) -> None:
    """Wrap ``app``'s whole middleware stack (built on its first request) in
    ``SecurityHeaders``, so even the 500 answer of ``ServerErrorMiddleware`` carries them."""
    build = app.build_middleware_stack

    def build_with_headers() -> ASGIApp:
        return SecurityHeaders(build())

    app.build_middleware_stack = build_with_headers  # type: ignore[method-assign]
