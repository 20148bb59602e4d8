"""The flood close of a socket whose client is already gone ends quietly.

Seen in chat-flood runs (30 sockets chatting at 19 lines/s each
while the server lagged): a socket's writer hit the vanished transport (Starlette marks the
socket DISCONNECTED after an ``OSError`` in ``send``), then the reader, still draining the
client's buffered frames, reached the flood limit and called ``websocket.close`` — which raises
Starlette's ``WebSocketDisconnected`` (a ``RuntimeError``, not ``WebSocketDisconnect``), so
``room_socket`` does not catch it and uvicorn logs "Exception in ASGI application" with a
traceback (the ``finally`` still frees the slot). ``serve_one`` should end such a socket with
``WebSocketDisconnect`` like every other close.

"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from app.realtime.endpoint import SocketSession
from app.realtime.frames import FloodGuard
from app.settings import Settings


async def test_flood_close_after_the_client_vanished_is_a_disconnect():
    async def receive():  # pragma: no cover - never reached
        return {"type": "websocket.disconnect", "code": 1006}

    async def send(message):  # the transport is gone
        raise OSError("transport closed")

    websocket = WebSocket({"type": "websocket", "path": "/ws/rooms/x", "headers": []},
                          receive, send)
    websocket.client_state = WebSocketState.CONNECTED
    websocket.application_state = WebSocketState.DISCONNECTED  # an earlier send failed
    arena = SimpleNamespace(settings=Settings(frames_per_second=1, flood_close_after=0))
    session = SocketSession(websocket, "x", arena)
    session.guard = SimpleNamespace(check=lambda: FloodGuard.CLOSE)
    with pytest.raises(WebSocketDisconnect):
        await session.serve_one('{"type": "ping"}')
