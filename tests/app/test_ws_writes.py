"""The socket write and read path per move (server CPU per move, bench/HISTORY.md §3b):
a write that does not wait runs in the caller's task (``app.realtime.eager``), frames go to the
ASGI ``send`` callable as text, inbound frames are read from the ASGI ``receive`` callable, and
string-keyed frames are encoded without orjson's slower non-string-key option."""

from __future__ import annotations

import asyncio
import json

import orjson
import pytest
from starlette.websockets import WebSocketDisconnect

from app.realtime import fanout
from app.realtime.eager import Resumed, run_until_wait
from app.realtime.endpoint import receive_text
from app.realtime.fanout import encode


async def test_a_coroutine_that_never_waits_runs_at_once_in_the_caller():
    ran = []

    async def write(text: str) -> str:
        ran.append(text)
        return "done"

    assert run_until_wait(write("a")) is None
    assert ran == ["a"]


async def test_a_coroutine_that_waits_is_finished_by_awaiting_the_rest():
    gate, ran = asyncio.Event(), []

    async def write(text: str) -> str:
        ran.append(f"before {text}")
        await gate.wait()
        await asyncio.sleep(0)  # waits a second time: the rest still follows it
        ran.append(f"after {text}")
        return "done"

    rest = run_until_wait(write("a"))
    assert isinstance(rest, Resumed) and ran == ["before a"]
    task = asyncio.get_running_loop().create_task(_finish(rest))
    await asyncio.sleep(0)
    assert not task.done()
    gate.set()
    assert await task == "done"
    assert ran == ["before a", "after a"]


async def _finish(rest: Resumed) -> str:
    return await rest


async def test_an_error_before_the_first_wait_is_raised_to_the_caller():
    async def write() -> None:
        raise OSError("closed")

    with pytest.raises(OSError, match="closed"):
        run_until_wait(write())


async def test_errors_after_the_wait_and_cancellations_reach_the_awaiting_task():
    gate, cleaned = asyncio.Event(), []

    async def failing() -> None:
        await gate.wait()
        raise OSError("closed")

    async def held() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            cleaned.append("held")

    failed = asyncio.get_running_loop().create_task(_finish(run_until_wait(failing())))
    cancelled = asyncio.get_running_loop().create_task(_finish(run_until_wait(held())))
    await asyncio.sleep(0)
    gate.set()
    cancelled.cancel()
    results = await asyncio.gather(failed, cancelled, return_exceptions=True)
    assert isinstance(results[0], OSError) and isinstance(results[1], asyncio.CancelledError)
    assert cleaned == ["held"]  # the cancellation went into the coroutine


async def test_inbound_frames_are_read_from_the_asgi_receive_callable():
    messages = [{"type": "websocket.receive", "text": '{"type":"ping"}'},
                {"type": "websocket.receive", "bytes": b'{"type":"p\xc3\xa9"}'},
                {"type": "websocket.receive", "bytes": b"\xff"},
                {"type": "websocket.disconnect", "code": 1001}]

    async def receive() -> dict:
        return messages.pop(0)

    assert await receive_text(receive) == '{"type":"ping"}'
    assert await receive_text(receive) == '{"type":"pé"}'
    assert await receive_text(receive) == "\ufffd"
    with pytest.raises(WebSocketDisconnect) as gone:
        await receive_text(receive)
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
    """An ASGI ``send`` that, like uvicorn's websocket protocol, waits while the transport is
    paused (``writable`` cleared) and raises once the client is gone."""

    def __init__(self) -> None:
        self.writable, self.sent, self.gone = asyncio.Event(), [], False
        self.writable.set()

    async def __call__(self, message: dict) -> None:
        await self.writable.wait()
        if self.gone:
            raise OSError("client disconnected")
        self.sent.append(json.loads(message["text"])["n"])

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
    conn.send({"n": 1})  # written at once, no task
    assert socket.sent == [1] and conn.writer is None
    socket.writable.clear()  # the client reads slowly
    conn.send({"n": 2})
    conn.send({"n": 3})
    conn.send({"n": 4})
    assert socket.sent == [1] and conn.writer is not None and list(conn.outbox) == [
        '{"n":3}', '{"n":4}']
    socket.writable.set()
    await _settle(conn)
    assert socket.sent == [1, 2, 3, 4] and conn.writer is None and conn.outbox is None
    conn.send({"n": 5})
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
