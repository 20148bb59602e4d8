"""The room sockets' edge (``app.realtime.edge``): which paths it serves, what an idle socket
holds, the keep-alive, and waiting for a slow reader's buffer before a close."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import uvicorn
import websockets
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from app.realtime.edge import UVICORN_WS, RoomSocketProtocol, room_code
from app.settings import Settings
from tests.app.conftest import auth, make_app, running_arena
from tests.conftest import free_port
from tests.waiting import wait_until


def test_the_room_socket_path_and_nothing_else_names_a_room():
    assert room_code("/ws/rooms/AB12cd") == "AB12cd"
    assert room_code("/ws/rooms/AB12cd?x=1") == "AB12cd"
    assert room_code("/arena/ws/rooms/AB12cd", root_path="/arena") == "AB12cd"
    assert room_code("/ws/rooms/AB12cd", root_path="/arena") is None
    assert room_code("/ws/rooms/") is None
    assert room_code("/ws/rooms/AB/x") is None
    assert room_code("/ws/room/AB") is None
    assert room_code("/api/rooms/AB") is None


async def test_another_path_is_refused_with_404(arena):
    url = arena.ws_base + "/ws/lobby"
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(url)
    assert refused.value.response.status_code == 404


#: The server's objects of one room socket, its upgrade request's HTTP protocol included.
SOCKET_KINDS = frozenset({"HttpToolsProtocol", "HttpRequestParser", "H11Protocol",
                          "RoomSocketProtocol", "ServerProtocol", "SocketSession"})


def socket_cycles() -> dict[str, int]:
    """Collect everything (frozen objects too) with the collector saving what it finds; return
    how many of ``SOCKET_KINDS`` were in garbage cycles, by kind, and forget them."""
    gc.unfreeze()
    gc.collect()
    found = Counter(kind for kind in map(lambda thing: type(thing).__name__, gc.garbage)
                    if kind in SOCKET_KINDS)
    gc.garbage.clear()
    return dict(found)


async def test_a_room_socket_leaves_no_garbage_cycle_open_or_closed(arena):
    alice = await arena.player("Alice")
    code = (await arena.room(alice))["code"]
    watch = await arena.connect(code)
    gc.collect()
    gc.disable()  # only the test's own collections: a cycle cannot be freed unseen
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        sockets = [await arena.connect(code) for _ in range(3)]
        for socket in sockets:
            await socket.silent()
        await watch.until_presence([], 4)
        opened = socket_cycles()
        for socket in sockets:
            await socket.socket.close()
        await watch.until_presence([], 1)  # they left the room: their connection_lost is over
        closed = socket_cycles()
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert (opened, closed) == ({}, {})


def server_tasks() -> list[asyncio.Task]:
    """The tasks of this event loop but the test's own websocket clients' (the library's)."""
    return [task for task in asyncio.all_tasks()
            if "/websockets/" not in task.get_coro().cr_code.co_filename]  # type: ignore[union-attr]


async def test_idle_sockets_hold_no_task(arena):
    alice = await arena.player("Alice")
    code = (await arena.room(alice))["code"]
    first = await arena.connect(code)
    await first.silent()
    before = len(server_tasks())
    watchers = [await arena.connect(code) for _ in range(10)]
    for watcher in watchers:
        await watcher.silent()
    await first.silent()
    assert len(server_tasks()) == before


class RawClient:
    """A websocket client on a bare TCP connection (the library's Sans-I/O protocol), which
    answers the server's pings only when ``answers`` is set."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 protocol: ClientProtocol, answers: bool) -> None:
        self.reader, self.writer, self.protocol, self.answers = reader, writer, protocol, answers
        self.pings = 0

    @classmethod
    async def connect(cls, url: str, answers: bool) -> RawClient:
        uri = parse_uri(url)
        reader, writer = await asyncio.open_connection(uri.host, uri.port)
        protocol = ClientProtocol(uri)
        protocol.send_request(protocol.connect())
        client = cls(reader, writer, protocol, answers)
        client.write()
        while protocol.handshake_exc is None and protocol.state.name == "CONNECTING":
            protocol.receive_data(await asyncio.wait_for(reader.read(65536), 10))
        assert protocol.state.name == "OPEN", protocol.handshake_exc
        return client

    def write(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                self.writer.write(data)

    async def frames(self) -> AsyncIterator[Frame]:
        """Yield the frames received until the connection ends; a ping is answered (the
        library queues the pong) only when ``answers``."""
        while data := await asyncio.wait_for(self.reader.read(65536), 10):
            self.protocol.receive_data(data)
            for event in self.protocol.events_received():
                if isinstance(event, Frame):
                    if event.opcode is Opcode.PING:
                        self.pings += 1
                    yield event
            pending = self.protocol.data_to_send()
            if self.answers:
                for chunk in pending:
                    if chunk:
                        self.writer.write(chunk)


@contextlib.asynccontextmanager
async def keepalive_server(db_path: Any, **config: Any) -> AsyncIterator[str]:
    """An app served with uvicorn options ``config``; yields the socket URL of an open room."""
    from app.rooms.clocks import ManualClock

    app = make_app(db_path, ManualClock())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="on",
                                           log_level="warning", ws=UVICORN_WS, **config))
    task = asyncio.create_task(server.serve())
    await wait_until(lambda: server.started and getattr(app.state, "ready", False),
                     "the server's start", timeout=10)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            alice = (await http.post("/api/players", json={"name": "Alice"})).json()
            room = (await http.post("/api/rooms", json={"game": "reverse_curse"},
                                    headers=auth(alice))).json()
        yield f"ws://127.0.0.1:{port}/ws/rooms/{room['code']}"
    finally:
        server.should_exit = True
        await task


async def test_a_socket_that_does_not_answer_pings_is_closed_with_1011(db_path):
    async with keepalive_server(db_path, ws_ping_interval=0.1, ws_ping_timeout=0.1) as url:
        lively = await RawClient.connect(url, answers=True)
        silent = await RawClient.connect(url, answers=False)
        for client in (lively, silent):  # greeted: the keep-alive starts
            client.protocol.send_text(b'{"type": "hello", "token": null}')
            client.write()

        async def until_closed(client: RawClient) -> bytes:
            async for frame in client.frames():
                if frame.opcode is Opcode.CLOSE:
                    return bytes(frame.data[:2])
            return b""

        async def three_pings(client: RawClient) -> int:
            async for frame in client.frames():
                if client.pings == 3 or frame.opcode is Opcode.CLOSE:
                    break
            return client.pings

        closed, pinged = await asyncio.gather(until_closed(silent), three_pings(lively))
        assert (closed, silent.pings) == ((1011).to_bytes(2, "big"), 1)
        assert pinged == 3  # answered every time: still open


class PausedTransport(asyncio.Transport):
    """A transport whose writes are kept (``written``), opened by no other protocol."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.closed = False

    def get_protocol(self) -> asyncio.BaseProtocol | None:  # type: ignore[override]
        return None

    def write(self, data: Any) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 5555) if name == "peername" else default


async def test_flush_waits_for_a_paused_transport_to_drain():
    from app.main import create_app

    config = uvicorn.Config(create_app(Settings()), ws=UVICORN_WS)
    config.load()
    socket = RoomSocketProtocol(config, ServerState())
    transport = PausedTransport()
    socket.connection_made(transport)
    await socket.flush(5)  # not paused: at once
    socket.pause_writing()
    waiting = asyncio.create_task(socket.flush(5))
    await asyncio.sleep(0)
    assert not waiting.done()
    socket.resume_writing()
    await asyncio.wait_for(waiting, 5)
    socket.pause_writing()
    assert await asyncio.wait_for(socket.flush(0.01), 5) is None  # gives up after the timeout


async def test_a_connection_lost_before_its_handshake_ran_holds_nothing(db_path):
    """The upgrade request arrives and the connection is lost before the handshake task
    runs: the task then takes no socket of the address and makes no session."""
    async with running_arena(db_path) as arena:
        config = uvicorn.Config(arena.app, ws=UVICORN_WS)
        config.load()
        socket = RoomSocketProtocol(config, ServerState())
        socket.connection_made(PausedTransport())
        host = arena.base.removeprefix("http://")
        socket.data_received((
            f"GET /ws/rooms/ABCDEF HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {arena.base}\r\n\r\n").encode())
        socket.connection_lost(None)
        for _ in range(10):
            await asyncio.sleep(0)
        assert (socket.session, socket.ip) == (None, None)
        limits = arena.app.state.limits.sockets
        assert [limits.open(address) for address in ("127.0.0.1", "unknown")] == [0, 0]


async def test_a_session_closed_during_its_greet_leaves_nothing_behind(db_path):
    async with running_arena(db_path) as arena:
        alice = await arena.player("Alice")
        code = (await arena.room(alice))["code"]
        socket = await websockets.connect(f"{arena.ws_base}/ws/rooms/{code}")
        await socket.send('{"type": "hello", "token": null}')
        await socket.close()
        hub = arena.app.state.arena.hub
        await wait_until(lambda: hub.retained() == {"rooms": 0, "presence": 0, "chat": 0},
                         "the hub forgot the socket")


async def test_a_fragmented_or_binary_message_reaches_the_session_whole(arena):
    alice = await arena.player("Alice")
    code = (await arena.room(alice))["code"]
    url = f"{arena.ws_base}/ws/rooms/{code}"
    client = await RawClient.connect(url, answers=True)
    client.protocol.send_text(b'{"type": "hel', fin=False)
    client.protocol.send_continuation(b'lo", "token": null}', fin=True)
    client.protocol.send_binary(b'{"type": "ping"}')
    client.write()
    kinds = []
    async for frame in client.frames():
        if frame.opcode is Opcode.TEXT:
            kinds.append(json.loads(frame.data)["type"])
        if "pong" in kinds:
            break
    assert [kind for kind in kinds if kind != "presence"] == ["welcome", "pong"]
    client.writer.close()


async def test_an_act_sent_with_the_close_in_one_read_is_played(arena):
    # A page that plays and closes at once (a move, then the tab closed) sends its act and
    # its close frame together: the act came before the close, so it must be played.
    alice, bob = await arena.player("Alice"), await arena.player("Bob")
    room = await arena.room(alice, game="numgr")
    code = room["code"]
    for seat, person in enumerate((alice, bob)):
        assert (await arena.sit(code, seat, person)).status_code == 200
    sockets = [await arena.connect(code, person["token"]) for person in (alice, bob)]
    seat = next(s for s, client in enumerate(sockets) if client.welcome["prompt"])
    welcome = sockets[seat].welcome
    match_id = (await arena.http.get(f"/api/rooms/{code}")).json()["match_id"]
    client = await RawClient.connect(f"{arena.ws_base}/ws/rooms/{code}", answers=True)
    client.protocol.send_text(json.dumps(
        {"type": "hello", "token": (alice, bob)[seat]["token"]}).encode())
    client.write()
    async for frame in client.frames():
        if frame.opcode is Opcode.TEXT and json.loads(frame.data)["type"] == "welcome":
            break
    client.protocol.send_text(json.dumps({"type": "act", "prompt": welcome["prompt"],
                                          "action": welcome["legal"][0]}).encode())
    client.protocol.send_close(1000)
    client.writer.write(b"".join(client.protocol.data_to_send()))  # one segment, one read
    update = await sockets[1 - seat].next("update")
    assert update["version"] == 1
    assert await arena.action_count(match_id) == 1
    client.writer.close()
