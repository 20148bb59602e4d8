"""A test client that asks for patched updates and rebuilds today's frames from them.

``PatchClient`` sends ``hello`` with ``"patches": true`` and turns every ``update`` back into
the full frame a socket without patches gets (docs/protocol.md "Patched updates"): a patch is
applied with the ``jsonpatch`` library (RFC 6902) to the document of the previous frame, and
``seq`` must count up by one from the ``welcome``'s 0. ``raw`` keeps the frames as received.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import jsonpatch
import websockets

from tests.app.conftest import Arena, Client

#: The document a patch addresses (``version`` comes at the top of every update).
DOC = ("view", "prompt", "legal", "deadline", "clocks")


class PatchClient(Client):
    """A ``Client`` whose ``hello`` asks for patches; ``last`` and every frame it returns are
    rebuilt full frames (no ``seq``), ``raw`` the frames as they came."""

    def __init__(self, socket: Any) -> None:
        super().__init__(socket)
        self.raw: list[dict[str, Any]] = []
        self.seq = -1
        self.doc: dict[str, Any] = {}
        self.room: dict[str, Any] | None = None

    async def _recv(self, timeout: float) -> dict[str, Any]:
        frame = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        self.raw.append(frame)
        if frame["type"] in ("welcome", "update"):
            frame = self.rebuild(frame)
            self.last = frame
        elif frame["type"] == "room":
            self.room = frame["room"]
        return frame

    def rebuild(self, frame: dict[str, Any]) -> dict[str, Any]:
        """Return the full frame of a received ``welcome``/``update`` (its ``seq`` checked)."""
        frame = dict(frame)
        seq = frame.pop("seq")
        assert seq == (0 if frame["type"] == "welcome" else self.seq + 1), (seq, self.seq)
        self.seq = seq
        if "patch" in frame:
            assert set(frame) <= {"type", "version", "patch", "events", "room"}, frame
            self.doc = jsonpatch.apply_patch(self.doc, frame.pop("patch"))
            self.room = frame.get("room", self.room)
            return {"type": "update", "version": frame["version"], **self.doc,
                    "events": frame["events"], "room": self.room}
        self.doc = {key: frame[key] for key in DOC}
        self.room = frame["room"]
        return frame


async def connect_patched(arena: Arena, code: str, token: str | None = None) -> PatchClient:
    """Open a patching socket to room ``code`` and read its ``welcome``."""
    socket = await websockets.connect(f"{arena.ws_base}/ws/rooms/{code}")
    arena.sockets.append(socket)
    client = PatchClient(socket)
    await client.send({"type": "hello", "token": token, "patches": True})
    client.welcome = await client.next("welcome")
    return client


def exact(value: Any) -> str:
    """Return ``value``'s canonical JSON (sorted keys): equal texts are the same JSON value,
    ``true`` and ``1`` or ``1`` and ``1.0`` included."""
    return json.dumps(value, sort_keys=True)
