"""The room socket's conversation (docs/protocol.md "Websocket"): ``SocketSession``.

A connection moves through explicit states: ``AWAITING_HELLO`` → ``GREETED`` → ``CLOSED``.
Every inbound frame is validated (``app.realtime.frames``) before it reaches the room. The
session reads frames one at a time from its ``Link`` (the socket: ``app.realtime.edge``,
which serves ``ROOM_PATH``) and sends through it.
"""

from __future__ import annotations

import logging
from enum import Enum
from typing import Any, Protocol
from urllib.parse import urlsplit

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.types import Receive, Scope, Send

from app.auth import player_for_token
from app.metrics import count_error
from app.realtime.fanout import encode
from app.realtime.frames import FloodGuard, FrameError, parse_frame
from app.realtime.hub import Connection
from app.realtime.schemas import Act, Chat, ErrorFrame, Hello, Inbound, Ping, Pong, Sync, frame
from app.rooms.errors import RoomError

log = logging.getLogger(__name__)

#: Close codes (RFC 6455): a policy breach (too many sockets from one address, a flood).
POLICY_VIOLATION = 1008
#: Close code of an unknown room (docs/protocol.md: do not reconnect).
ROOM_NOT_FOUND = 4404

#: Seconds a flood close waits for the frames already queued to that socket (its pongs and
#: ``rate_limited`` errors) to go out first.
FLUSH_BEFORE_CLOSE = 1.0

#: The room socket's path; ``code`` is one non-empty path segment.
ROOM_PATH = "/ws/rooms/{code}"


class Link(Protocol):
    """A websocket as a session sees it (``app.realtime.edge.RoomSocketProtocol``)."""

    @property
    def open(self) -> bool:
        """Whether frames can still be sent."""

    def send_text(self, text: str) -> None:
        """Send one text frame (in order; dropped once the socket is closing)."""

    def close(self, code: int, reason: str = "") -> None:
        """Begin the closing handshake with ``code``."""

    async def flush(self, timeout: float) -> None:
        """Wait (at most ``timeout`` s) for the frames sent so far to leave."""

    def hello_seen(self) -> None:
        """The socket was greeted (its hello timeout ends)."""


class Disconnected(Exception):
    """The session closed its socket (a flood, an unknown room, a refusal): read no more."""


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


def origin_allowed(headers: Headers, scheme: str, allowed: list[str]) -> bool:
    """Return whether a socket whose upgrade request has ``headers``, reached over ``scheme``
    (``ws``/``wss``), may connect.

    Allowed: no ``Origin`` (not a browser), an origin with the request's own scheme, host and
    port (``http`` pages for ``ws`` sockets, ``https`` for ``wss``; a missing port is the
    scheme's default), or one listed in ``ARENA_ALLOWED_ORIGINS`` (``"*"`` allows any).
    """
    origin = headers.get("origin")
    if origin is None or "*" in allowed or origin.rstrip("/") in [a.rstrip("/") for a in allowed]:
        return True
    own = _endpoint(scheme, headers.get("host", ""))
    theirs = urlsplit(origin)
    return own is not None and _endpoint(theirs.scheme, theirs.netloc) == own


class ArenaApp(FastAPI):
    """The application: FastAPI for HTTP and the lifespan. Room sockets are served by
    ``app.realtime.edge`` (uvicorn's ``--ws``), never by an ASGI route: a websocket that
    reaches the app (uvicorn started without that ``--ws``) is refused and logged."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await super().__call__(scope, receive, send)
            return
        log.error("a websocket reached the ASGI app: start uvicorn with "
                  "--ws app.realtime.edge:RoomSocketProtocol")
        await send({"type": "websocket.close", "code": 1011})


class SocketSession:
    """One socket's conversation: hello, then act/chat/ping/sync frames (``serve_one``, one
    at a time, in order).

    Args:
        link: the socket; code: its room; arena: the running ``main.Arena``; app: the
            application (metrics).
    """

    __slots__ = ("link", "code", "arena", "app", "state", "conn", "guard")

    def __init__(self, link: Link, code: str, arena: Any, app: FastAPI) -> None:
        self.link, self.code, self.arena, self.app = link, code, arena, app
        self.state = ConnState.AWAITING_HELLO
        self.conn: Connection | None = None
        self.guard = FloodGuard(arena.settings.frames_per_second,
                                arena.settings.flood_close_after)

    @property
    def greeted_yet(self) -> bool:
        """Whether the socket's ``hello`` was answered (or the session is over)."""
        return self.state is not ConnState.AWAITING_HELLO

    async def serve_one(self, text: str) -> None:
        """Check, parse and handle one inbound frame.

        Raises:
            Disconnected: the socket was closed (a flood: 1008; an unknown room: 4404).
        """
        verdict = self.guard.check()
        if verdict == FloodGuard.CLOSE:
            await self.link.flush(FLUSH_BEFORE_CLOSE)
            self.link.close(POLICY_VIOLATION, "flood")
            raise Disconnected("flood")
        if verdict == FloodGuard.REFUSE:
            self.error("rate_limited", "Too many frames; slow down.")
            return
        settings = self.arena.settings
        try:
            parsed = parse_frame(text, settings.max_frame_bytes, settings.chat_max_length,
                                 settings.max_json_depth)
        except FrameError as exc:
            self.error(exc.code, exc.message)
            return
        await self.handle(parsed)

    def error(self, code: str, message: str) -> None:
        """Send an ``error`` frame (after the frames already queued to the socket)."""
        count_error(self.app, code, "ws")
        data = ErrorFrame(code=code, message=message)
        if self.conn is not None:
            self.conn.send(data)
        else:
            self.link.send_text(encode(frame(data)))

    async def refuse(self, code: str, message: str) -> None:
        """Send an ``error`` frame, then close the socket with 1008 (policy violation)."""
        self.error(code, message)
        self.state = ConnState.CLOSED
        self.link.close(POLICY_VIOLATION)

    async def handle(self, parsed: Inbound) -> None:
        """Dispatch one valid frame by type and connection state."""
        if self.state is ConnState.AWAITING_HELLO:
            if not isinstance(parsed, Hello):
                self.error("hello_first", "Send hello first.")
                return
            await self.greet(parsed)
        elif self.state is ConnState.CLOSED:
            return
        elif isinstance(parsed, Hello):
            self.error("bad_frame", "hello was already sent.")
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
        its port; send ``welcome``, then the room's recent chat lines this seat may see (the
        greet runs in ``Hub.greeting``). A token no player holds (forged, or a player the
        server no longer knows) is told first (``unauthorized``): the socket is a spectator's.

        Raises:
            Disconnected: no such room (``room_not_found``, then the socket closes with 4404).
        """
        async with self.arena.hub.greeting(self.code):
            await self._greet(hello)

    async def _greet(self, hello: Hello) -> None:
        """``greet``'s steps, the room's chat lines kept meanwhile."""
        port = self.arena.service.port(self.code)
        try:
            player = await player_for_token(self.arena.sessions, hello.token)
            greeting = await port.greet(player.id if player is not None else None)
        except RoomError as exc:
            self.error(exc.code, exc.message)
            self.state = ConnState.CLOSED
            self.link.close(ROOM_NOT_FOUND)
            raise Disconnected(exc.code) from exc
        if self.state is ConnState.CLOSED or not self.link.open:  # gone meanwhile
            port.leave(greeting.follower)
            return
        if hello.token and player is None:
            self.error("unauthorized", "This player token is not known: you are watching as a "
                       "spectator.")
        conn = Connection(self.link, port, greeting.follower,
                          player_id=player.id if player is not None else None,
                          player_name=player.name if player is not None else None,
                          patches=hello.patches)
        self.conn = conn
        self.state = ConnState.GREETED
        self.link.hello_seen()
        self.arena.hub.welcome(conn, greeting)

    async def act(self, act: Act) -> None:
        """Play an action for this socket's seat (the seat comes only from the token). A refusal
        is an ``error``, then an ``update`` if the socket is behind the match (after
        ``stale_prompt`` always: docs/protocol.md)."""
        conn = self.greeted
        if conn.seat is None:
            self.error("not_seated", "Spectators cannot act.")
            return
        try:
            await conn.port.act(conn.seat, act.prompt, act.action)
        except RoomError as exc:
            self.error(exc.code, exc.message)
            await self.arena.hub.refresh(conn, force=exc.code == "stale_prompt")

    async def sync(self) -> None:
        """Send a full ``update`` to a socket that asked for patches (``Hub.sync``)."""
        conn = self.greeted
        if not conn.patches:
            self.error("bad_frame", 'sync needs "patches": true in hello.')
            return
        await self.arena.hub.sync(conn)

    async def chat(self, chat: Chat) -> None:
        """Send a chat line (team lines need a seat)."""
        conn = self.greeted
        if chat.team and conn.seat is None:
            self.error("not_seated", "Spectators have no team.")
            return
        await self.arena.hub.chat(conn, chat.text, chat.team, self.arena.clock.now())

    def close(self) -> None:
        """The socket closed: leave the hub (once)."""
        if self.conn is not None and self.state is ConnState.GREETED:
            self.arena.hub.leave(self.conn)
        self.state = ConnState.CLOSED
