"""The room sockets' edge: uvicorn's websocket protocol for this app (``--ws
app.realtime.edge:RoomSocketProtocol``; ``UVICORN_WS`` names it).

uvicorn hands every websocket upgrade request to this protocol with the connection. It speaks
RFC 6455 through the ``websockets`` library's Sans-I/O ``ServerProtocol`` (the opening
handshake, frame parsing and building, ping/pong and the closing handshake) and serves the
room socket ``/ws/rooms/{code}`` itself, without an ASGI application per socket: an idle
socket holds this object, its ``ServerProtocol`` and its ``SocketSession``, and no task, queue
or coroutine stack (memory per idle room: bench/RESULTS.md "Fast paths").

- The opening handshake (a short task): the path must be a room socket's (else ``404``), the
  ``Origin`` one ``origin_allowed`` accepts (else ``403``), the request a valid websocket
  upgrade (else the library's ``400``/``426``). The client's address is the peer's, or with
  ``--proxy-headers`` what uvicorn's ``ProxyHeadersMiddleware`` makes of a trusted proxy's
  ``X-Forwarded-For``. Then the per-address socket limit (``too_many_connections``, 1008) and
  the ``hello`` timeout (``hello_timeout``, 1008).
- Inbound text (or binary, read as UTF-8) messages (a fragmented one once whole) go to the
  session in order, also one read together with the client's close frame (it came before
  the close: an act sent just before a page closes is played): a reader task
  runs while frames wait and ends with the last one; uvicorn's graceful shutdown waits for it
  (an action being stored is stored).
- Outbound frames are written at once (``send_text``); while the transport is paused (a slow
  reader) its buffer holds them, in order.
- Keep-alive: a ping every ``--ws-ping-interval`` seconds; no pong within
  ``--ws-ping-timeout`` closes the socket (1011).
- uvicorn's shutdown closes every open socket with 1012 (service restart).
"""

from __future__ import annotations

import asyncio
import logging
import os
import traceback
from collections import deque
from typing import Any, cast

from starlette.datastructures import Headers
from starlette.routing import compile_path
from uvicorn.config import Config
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import CLOSED, OPEN
from websockets.server import ServerProtocol

from app.realtime.endpoint import (
    ROOM_PATH,
    ArenaApp,
    Disconnected,
    SocketSession,
    origin_allowed,
)

log = logging.getLogger(__name__)
#: The library's own logger (its per-connection lines stay at its level, not the app's).
LIBRARY_LOG = logging.getLogger("websockets.server")

#: The value of uvicorn's ``--ws`` (``Config(ws=...)``) that serves the room sockets.
UVICORN_WS = "app.realtime.edge:RoomSocketProtocol"

#: Seconds the server waits for the client's TCP close after the closing handshake.
CLOSE_TIMEOUT = 10.0
#: Close code of a keep-alive ping left unanswered or of a fault of the server (RFC 6455:
#: internal error, as uvicorn).
KEEPALIVE_FAILED = 1011
#: Close code of a server shutting down (RFC 6455: service restart).
SERVICE_RESTART = 1012
#: Inbound frames waiting for the session before the socket stops reading (TCP backpressure).
INBOX_LIMIT = 64

_ROOM_REGEX = compile_path(ROOM_PATH)[0]


def room_code(path: str, root_path: str = "") -> str | None:
    """Return the room code of a room socket's request path (``ROOM_PATH`` under
    ``root_path``), or ``None`` for any other path."""
    if root_path:
        if not path.startswith(root_path):
            return None
        path = path[len(root_path):]
    matched = _ROOM_REGEX.match(path.partition("?")[0])
    return matched["code"] if matched else None


def arena_app(app: Any) -> ArenaApp:
    """Return the ``ArenaApp`` inside uvicorn's loaded app (its middlewares wrap it in ``app``).

    Raises:
        TypeError: uvicorn does not serve an ``ArenaApp``.
    """
    while not isinstance(app, ArenaApp):
        inner = getattr(app, "app", None)
        if inner is None:
            raise TypeError(f"{UVICORN_WS} serves app.main's ArenaApp, not {app!r}")
        app = inner
    return app


async def forwarded(config: Config, scope: dict[str, Any]) -> dict[str, Any]:
    """Return ``scope`` as uvicorn's ``ProxyHeadersMiddleware`` leaves it with ``config``'s
    ``--proxy-headers`` and ``--forwarded-allow-ips`` (``client`` and ``scheme`` from a trusted
    proxy's headers), or unchanged without ``--proxy-headers``."""
    if not config.proxy_headers:
        return scope
    seen: dict[str, Any] = {}

    async def keep(inner: Any, receive: Any, send: Any) -> None:
        seen.update(inner)

    await ProxyHeadersMiddleware(keep, trusted_hosts=config.forwarded_allow_ips)(
        scope, None, None)  # type: ignore[arg-type]
    return seen


def drop_http_parser(http: asyncio.BaseProtocol) -> None:
    """Drop the parser of the HTTP protocol an upgraded connection came from. uvicorn's
    httptools protocol and its parser refer to each other (the parser calls the protocol's
    bound methods) and it breaks that cycle in its ``connection_lost``; an upgraded
    connection ends in ``RoomSocketProtocol`` instead, so without this each upgrade would
    leave ≈ 5 KB for a full collection. Called once the upgrade is done (``call_soon``); a
    protocol without a ``parser`` (h11's) is left as it is."""
    if getattr(http, "parser", None) is not None:
        http.parser = None  # type: ignore[attr-defined]


def end_parser(conn: ServerProtocol) -> None:
    """Free what ``conn``'s parser holds once its connection is gone: the library's parser is
    a generator of ``conn`` (and a failed parse keeps its exception, whose traceback holds the
    generator's frame), so a finished connection is a garbage cycle of a few KB otherwise.
    ``conn`` reads no more data after this."""
    conn.parser.close()
    if conn.parser_exc is not None:
        traceback.clear_frames(conn.parser_exc.__traceback__)


class RoomSocketProtocol(asyncio.Protocol):
    """One websocket connection (see the module docstring). uvicorn makes one per upgrade
    request (its ``ws_protocol_class``) and calls ``shutdown`` on a graceful stop.

    Args:
        config: uvicorn's configuration (``ws_max_size``, keep-alive, proxy headers).
        server_state: uvicorn's connections and tasks (a graceful stop waits for both).
        app_state: uvicorn's lifespan state (unused: the app is ``config.loaded_app``).
    """

    def __init__(self, config: Config, server_state: ServerState,
                 app_state: dict[str, Any] | None = None,
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        if not config.loaded:
            config.load()
        self.config, self.server_state = config, server_state
        self.app = arena_app(config.loaded_app)
        self.conn = ServerProtocol(max_size=config.ws_max_size, logger=LIBRARY_LOG)
        self.transport: asyncio.Transport | None = None
        self.peer: tuple[str, int] | None = None
        self.session: SocketSession | None = None
        self.ip: str | None = None  # holds one of its address's sockets while set
        self.inbox: deque[str] | None = None
        self.fragments: list[bytes] | None = None  # a fragmented message's frames so far
        self.paused = False
        self.drained: asyncio.Event | None = None
        self.timer: asyncio.TimerHandle | None = None  # the hello timeout, then keep-alive
        self.pinged = False  # a keep-alive ping waits for its pong
        self.closer: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------------ asyncio

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Take the connection over from uvicorn's HTTP protocol (``drop_http_parser`` frees
        what the upgrade request leaves)."""
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        peer = transport.get_extra_info("peername")
        self.peer = (str(peer[0]), int(peer[1])) if isinstance(peer, tuple) else None
        self.server_state.connections.add(self)  # type: ignore[arg-type]
        asyncio.get_running_loop().call_soon(drop_http_parser, transport.get_protocol())

    def data_received(self, data: bytes) -> None:
        """Parse ``data``: the opening handshake, then frames (their answers go out at once)."""
        self.conn.receive_data(data)
        for event in self.conn.events_received():
            if isinstance(event, Request):
                self._watch(asyncio.get_running_loop().create_task(self._handshake(event)))
            elif isinstance(event, Frame):
                self._frame(event)
        self._flush()

    def eof_received(self) -> bool | None:
        """The client half-closed: so does the protocol (``close`` follows)."""
        self.conn.receive_eof()
        self._flush()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection: leave the room, free its address's socket, stop the timers.
        A frame being handled (an action being stored) is finished; later ones are dropped."""
        self.server_state.connections.discard(self)
        for timer in (self.timer, self.closer):
            if timer is not None:
                timer.cancel()
        self.timer = self.closer = None
        if self.inbox is not None:
            self.inbox.clear()
        if self.drained is not None:
            self.drained.set()
        if self.session is not None:
            self.session.close()
        if self.ip is not None:
            self.app.state.limits.sockets.release(self.ip)
            self.ip = None
        self.transport = None  # uvloop's transport keeps its protocol: no cycle through it
        self.session = None  # a frame being handled holds its session itself
        end_parser(self.conn)

    def pause_writing(self) -> None:
        """The transport's buffer is full (a slow reader): later frames wait in it."""
        self.paused = True

    def resume_writing(self) -> None:
        """The transport's buffer drained."""
        self.paused = False
        if self.drained is not None:
            self.drained.set()

    def shutdown(self) -> None:
        """uvicorn stops: close an open socket with 1012, drop any other connection."""
        if self.conn.state is OPEN:
            self.close(SERVICE_RESTART)
        if self.transport is not None:
            self.transport.close()

    # ------------------------------------------------------------------ the link

    @property
    def open(self) -> bool:
        """Whether frames can still be sent (the closing handshake has not begun)."""
        return self.conn.state is OPEN and self.transport is not None \
            and not self.transport.is_closing()

    def send_text(self, text: str) -> None:
        """Send one text frame now (the transport buffers it while paused); nothing once the
        socket is closing."""
        if self.open:
            self.conn.send_text(text.encode())
            self._flush()

    def close(self, code: int, reason: str = "") -> None:
        """Begin the closing handshake with ``code`` (RFC 6455); the TCP connection closes
        when the client answers, or after ``CLOSE_TIMEOUT`` seconds."""
        if self.conn.state is OPEN:
            self.conn.send_close(code, reason)
            self._flush()

    async def flush(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until the transport is no longer paused: the
        frames sent so far have left for the network or wait only in the kernel."""
        if not self.paused or self.transport is None or self.transport.is_closing():
            return
        self.drained = self.drained or asyncio.Event()
        self.drained.clear()
        try:
            await asyncio.wait_for(self.drained.wait(), timeout)
        except TimeoutError:
            pass

    # ------------------------------------------------------------------ inside

    def _flush(self) -> None:
        """Write what the protocol has to send; close the transport when it says so."""
        transport = self.transport
        if transport is None:
            return
        for data in self.conn.data_to_send():
            if data:
                transport.write(data)
        if not self.conn.close_expected() or transport.is_closing():
            return
        conn = self.conn
        if conn.close_rcvd is not None or conn.parser_exc is not None or conn.state is CLOSED:
            transport.close()  # the closing handshake is over (or failed): the server closes TCP
        elif self.closer is None:  # wait for the client's close frame, not forever
            self.closer = asyncio.get_running_loop().call_later(CLOSE_TIMEOUT, transport.close)

    def _watch(self, task: asyncio.Task) -> None:
        """Let uvicorn's graceful shutdown wait for ``task``."""
        tasks = self.server_state.tasks
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def _handshake(self, request: Request) -> None:
        """Accept or refuse the opening handshake (see the module docstring)."""
        config, headers = self.config, Headers(raw=[
            (name.lower().encode("latin-1"), value.encode("latin-1"))
            for name, value in request.headers.raw_items()])
        code = room_code(request.path, config.root_path)
        scope = await forwarded(config, {
            "type": "websocket", "scheme": "wss" if self._tls() else "ws",
            "client": self.peer, "headers": headers.raw, "path": request.path})
        if self.transport is None:  # the connection was lost before this ran: nothing to hold
            return
        if code is None:
            response = self.conn.reject(404, "Not Found\n")
        elif not origin_allowed(headers, scope["scheme"], self.app.state.arena.settings
                                .allowed_origins):
            response = self.conn.reject(403, "Forbidden\n")
        else:
            response = self.conn.accept(request)
        self.conn.send_response(response)
        self._flush()
        if response.status_code != 101:
            if self.transport is not None:
                self.transport.close()
            return
        client = scope.get("client")
        ip = client[0] if client and client[0] else "unknown"
        arena = self.app.state.arena
        self.session = SocketSession(self, code, arena, self.app)  # type: ignore[arg-type]
        limits = self.app.state.limits.sockets
        if not limits.acquire(ip):
            await self.session.refuse("too_many_connections",
                                      f"At most {limits.limit} connections per address.")
            return
        self.ip = ip
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(arena.settings.hello_timeout_seconds, self._hello_late)

    def _tls(self) -> bool:
        return self.transport is not None and \
            self.transport.get_extra_info("sslcontext") is not None

    def _hello_late(self) -> None:
        """No ``hello`` in time: refuse the socket (its keep-alive starts otherwise)."""
        self.timer = None
        session = self.session
        if session is not None and not session.greeted_yet and self.open:
            timeout = session.arena.settings.hello_timeout_seconds
            self._watch(asyncio.get_running_loop().create_task(
                session.refuse("hello_timeout", f"Send hello within {timeout:g} s.")))

    def hello_seen(self) -> None:
        """The session greeted its socket: the hello timeout gives way to the keep-alive."""
        if self.timer is not None:
            self.timer.cancel()
        self._keepalive()

    def _keepalive(self) -> None:
        """Schedule the next keep-alive ping (none without ``--ws-ping-interval``)."""
        interval = self.config.ws_ping_interval
        self.timer = (asyncio.get_running_loop().call_later(interval, self._ping)
                      if interval and self.open else None)

    def _ping(self) -> None:
        """Close a socket whose last ping is unanswered, else ping it."""
        if not self.open:
            return
        if self.pinged:
            self.close(KEEPALIVE_FAILED, "keepalive ping timeout")
            return
        self.pinged = True
        self.conn.send_ping(os.urandom(4))
        self._flush()
        timeout = self.config.ws_ping_timeout
        self.timer = asyncio.get_running_loop().call_later(
            timeout if timeout is not None else self.config.ws_ping_interval or 20.0, self._ping)

    def _frame(self, frame: Frame) -> None:
        """Hand a whole data message to the session (a fragmented one once its last frame
        came); a pong ends the keep-alive wait."""
        if frame.opcode is Opcode.PONG:
            if self.pinged:
                self.pinged = False
                if self.timer is not None:
                    self.timer.cancel()
                self._keepalive()
            return
        if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
            self.fragments = [bytes(frame.data)]
        elif frame.opcode is Opcode.CONT and self.fragments is not None:
            self.fragments.append(bytes(frame.data))
        else:
            return
        if not frame.fin:
            return
        data, self.fragments = b"".join(self.fragments), None
        if self.session is not None and (self.open or self._closed_by_client()):
            self._inbound(data.decode("utf-8", "replace"))

    def _closed_by_client(self) -> bool:
        """Whether the closing handshake is the client's: a message the library hands on then
        came before the client's close frame (read with it, which already moved the protocol
        on to closing), so it is served like any other; after a close the server began (a
        flood, a refusal, a shutdown) the client's later messages are dropped."""
        return self.conn.close_rcvd is not None and bool(self.conn.close_rcvd_then_sent)

    def _inbound(self, text: str) -> None:
        """Queue one message for the session; start the reader when none runs."""
        if self.inbox is not None:
            self.inbox.append(text)
            if len(self.inbox) >= INBOX_LIMIT and self.transport is not None:
                self.transport.pause_reading()
            return
        self.inbox = deque((text,))
        self._watch(asyncio.get_running_loop().create_task(self._read(self.inbox)))

    async def _read(self, inbox: deque[str]) -> None:
        """Let the session handle the waiting frames in order until none is left."""
        session = self.session
        assert session is not None, "frames reach the session only once it exists"
        try:
            while inbox:
                await session.serve_one(inbox.popleft())
        except Disconnected:
            inbox.clear()
        except Exception:  # a fault of the server, not of the frame: the socket goes
            log.exception("room socket %s failed", session.code)
            inbox.clear()
            self.close(KEEPALIVE_FAILED, "internal error")
        finally:
            self.inbox = None
            if self.transport is not None and not self.transport.is_closing():
                self.transport.resume_reading()
