"""Scripted websocket clients of a load run: players that act, spectators that watch.

They speak docs/protocol.md "Websocket": ``hello`` first, then a player answers its current
``prompt`` with a random entry of ``legal`` after a think time. A player's move round-trip is
``act`` sent -> its next ``update`` (the server always sends the acting seat one: its prompt
changed). Its ``version`` may equal the one before: a hidden answer in a simultaneous decision
(the Reverse Curse mulligan) does not advance the public version (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass
from typing import Any

import websockets

from bench.metrics import Recorder, RoomTrace

#: Largest frame a client accepts (the server's views are a few KiB).
MAX_FRAME = 1 << 20


@dataclass
class Pace:
    """How the clients of a run behave.

    Attributes:
        think: mean seconds a player waits before answering (uniform in 0.5..1.5 × think;
            0 = answer at once, the peak-throughput mode).
        go: set when players may start acting (before it they only listen: the idle phase).
        stop: set when every client should close.
    """

    think: float
    go: asyncio.Event
    stop: asyncio.Event


def _decode(text: str | bytes, recorder: Recorder) -> dict[str, Any]:
    """Return the frame as a dict and record its size under its ``type``."""
    data = json.loads(text)
    recorder.frame(data.get("type", "?"), len(text))
    return data


async def _open(url: str, token: str | None, recorder: Recorder):
    """Return an open socket that has sent ``hello``, or ``None`` (counted ``connect_failed``)."""
    try:
        socket = await websockets.connect(url, max_size=MAX_FRAME, open_timeout=60,
                                          ping_interval=None, compression=None)
        await socket.send(json.dumps({"type": "hello", "token": token}))
        return socket
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException):
        recorder.errors["connect_failed"] += 1
        return None


async def _close_on_stop(socket, pace: Pace) -> None:
    await pace.stop.wait()
    await socket.close()


class Player:
    """One seated player: answers its prompts with random legal actions."""

    def __init__(self, url: str, token: str, code: str, trace: RoomTrace, recorder: Recorder,
                 pace: Pace, rng: random.Random) -> None:
        self.url, self.token, self.code = url, token, code
        self.trace, self.recorder, self.pace, self.rng = trace, recorder, pace, rng
        self.version, self.prompt, self.legal = 0, None, []
        self.answered: str | None = None
        self.pending: tuple[float, int] | None = None  # (sent at, version it saw)
        self.socket = None
        self.changed = asyncio.Event()  # set when a frame may have given a new prompt

    async def run(self) -> None:
        """Connect, then handle frames until the run stops or the server closes the socket."""
        self.socket = await _open(self.url, self.token, self.recorder)
        if self.socket is None:
            return
        closer = asyncio.ensure_future(_close_on_stop(self.socket, self.pace))
        actor = asyncio.ensure_future(self._act_loop())
        try:
            async for text in self.socket:
                self._on_frame(_decode(text, self.recorder))
        except websockets.ConnectionClosedError:
            if not self.pace.stop.is_set():
                self.recorder.errors["connection_closed"] += 1
        finally:
            closer.cancel()
            actor.cancel()

    def _on_frame(self, data: dict[str, Any]) -> None:
        kind, now = data.get("type"), time.perf_counter()
        if kind == "error":
            self.recorder.errors[data.get("code", "?")] += 1
            self.pending = None
            self.answered = None  # a stale_prompt is followed by a fresh update
            self.changed.set()
            return
        if kind not in ("welcome", "update"):
            return
        if self.pending is not None and kind == "update":
            sent = self.pending[0]
            self.recorder.move(sent, now)
            if self.recorder.in_window(sent) and data["version"] > self.pending[1]:
                self.trace.caused.setdefault(data["version"], sent)
            self.pending = None
        self.version, self.prompt, self.legal = data["version"], data["prompt"], data["legal"]
        view = data.get("view") or {}
        if view.get("outcome") is not None:
            self.recorder.finished.add(self.code)
        self.changed.set()

    def _wants_to_act(self) -> bool:
        return bool(self.legal) and self.pending is None and self.prompt != self.answered

    async def _act_loop(self) -> None:
        """Whenever a new prompt is pending: think, then send ``act`` with a random legal action."""
        await self.pace.go.wait()
        while not self.pace.stop.is_set():
            await self.changed.wait()
            self.changed.clear()
            if not self._wants_to_act():
                continue
            if self.pace.think:
                await asyncio.sleep(self.pace.think * self.rng.uniform(0.5, 1.5))
            if not self._wants_to_act():
                continue
            self.answered, self.pending = self.prompt, (time.perf_counter(), self.version)
            frame = {"type": "act", "prompt": self.prompt, "action": self.rng.choice(self.legal)}
            try:
                await self.socket.send(json.dumps(frame))
            except websockets.ConnectionClosed:
                return


class Spectator:
    """One spectator: records when it first holds each version of its room."""

    def __init__(self, url: str, trace: RoomTrace, recorder: Recorder, pace: Pace) -> None:
        self.url, self.trace, self.recorder, self.pace = url, trace, recorder, pace
        self.version = 0

    async def run(self) -> None:
        """Connect as a spectator (no token) and watch until the run stops."""
        socket = await _open(self.url, None, self.recorder)
        if socket is None:
            return
        closer = asyncio.ensure_future(_close_on_stop(socket, self.pace))
        try:
            async for text in socket:
                data = _decode(text, self.recorder)
                if data.get("type") in ("welcome", "update") and data["version"] > self.version:
                    self.trace.spectator_reached(self.version, data["version"],
                                                 time.perf_counter())
                    self.version = data["version"]
        except websockets.ConnectionClosedError:
            if not self.pace.stop.is_set():
                self.recorder.errors["connection_closed"] += 1
        finally:
            closer.cancel()
