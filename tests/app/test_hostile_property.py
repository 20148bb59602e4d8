"""Hostile websocket input, property-based (hypothesis).

One real server (uvicorn in a thread, its own SQLite file, a clock that never moves) hosts
three rooms: A (a match in progress), B (another match in progress) and C (a finished match).
Each example connects to A or C as someone — the seat to act, the idle seat, a spectator, a
forged token, a player seated only in B, a seat of the finished C — and sends a few random
frames: random text and JSON, wrong types, unknown types, huge and deeply nested frames, binary
frames, a second hello, acts with old/foreign/made-up prompts and another seat's or nonsense
actions. Every frame must get a documented ``error`` (a ``stale_prompt`` one followed by a
resync at the same version); afterwards no room moved (the database's action counts), and at
the end both A and B still play normally.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from app.rooms.clocks import ManualClock
from tests.app.conftest import SEED, make_app
from tests.app.hostile import KNOWN_CODES, is_benign
from tests.app.rc import GAME, Replay
from tests.app.threaded import threaded_server

NO_MONSTERS = {"monsters": False}


class Socket:
    """A synchronous websocket client with a receive timeout."""

    def __init__(self, url: str, token: str | None) -> None:
        self._stack = ExitStack()
        self.ws = self._stack.enter_context(connect(url, max_size=2 ** 20, open_timeout=5,
                                                    max_queue=None))  # never stall a close
        self.send({"type": "hello", "token": token})
        self.welcome = self.next("welcome")

    def send(self, data: Any) -> None:
        self.ws.send(data if isinstance(data, (str, bytes)) else json.dumps(data))

    def next(self, *types: str) -> dict[str, Any]:
        """Return the next frame of one of ``types`` (skipping the others)."""
        while True:
            frame = json.loads(self.ws.recv(timeout=5))
            if frame["type"] in types:
                return frame

    def settle(self, until: str) -> dict[str, Any]:
        """Return the next frame of type ``until``, noting the prompt of updates on the way."""
        while True:
            frame = self.next(until, "update")
            if frame["type"] == "update":
                self.last_prompt = frame["prompt"]
            if frame["type"] == until:
                return frame

    def close(self) -> None:
        self._stack.close()


@dataclass
class World:
    """The running server and its three rooms."""

    base: str
    db: Path
    rooms: dict[str, dict[str, Any]] = field(default_factory=dict)
    players: dict[str, dict[str, Any]] = field(default_factory=dict)
    replays: dict[str, Replay] = field(default_factory=dict)

    def ws(self, room: str) -> str:
        return self.base.replace("http://", "ws://") + f"/ws/rooms/{self.rooms[room]['code']}"

    def count(self, room: str) -> int:
        """The number of logged actions of ``room``'s match, read from the database file."""
        with sqlite3.connect(self.db) as db:
            return db.execute("SELECT count(*) FROM match_actions WHERE match_id = ?",
                              (self.rooms[room]["match_id"],)).fetchone()[0]

    def play(self, room: str, seats: dict[int, Socket], count: int) -> None:
        """Play ``count`` policy actions in ``room`` through its seats' sockets."""
        replay = self.replays[room]
        for _ in range(count):
            seat, action = replay.policy()
            prompt = seats[seat].last_prompt
            seats[seat].send({"type": "act", "prompt": prompt, "action": action})
            replay.apply(seat, action)
            seats[seat].settle("update")  # the actor always hears its action, once
            for socket in seats.values():  # an unchanged viewer gets no update: catch up
                socket.send({"type": "ping"})
                socket.settle("pong")


def _start(world: World, http: httpx.Client, room: str, names: tuple[str, str]) -> dict:
    seated = []
    for name in names:
        answer = http.post("/api/players", json={"name": name})
        world.players[name] = answer.json()
        seated.append(answer.json())
    headers = {"Authorization": f"Bearer {seated[0]['token']}"}
    code = http.post("/api/rooms", json={"game": "reverse_curse", "options": NO_MONSTERS},
                     headers=headers).json()["code"]
    for seat, player in enumerate(seated):
        answer = http.post(f"/api/rooms/{code}/seats/{seat}",
                           headers={"Authorization": f"Bearer {player['token']}"})
    world.rooms[room] = answer.json()
    world.replays[room] = Replay(NO_MONSTERS, SEED)
    sockets = {seat: Socket(world.ws(room), player["token"]) for seat, player in enumerate(seated)}
    for socket in sockets.values():
        socket.last_prompt = socket.welcome["prompt"]
    return sockets


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, template_db: Path) -> Iterator[World]:
    """The server with rooms A (3 actions played), B (started) and C (finished by a resign)."""
    db = Path(shutil.copy(template_db, tmp_path_factory.mktemp("hostile") / "arena.db"))
    app = make_app(db, ManualClock(), max_connections_per_ip=0)
    with threaded_server(app) as base:
        yield from _world(base, db)


def _world(base: str, db: Path) -> Iterator[World]:
    world = World(base, db)
    opened = []
    try:
        with httpx.Client(base_url=world.base, timeout=10) as http:
            world.a = _start(world, http, "A", ("Ann", "Bob"))
            world.b = _start(world, http, "B", ("Cat", "Dan"))
            finished = _start(world, http, "C", ("Eve", "Fay"))
            opened = [*world.a.values(), *world.b.values(), *finished.values()]
            world.play("A", world.a, 3)
            finished[0].send({"type": "act", "prompt": None, "action": {"type": "resign"}})
            world.replays["C"].resign(0)
            finished[1].next("update")
        yield world
    finally:
        for socket in opened:
            socket.close()


# ---------------------------------------------------------------------- strategies

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
TYPES = st.sampled_from(["hello", "act", "chat", "ping", "update", "welcome", "resign", ""]) \
    | st.text(max_size=10)
KEYS = st.sampled_from(["token", "prompt", "action", "text", "team", "seat", "version"])
SHAPES = st.sampled_from(["play", "mulligan", "choose_order", "recruit", "pass", "summon",
                          "resign"]) | st.text(max_size=8)


def actions(known: list[dict[str, Any]]) -> st.SearchStrategy:
    """Known actions of any seat, mangled actions, and nonsense objects."""
    mangled = st.builds(lambda t, k, v: {"type": t, k: v}, SHAPES,
                        st.sampled_from(["card", "first", "monster", "x"]), JSON)
    return st.sampled_from(known) | mangled | st.dictionaries(st.text(max_size=6), JSON,
                                                              max_size=3)


def frames(prompts: list[Any], known: list[dict[str, Any]]) -> st.SearchStrategy:
    """Hostile frames (text or bytes)."""
    dumps = json.dumps
    return st.one_of(
        st.text(max_size=80),
        JSON.map(dumps),
        st.builds(lambda t, extra: dumps({**extra, "type": t}), TYPES | JSON,
                  st.dictionaries(KEYS, JSON, max_size=3)),
        st.builds(lambda p, a: dumps({"type": "act", "prompt": p, "action": a}),
                  st.sampled_from(prompts) | JSON, actions(known)),
        st.integers(16_400, 60_000).map(lambda n: dumps({"type": "chat", "text": "x" * n})),
        st.integers(17, 6_000).map(
            lambda n: '{"type": "act", "prompt": null, "action": ' + "[" * n + "]" * n + "}"),
        st.binary(max_size=50),
    )


def identities(world: World) -> dict[str, tuple[str, str | None, int | None]]:
    """Who a hostile socket may be: ``{name: (room, token, seat the token holds there)}``."""
    acting = min(GAME.to_act(world.replays["A"].state))
    seats_a = [world.players["Ann"]["token"], world.players["Bob"]["token"]]
    return {"acting": ("A", seats_a[acting], acting),
            "idle": ("A", seats_a[1 - acting], 1 - acting),
            "spectator": ("A", None, None), "forged": ("A", "forged-token", None),
            "other_room": ("A", world.players["Cat"]["token"], None),
            "finished": ("C", world.players["Eve"]["token"], 0)}


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_frames_change_nothing(world, data):
    who = identities(world)
    room, token, seat = who[data.draw(st.sampled_from(sorted(who)), label="who")]
    counts = {name: world.count(name) for name in ("A", "B", "C")}
    socket = Socket(world.ws(room), token)
    try:
        assert socket.welcome["seat"] == seat
        own = socket.welcome["prompt"]
        state = world.replays[room].state
        known = [a for s in range(2) for a in GAME.legal_actions(state, s)] + [
            {"type": "play", "card": "+1"}, {"type": "pass"}, {"type": "summon"}]
        prompts = [p for p in {"1.0.0", "1.1.0", "2.0.0", "1.0.3", "1.1.3", None, "x"}
                   if p is None or p != own]
        for text in data.draw(st.lists(frames(prompts, known), min_size=1, max_size=5),
                              label="frames"):
            assume(not is_benign(text))
            socket.send(text)
            error = socket.next("error")
            assert error["code"] in KNOWN_CODES and error["message"], error
            if error["code"] == "stale_prompt":
                resync = socket.next("update")
                assert resync["version"] == world.replays[room].public
    finally:
        socket.close()
    assert {name: world.count(name) for name in ("A", "B", "C")} == counts


def test_rooms_still_play_after_the_fuzzing(world):
    with httpx.Client(base_url=world.base, timeout=10) as http:
        assert http.get("/api/games").status_code == 200
    assert world.count("A") == 3 and world.count("B") == 0 and world.count("C") == 1
    world.play("B", world.b, 2)
    world.play("A", world.a, 1)
    assert world.count("A") == 4 and world.count("B") == 2
    late = Socket(world.ws("A"), None)
    assert late.welcome["view"] == world.replays["A"].view(None)
    late.close()
