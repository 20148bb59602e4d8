"""The socket write and read path per move: inbound frames are read through Starlette's
``WebSocket`` (a binary frame decoded as UTF-8), a ``Connection``'s frames leave in order
(written at once, or behind a write that waits, by its writer task), and string-keyed frames are encoded without orjson's slower
non-string-key option."""

from __future__ import annotations

import asyncio
import json

import orjson
import pytest
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.realtime import fanout
from app.realtime.endpoint import receive_text
from app.realtime.fanout import encode


async def test_inbound_frames_are_read_through_the_websocket():
    messages = [{"type": "websocket.connect"},
                {"type": "websocket.receive", "text": '{"type":"ping"}'},
                {"type": "websocket.receive", "bytes": b'{"type":"p\xc3\xa9"}'},
                {"type": "websocket.receive", "bytes": b"\xff"},
                {"type": "websocket.disconnect", "code": 1001}]

    async def receive() -> dict:
        return messages.pop(0)

    async def send(message: dict) -> None:
        assert message["type"] == "websocket.accept"

    websocket = WebSocket({"type": "websocket", "path": "/ws/rooms/X", "headers": []},
                          receive, send)
    await websocket.accept()
    assert await receive_text(websocket) == '{"type":"ping"}'
    assert await receive_text(websocket) == '{"type":"pé"}'
    assert await receive_text(websocket) == "\ufffd"
    with pytest.raises(WebSocketDisconnect) as gone:
        await receive_text(websocket)
    assert gone.value.code == 1001


def test_string_keyed_frames_skip_the_non_string_key_option(monkeypatch):
    options = []
    dumps = orjson.dumps

    def recording_dumps(data, option=None):
        options.append(option)
        return dumps(data) if option is None else dumps(data, option=option)

    monkeypatch.setattr(fanout.orjson, "dumps", recording_dumps)
    plain = {"type": "update", "view": {"names": ["Zoë"]}, "clocks": {"0": 1.5}}
    assert encode(plain) == json.dumps(plain, separators=(",", ":"), ensure_ascii=False)
    assert options == [None]
    keyed = {"type": "update", "view": {"hp": {0: 3, 1: -2}}}
    assert encode(keyed) == '{"type":"update","view":{"hp":{"0":3,"1":-2}}}'
    assert options == [None, None, orjson.OPT_NON_STR_KEYS]  # refused, then encoded with it


def test_a_value_json_cannot_hold_is_still_a_type_error():
    with pytest.raises(TypeError):
        encode({"type": "update", "view": {1, 2}})


class _SlowSocket:
    """A ``send_text`` that, like uvicorn's websocket protocol under Starlette, waits while the
    transport is paused (``writable`` cleared) and raises once the client is gone."""

    def __init__(self) -> None:
        self.writable, self.sent, self.gone = asyncio.Event(), [], False
        self.writable.set()

    async def __call__(self, text: str) -> None:
        await self.writable.wait()
        if self.gone:
            raise WebSocketDisconnect(1006)
        self.sent.append(json.loads(text)["n"])

    def lose(self) -> None:
        self.gone = True
        self.writable.set()


async def _settle(conn) -> None:
    """Let the connection's writer task (if any) run to its end."""
    if conn.writer is not None:
        await asyncio.gather(conn.writer, return_exceptions=True)


async def test_frames_keep_their_order_behind_a_write_that_waited():
    from app.realtime.hub import Connection
    from app.rooms.port import Follower, RoomPort

    socket = _SlowSocket()
    conn = Connection(socket, RoomPort(None, "ROOM"), Follower(0), "p")
    conn.send({"n": 1})
    await _settle(conn)
    assert socket.sent == [1] and conn.writer is None
    socket.writable.clear()  # the client reads slowly
    conn.send({"n": 2})
    conn.send({"n": 3})
    await asyncio.sleep(0)  # the writer waits on frame 2
    conn.send({"n": 4})
    assert socket.sent == [1] and conn.writer is not None and list(conn.outbox) == [
        '{"n":3}', '{"n":4}']
    socket.writable.set()
    await _settle(conn)
    assert socket.sent == [1, 2, 3, 4] and conn.writer is None and conn.outbox is None
    conn.send({"n": 5})
    await _settle(conn)
    assert socket.sent == [1, 2, 3, 4, 5]


async def test_a_socket_lost_mid_send_drops_the_queued_and_later_frames():
    from app.realtime.hub import Connection
    from app.rooms.port import Follower, RoomPort

    socket = _SlowSocket()
    conn = Connection(socket, RoomPort(None, "ROOM"), Follower(None), "spectator")
    socket.writable.clear()
    conn.send({"n": 1})
    conn.send({"n": 2})
    socket.lose()
    await _settle(conn)
    conn.send({"n": 3})
    assert socket.sent == [] and conn.dead and conn.writer is None


async def test_stop_cancels_a_waiting_write_and_leaves_no_waiter():
    from app.realtime.hub import Connection
    from app.rooms.port import Follower, RoomPort

    socket = _SlowSocket()
    conn = Connection(socket, RoomPort(None, "ROOM"), Follower(1), "p")
    socket.writable.clear()
    conn.send({"n": 1})
    await asyncio.sleep(0)  # the writer waits on the paused transport
    writer = conn.writer
    conn.stop()
    await asyncio.gather(writer, return_exceptions=True)
    socket.writable.set()
    await asyncio.sleep(0)
    assert writer.cancelled() and socket.sent == [] and not socket.writable._waiters
