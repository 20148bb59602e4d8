"""The websocket endpoint ``/ws/rooms/{code}`` (docs/protocol.md "Websocket").

A connection moves through explicit states: ``AWAITING_HELLO`` → ``GREETED`` → ``CLOSED``.
Every inbound frame is validated (``app.realtime.frames``) before it reaches the room.

The endpoint is one route of the application's route table (``ArenaApp.room_route``, a
Starlette ``WebSocketRoute`` whose app is ``RoomSocketApp``), and ``ArenaApp`` hands the sockets
that route matches to it before FastAPI's middlewares and router, so an idle socket holds less
memory ("memory per idle room", bench/RESULTS.md "Fast paths").
"""

from __future__ import annotations

import asyncio
from enum import Enum
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from starlette.routing import Match, WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocketDisconnected

from app.auth import player_for_token
from app.limits import client_ip
from app.metrics import count_error
from app.realtime.frames import FloodGuard, FrameError, parse_frame
from app.realtime.hub import Connection
from app.realtime.schemas import Act, Chat, ErrorFrame, Hello, Inbound, Ping, Pong, Sync, frame
from app.rooms.errors import RoomError

#: Close codes (RFC 6455): a policy breach (too many sockets from one address, a flood).
POLICY_VIOLATION = 1008


#: Seconds a flood close waits for the frames already queued to that socket (its pongs and
#: ``rate_limited`` errors) to go out first.
FLUSH_BEFORE_CLOSE = 1.0


class ConnState(str, Enum):
    """Where a socket is in its life."""

    AWAITING_HELLO = "awaiting_hello"
    GREETED = "greeted"
    CLOSED = "closed"


#: The page scheme a websocket scheme pairs with, and each page scheme's default port.
PAGE_SCHEME = {"ws": "http", "wss": "https", "http": "http", "https": "https"}
DEFAULT_PORT = {"http": 80, "https": 443}


def _endpoint(scheme: str, netloc: str) -> tuple[str, str, int | None] | None:
    """Return ``(page scheme, host, port)`` of ``scheme://netloc`` (the port defaulted by the
    scheme), or ``None`` when it is not an http(s)/ws(s) address."""
    page = PAGE_SCHEME.get(scheme.lower())
    if page is None or not netloc:
        return None
    try:
        parts = urlsplit(f"{page}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    return page, (parts.hostname or "").lower(), port or DEFAULT_PORT[page]


def origin_allowed(websocket: WebSocket, allowed: list[str]) -> bool:
    """Return whether the socket's ``Origin`` may connect.

    Allowed: no ``Origin`` (not a browser), an origin with the request's own scheme, host and
    port (``http`` pages for ``ws`` sockets, ``https`` for ``wss``; a missing port is the
    scheme's default), or one listed in ``ARENA_ALLOWED_ORIGINS`` (``"*"`` allows any).
    """
    origin = websocket.headers.get("origin")
    if origin is None or "*" in allowed or origin.rstrip("/") in [a.rstrip("/") for a in allowed]:
        return True
    scope = getattr(websocket, "scope", None) or {}
    own = _endpoint(scope.get("scheme", "ws"), websocket.headers.get("host", ""))
    theirs = urlsplit(origin)
    return own is not None and _endpoint(theirs.scheme, theirs.netloc) == own


async def receive_text(websocket: WebSocket) -> str:
    """Return the next frame's text (a binary frame is decoded as UTF-8).

    Raises:
        WebSocketDisconnect: the client went away.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if message.get("text") is not None:
        return message["text"]
    return (message.get("bytes") or b"").decode("utf-8", "replace")


#: The socket's path in the route table; ``code`` is one non-empty path segment.
ROOM_PATH = "/ws/rooms/{code}"


class RoomSocketApp:
    """The ASGI app of the route ``ROOM_PATH``: serves one websocket of the room named by the
    scope's ``path_params["code"]`` (set by the route's match)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await room_socket(WebSocket(scope, receive, send), scope["path_params"]["code"])


class ArenaApp(FastAPI):
    """FastAPI whose route table holds the room socket route (``room_route``: ``ROOM_PATH`` →
    ``RoomSocketApp``), and which hands the websockets that route matches straight to it, past
    the middleware stack and the router; everything else (HTTP, lifespan, other paths) is
    FastAPI's. The route decides which scopes are room sockets, with the same match (and the
    same ``root_path`` handling) as FastAPI's router would apply.

    Removing this bypass raises the memory per idle room from 115 to 137 KB (target ≤ 90 KB)
    and CPU per move by 4.6 %: bench/RESULTS.md "Fast paths". An open socket then keeps no router, exception-handler,
    dependency or middleware frames alive. None of them does anything for this endpoint: it has
    no dependencies; for a websocket the error middlewares only re-raise, and every error it
    expects is answered here by an ``error`` frame or a close code (an unexpected exception
    still reaches uvicorn, which logs it and closes the socket).
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.room_route = WebSocketRoute(ROOM_PATH, RoomSocketApp(), name="room_socket")
        self.router.routes.append(self.room_route)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        matched, child = self.room_route.matches(scope)
        if matched is not Match.FULL:
            await super().__call__(scope, receive, send)
            return
        scope["app"] = self
        scope.update(child)
        await self.room_route.handle(scope, receive, send)


async def room_socket(websocket: WebSocket, code: str) -> None:
    """Serve one client of room ``code`` until it leaves."""
    arena = websocket.app.state.arena
    if not origin_allowed(websocket, arena.settings.allowed_origins):
        await websocket.close(code=1008)
        return
    sockets, ip = websocket.app.state.limits.sockets, client_ip(websocket)
    await websocket.accept()
    if not sockets.acquire(ip):
        await refuse(websocket, "too_many_connections",
                     f"At most {sockets.limit} connections per address.")
        return
    session = SocketSession(websocket, code, arena)
    try:
        await session.run()
    except WebSocketDisconnect:
        pass
    finally:
        sockets.release(ip)
        session.close()


async def refuse(websocket: WebSocket, code: str, message: str) -> None:
    """Send an ``error`` frame and close the socket with 1008 (policy violation)."""
    count_error(websocket.app, code, "ws")
    await websocket.send_json(frame(ErrorFrame(code=code, message=message)))
    await websocket.close(code=POLICY_VIOLATION)


async def close_quietly(websocket: WebSocket, code: int, reason: str = "") -> None:
    """Close ``websocket`` with ``code`` (RFC 6455), or do nothing if it is already closed: a
    second close of a socket Starlette marked disconnected (a send through it failed) raises
    ``WebSocketDisconnected`` (a ``RuntimeError``) out of the endpoint (e.g. the flood close of
    a socket whose client had gone), and a close whose own send fails (the client went away
    first) raises ``WebSocketDisconnect``."""
    try:
        await websocket.close(code=code, reason=reason)
    except (WebSocketDisconnected, WebSocketDisconnect):
        pass


class SocketSession:
    """One socket's conversation: hello, then act/chat/ping frames.
    """

    __slots__ = ("websocket", "code", "arena", "state", "conn", "guard")

    def __init__(self, websocket: WebSocket, code: str, arena) -> None:
        self.websocket, self.code, self.arena = websocket, code, arena
        self.state = ConnState.AWAITING_HELLO
        self.conn: Connection | None = None
        self.guard = FloodGuard(arena.settings.frames_per_second,
                                arena.settings.flood_close_after)

    async def run(self) -> None:
        """Read frames until the client disconnects."""
        while True:
            await self.serve_one(await self.next_text())

    async def serve_one(self, text: str) -> None:
        """Check, parse and handle one inbound frame (its objects are freed once it is served,
        not kept by the waiting loop until the next frame).

        Raises:
            WebSocketDisconnect: the socket was closed for flooding (1008).
        """
        verdict = self.guard.check()
        if verdict == FloodGuard.CLOSE:
            if self.conn is not None:
                await self.conn.flush(FLUSH_BEFORE_CLOSE)
            await close_quietly(self.websocket, POLICY_VIOLATION, "flood")
            raise WebSocketDisconnect(POLICY_VIOLATION)
        if verdict == FloodGuard.REFUSE:
            await self.error("rate_limited", "Too many frames; slow down.")
            return
        settings = self.arena.settings
        try:
            parsed = parse_frame(text, settings.max_frame_bytes, settings.chat_max_length,
                                 settings.max_json_depth)
        except FrameError as exc:
            await self.error(exc.code, exc.message)
            return
        await self.handle(parsed)

    async def next_text(self) -> str:
        """Return the next frame's text; before ``hello`` wait at most ``hello_timeout_seconds``.

        Raises:
            WebSocketDisconnect: the client went away, or sent no ``hello`` in time (the
                socket is then closed with 1008 after an ``error {code: hello_timeout}``).
        """
        if self.state is not ConnState.AWAITING_HELLO:
            return await receive_text(self.websocket)
        timeout = self.arena.settings.hello_timeout_seconds
        try:
            return await asyncio.wait_for(receive_text(self.websocket), timeout)
        except TimeoutError:
            await refuse(self.websocket, "hello_timeout", f"Send hello within {timeout:g} s.")
            raise WebSocketDisconnect(POLICY_VIOLATION) from None

    async def error(self, code: str, message: str) -> None:
        """Send an ``error`` frame (through the hub's writer once greeted)."""
        count_error(self.websocket.app, code, "ws")
        data = ErrorFrame(code=code, message=message)
        if self.conn is not None:
            self.conn.send(data)
        else:
            await self.websocket.send_json(frame(data))

    async def handle(self, parsed: Inbound) -> None:
        """Dispatch one valid frame by type and connection state."""
        if self.state is ConnState.AWAITING_HELLO:
            if not isinstance(parsed, Hello):
                await self.error("hello_first", "Send hello first.")
                return
            await self.greet(parsed)
        elif isinstance(parsed, Hello):
            await self.error("bad_frame", "hello was already sent.")
        elif isinstance(parsed, Act):
            await self.act(parsed)
        elif isinstance(parsed, Chat):
            await self.chat(parsed)
        elif isinstance(parsed, Ping):
            self.greeted.send(Pong())
        elif isinstance(parsed, Sync):
            await self.sync()

    @property
    def greeted(self) -> Connection:
        """The hub connection ``greet`` made (every frame past ``hello`` comes after it)."""
        assert self.conn is not None, "handle greets before it dispatches any other frame"
        return self.conn

    async def greet(self, hello: Hello) -> None:
        """Resolve the token to a seat of this room (else spectator); follow the room through
        its port; send ``welcome``."""
        port = self.arena.service.port(self.code)
        try:
            player = await player_for_token(self.arena.sessions, hello.token)
            greeting = await port.greet(player.id if player is not None else None)
        except RoomError as exc:
            await self.error(exc.code, exc.message)
            await self.websocket.close(code=4404)
            raise WebSocketDisconnect(4404) from exc
        seated = player if player is not None and greeting.seat is not None else None
        conn = Connection(self.websocket.send_text, port, greeting.follower,
                          seated.name if seated is not None else "spectator",
                          player_id=seated.id if seated is not None else None,
                          patches=hello.patches)
        self.conn = conn
        self.state = ConnState.GREETED
        self.arena.hub.welcome(conn, greeting)

    async def act(self, act: Act) -> None:
        """Play an action for this socket's seat (the seat comes only from the token). A refusal
        is an ``error``, then an ``update`` if the socket is behind the match (after
        ``stale_prompt`` always: docs/protocol.md)."""
        conn = self.greeted
        if conn.seat is None:
            await self.error("not_seated", "Spectators cannot act.")
            return
        try:
            await conn.port.act(conn.seat, act.prompt, act.action)
        except RoomError as exc:
            await self.error(exc.code, exc.message)
            await self.arena.hub.refresh(conn, force=exc.code == "stale_prompt")

    async def sync(self) -> None:
        """Send a full ``update`` to a socket that asked for patches (``Hub.sync``)."""
        conn = self.greeted
        if not conn.patches:
            await self.error("bad_frame", 'sync needs "patches": true in hello.')
            return
        await self.arena.hub.sync(conn)

    async def chat(self, chat: Chat) -> None:
        """Send a chat line (team lines need a seat)."""
        conn = self.greeted
        if chat.team and conn.seat is None:
            await self.error("not_seated", "Spectators have no team.")
            return
        await self.arena.hub.chat(conn, chat.text, chat.team, self.arena.clock.now())

    def close(self) -> None:
        """Leave the hub."""
        if self.conn is not None and self.state is ConnState.GREETED:
            self.arena.hub.leave(self.conn)
        self.state = ConnState.CLOSED
