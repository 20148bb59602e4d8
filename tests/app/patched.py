"""A server-test client that asks for patched updates and rebuilds today's frames from them
(``tests.patching.Rebuilder``: the patches applied with the ``jsonpatch`` library)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from tests.app.conftest import Arena, Client
from tests.patching import Rebuilder


class PatchClient(Client):
    """A ``Client`` whose ``hello`` asks for patches; ``last`` and every frame it returns are
    rebuilt whole frames (no ``seq``), ``raw`` the frames as they came, ``rebuilt`` their
    document and room."""

    def __init__(self, socket: Any) -> None:
        super().__init__(socket)
        self.raw: list[dict[str, Any]] = []
        self.rebuilt = Rebuilder()

    async def _recv(self, timeout: float) -> dict[str, Any]:
        frame = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        self.raw.append(frame)
        frame = self.rebuilt.take(frame)
        if frame["type"] in ("welcome", "update"):
            self.last = frame
        return frame


async def connect_patched(arena: Arena, code: str, token: str | None = None) -> PatchClient:
    """Open a patching socket to room ``code`` and read its ``welcome``."""
    socket = await websockets.connect(f"{arena.ws_base}/ws/rooms/{code}")
    arena.sockets.append(socket)
    client = PatchClient(socket)
    await client.send({"type": "hello", "token": token, "patches": True})
    client.welcome = await client.next("welcome")
    return client
