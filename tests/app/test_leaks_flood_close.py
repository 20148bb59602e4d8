"""The flood close of a socket whose client is already gone ends quietly.

Seen in chat-flood runs (30 sockets chatting at 19 lines/s each while the server lagged): the
client vanished while the session, still draining its buffered frames, reached the flood limit
and closed the socket. ``serve_one`` must end such a socket with ``Disconnected`` like every
other close, and a close of a socket already gone sends nothing.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.main import create_app
from app.realtime.endpoint import Disconnected, SocketSession
from app.realtime.frames import FloodGuard
from app.settings import Settings
from tests.app.links import RecordingLink


async def test_flood_close_after_the_client_vanished_is_a_disconnect():
    link = RecordingLink()
    link.gone = True
    arena = SimpleNamespace(settings=Settings(frames_per_second=1, flood_close_after=0))
    session = SocketSession(link, "x", arena, create_app(Settings()))
    session.guard = SimpleNamespace(check=lambda: FloodGuard.CLOSE)
    with pytest.raises(Disconnected):
        await session.serve_one('{"type": "ping"}')
    assert (link.sent, link.closes) == ([], [])
