"""The chaos run's websocket clients: ``bench.clients.Player`` that drops its socket at random
times and reconnects to a random server process, and notes what the checks need.

What a client notes (``Observations``):

- every ``welcome``, with the stored log's head (newest match, its action count) read from the
  database just before the socket opened (``Welcome``);
- every acknowledged action (``Ack``): each ``act`` is followed by a ``ping``; a socket's frames
  are handled in order, each to its end (an action stored before the next frame is read), so
  the ``pong`` comes after the act's answer: an act with no ``error`` before its ``pong`` was
  applied and stored. An act whose socket closed before its ``pong`` is not counted (its fate
  is unknown to the client). An ``update`` is no answer: one made by another seat's action (or
  a clock) may arrive between an act and its refusal;
- a ``version`` lower than one the client was shown before in the same match, or a frame of an
  older match (``regressions``), across reconnections too;
- its last ``welcome``/``update`` (``Player.last``), for the convergence check.

A spectator is the same class without a token (it never acts nor asks for a rematch).
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets

from bench.clients import MatchId, Pace, Player, RoomWatch, _listen, _open, match_of
from bench.metrics import Recorder

#: The frame each ``act`` is followed by: its ``pong`` closes the act's answer.
PING = orjson.dumps({"type": "ping"})
#: ``head(code)`` -> ``(newest match id or None, its stored action count)`` from the database.
Head = Callable[[str], Awaitable[tuple[int | None, int]]]


@dataclass
class Chaos:
    """How the chaos clients behave besides ``Pace``.

    Attributes:
        urls: the websocket base URLs of the server processes (``ws://host:port``).
        head: reads the stored log's head of a room (``Head``).
        drop_mean: mean seconds a socket lives before the client drops it (exponential).
        calm: set once the faults are over: clients stop dropping their sockets.
        hold: set when players stop acting and asking for rematches (the convergence check).
    """

    urls: list[str]
    head: Head
    drop_mean: float
    calm: asyncio.Event = field(default_factory=asyncio.Event)
    hold: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True)
class Welcome:
    """One ``welcome``: the room, the head read before the socket opened and what it showed."""

    code: str
    opened: tuple[int | None, int]
    match: int | None
    version: int
    url: str


@dataclass
class Ack:
    """One acknowledged ``act``: its room, match, seat, prompt and action."""

    code: str
    match: int | None
    seat: int
    prompt: str
    action: dict[str, Any]
    refused: bool = False


@dataclass
class Observations:
    """What every chaos client noted (see the module docstring)."""

    welcomes: list[Welcome] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    regressions: list[dict[str, Any]] = field(default_factory=list)
    connections: int = 0
    reconnects: int = 0
    drops: int = 0


class ChaosPlayer(Player):
    """A seated player (``token``) or a spectator (``token=None``) that drops and reconnects."""

    def __init__(self, token: str | None, code: str, room: RoomWatch, recorder: Recorder,
                 pace: Pace, rng: random.Random, chaos: Chaos, seen: Observations) -> None:
        super().__init__(chaos.urls[0], token, code, room, recorder, pace, rng)
        self.chaos, self.seen = chaos, seen
        self.seat: int | None = None
        self.last: dict[str, Any] | None = None
        self.connected = False
        self._opened: tuple[int | None, int] = (None, 0)
        self._url = ""
        self._shown: tuple[MatchId, int] | None = None  # (match, version) last shown
        self._asked: deque[Ack] = deque()  # acts sent on this socket, their pong not yet come
        self.frames = 0  # welcome and update frames on the socket open now (or last)

    @property
    def url_now(self) -> str:
        """The URL of the socket open now (or last)."""
        return self._url

    async def run(self) -> None:
        """Connect to a random process, play until the socket closes, and again until the
        run stops (0.1-1 s between two sockets)."""
        while not self.pace.stop.is_set():
            await self._one_socket()
            if self.pace.stop.is_set():
                return
            self.seen.reconnects += 1
            await asyncio.sleep(self.rng.uniform(0.1, 1.0))

    async def _one_socket(self) -> None:
        url = f"{self.rng.choice(self.chaos.urls)}/ws/rooms/{self.code}"
        try:
            opened = await self.chaos.head(self.code)
        except Exception:  # the database is not the fault under test; try again
            self.recorder.errors["head_failed"] += 1
            return
        self.socket = await _open(url, self.token, self.recorder, self.pace.patches)
        if self.socket is None:
            return
        self.seen.connections += 1
        self.connected, self._opened, self._url, self.frames = True, opened, url, 0
        tasks = [asyncio.ensure_future(self._act_loop()), asyncio.ensure_future(self._drop())]
        try:
            await _listen(self.socket, self.pace, self.recorder, "player", self._on_frame)
        finally:
            for task in tasks:
                task.cancel()
            self.connected = False
            self.prompt, self.legal, self.pending, self.answered = None, [], None, None
            self._asked.clear()  # unanswered: not counted

    async def _drop(self) -> None:
        """Close the socket after a random lifetime, unless the faults are over by then."""
        await asyncio.sleep(self.rng.expovariate(1 / self.chaos.drop_mean))
        if not self.chaos.calm.is_set() and not self.pace.stop.is_set():
            self.seen.drops += 1
            await self.socket.close()

    def _wants_to_act(self) -> bool:
        return not self.chaos.hold.is_set() and super()._wants_to_act()

    def _play_again(self, match: MatchId) -> None:
        if self.token is not None and not self.chaos.hold.is_set():
            super()._play_again(match)

    def _act_frame(self) -> dict[str, Any]:
        """Return the ``act`` frame (``Player._act_frame``), noting a copy of it (``Ack``): its
        action is an entry of the kept legal list, which later patches change in place
        (``bench.clients.apply_patch``), so the note must not share it."""
        frame = super()._act_frame()
        assert self.seat is not None, "only a seated player acts"
        self._asked.append(Ack(self.code, self.match, self.seat, frame["prompt"],
                               orjson.loads(orjson.dumps(frame["action"]))))
        return frame

    async def _send_act(self) -> bool:
        """Send the ``act``, then the ``ping`` whose ``pong`` closes its answer."""
        if not await super()._send_act():
            return False
        try:
            await self.socket.send(PING, text=True)
        except websockets.ConnectionClosed:
            return False
        return True

    def _on_frame(self, data: dict[str, Any], now: float) -> None:
        kind = data.get("type")
        if kind == "welcome":
            self.seat = data.get("seat")
            self.seen.welcomes.append(Welcome(self.code, self._opened, match_of(data),
                                              data["version"], self._url))
        if kind in ("welcome", "update"):
            self.frames += 1
            self._check_version(kind, data)
            self.last = data
        elif kind == "error":
            self._note_refusal()
        elif kind == "pong":
            self._note_pong()
        super()._on_frame(data, now)

    def _check_version(self, kind: str, data: dict[str, Any]) -> None:
        """Note a frame of an older match, or a lower version in the same match."""
        match, version = match_of(data), data["version"]
        if self._shown is not None and match is not None:
            before_match, before = self._shown
            if before_match is not None and (match < before_match or (
                    match == before_match and version < before)):
                self.seen.regressions.append(
                    {"room": self.code, "seat": self.seat, "frame": kind, "url": self._url,
                     "shown": [before_match, before], "now": [match, version]})
        if match is not None:
            self._shown = (match, version)

    def _note_refusal(self) -> None:
        """An ``error``: the oldest act not yet answered was refused (chaos servers take 1,000
        frames a second, so no ``ping`` is refused)."""
        if self._asked:
            self._asked[0].refused = True

    def _note_pong(self) -> None:
        """A ``pong``: the oldest act's answer is complete; not refused, it was stored."""
        if self._asked:
            ack = self._asked.popleft()
            if not ack.refused:
                self.seen.acks.append(ack)
