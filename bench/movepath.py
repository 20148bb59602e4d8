"""The server's own work per move, without sockets: CPU per move of the app in one process.

The real app (its lifespan, SQLite storage, room core, hub and fan-out, patched updates) plays
R Reverse Curse rooms (2 players + S spectators each) whose sockets are in-process links: every
frame a socket would be sent is encoded as for the network and handed to a client stand-in that
rebuilds it (``bench.clients.Rebuilt``) — no websocket framing, no system call, no event-loop
wake-up per frame. The players answer in turn, room after room (each its seeded random legal
action; each match's deal from ``--seed`` too), as fast as the server takes them; a finished
match is followed by a rematch. It prints one JSON line: moves, CPU of the process (every
thread: the group writer's too) and wall time per move, ``update`` frames per move. The client stand-ins' decoding is included (≈ 4 frames per
move).

What it leaves out is measured by ``bench.load`` (the network, uvicorn's HTTP, the websocket
protocol); what it measures runs the same code as the server. Profile with ``--profile FILE``
(cProfile, the measured moves only). Usage::

    python -m bench.movepath --rooms 200 --moves 20000 [--spectators 2] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import hashlib
import itertools
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

import httpx
import orjson
import uvloop

from app.main import create_app
from app.realtime.endpoint import SocketSession
from app.settings import Settings
from bench.clients import Rebuilt


class Sink:
    """A socket's stand-in (an ``endpoint.Link``): decodes and rebuilds every frame it is sent,
    keeping the newest ``welcome``/``update`` whole (``last``)."""

    __slots__ = ("rebuilt", "last", "frames")

    def __init__(self) -> None:
        self.rebuilt = Rebuilt()
        self.last: dict[str, Any] | None = None
        self.frames = 0

    @property
    def open(self) -> bool:
        return True

    def send_text(self, text: str) -> None:
        whole = self.rebuilt.take(orjson.loads(text))
        if whole is not None and whole.get("type") in ("welcome", "update"):
            self.last = whole
            self.frames += whole["type"] == "update"

    def close(self, code: int, reason: str = "") -> None:
        raise RuntimeError(f"the server closed a socket ({code} {reason})")

    async def flush(self, timeout: float) -> None:
        return None

    def hello_seen(self) -> None:
        return None


class Table:
    """One room: its code, its players' tokens, its players' random source (one per room: the
    play does not depend on the order rooms are served in), and each seat's and spectator's
    session."""

    def __init__(self, code: str, tokens: list[str], rng: random.Random) -> None:
        self.code, self.tokens, self.rng = code, tokens, rng
        self.seats: list[tuple[SocketSession, Sink]] = []
        self.watchers: list[tuple[SocketSession, Sink]] = []


async def _post(http: httpx.AsyncClient, path: str, token: str | None = None,
                body: dict[str, Any] | None = None) -> dict[str, Any]:
    answer = await http.post(path, json=body,
                             headers={"Authorization": f"Bearer {token}"} if token else {})
    answer.raise_for_status()
    return answer.json()


async def _table(http: httpx.AsyncClient, index: int, options: dict[str, Any],
                 seed: int) -> Table:
    """Create a room of two players and seat both (the match starts)."""
    tokens = [(await _post(http, "/api/players", body={"name": f"mp{index}-{s}"}))["token"]
              for s in range(2)]
    room = await _post(http, "/api/rooms", tokens[0], {"game": "reverse_curse",
                                                        "options": options})
    for seat, token in enumerate(tokens):
        await _post(http, f"/api/rooms/{room['code']}/seats/{seat}", token)
    return Table(room["code"], tokens, random.Random(f"{seed}/{index}"))


async def _session(app: Any, code: str, token: str | None) -> tuple[SocketSession, Sink]:
    """Greet one socket of room ``code`` (patched updates) and return it."""
    sink = Sink()
    session = SocketSession(sink, code, app.state.arena, app)
    await session.serve_one(json.dumps({"type": "hello", "token": token, "patches": True}))
    return session, sink


async def run(rooms: int, spectators: int, moves: int, seed: int, concurrency: int,
              profile: str | None) -> dict[str, Any]:
    """Play ``moves`` moves over ``rooms`` rooms, ``concurrency`` rooms' moves at a time (they
    share the group writer's transactions); return the figures (see the module doc)."""
    folder = tempfile.mkdtemp(prefix="movepath-")
    settings = Settings(database_url=f"sqlite+aiosqlite:///{folder}/arena.db",
                        max_connections_per_ip=0, players_per_minute=0, rooms_per_minute=0,
                        frames_per_second=1e9, log_level="WARNING")
    matches = itertools.count()
    app = create_app(settings, seed_source=lambda: hashlib.sha256(
        f"movepath/{seed}/{next(matches)}".encode()).digest())  # the same deals every run
    options = {"turn_seconds": 120, "shop_seconds": 120}
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://arena") as http:
            tables = [await _table(http, i, options, seed) for i in range(rooms)]
            for table in tables:
                table.seats = [await _session(app, table.code, t) for t in table.tokens]
                table.watchers = [await _session(app, table.code, None)
                                  for _ in range(spectators)]
            played, rematches, measured = 0, 0, None
            warm = min(moves // 10, 2000)
            profiler = cProfile.Profile() if profile else None
            started = cpu = 0.0
            while measured is None or played - measured < moves:
                for at in range(0, len(tables), concurrency):
                    if measured is None and played >= warm:
                        measured = played
                        started, cpu = time.perf_counter(), time.process_time()
                        if profiler is not None:
                            profiler.enable()
                    if measured is not None and played - measured >= moves:
                        break  # at most concurrency - 1 moves over the count asked
                    group = tables[at:at + concurrency]
                    steps = await asyncio.gather(*(_step(t) for t in group))
                    for table, acted in zip(group, steps):
                        if acted is None:  # over: both players ask for the rematch
                            for token in table.tokens:
                                await http.post(f"/api/rooms/{table.code}/rematch",
                                                headers={"Authorization": f"Bearer {token}"})
                            rematches += 1
                        elif acted:
                            played += 1
            if profiler is not None and profile is not None:
                profiler.disable()
                profiler.dump_stats(profile)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - started
            moves = played - measured
    return {"bench": "movepath", "rooms": rooms, "spectators": spectators, "moves": moves,
            "concurrency": concurrency,
            "cpu_ms_per_move": round(cpu / moves * 1000, 4),
            "wall_ms_per_move": round(wall / moves * 1000, 4), "rematches": rematches,
            "updates_per_move": round(sum(s.frames for t in tables
                                         for _, s in t.seats + t.watchers) / max(1, played), 2)}


async def _step(table: Table) -> bool | None:
    """Let the first seat asked in ``table`` act; ``True`` when one did, ``False`` when none is
    asked yet, ``None`` when the match is over."""
    for session, sink in table.seats:
        last = sink.last
        if last is None:
            continue
        view = last.get("view") or {}
        if view.get("outcome") is not None:
            return None
        if last.get("prompt") and last.get("legal"):
            await session.serve_one(json.dumps({"type": "act", "prompt": last["prompt"],
                                                "action": table.rng.choice(last["legal"])}))
            return True
    return False


def main(argv: Sequence[str] | None = None) -> int:
    """Run once and print the JSON line."""
    p = argparse.ArgumentParser(prog="python -m bench.movepath", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rooms", type=int, default=200)
    p.add_argument("--spectators", type=int, default=2)
    p.add_argument("--moves", type=int, default=20000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--concurrency", type=int, default=4,
                   help="rooms whose moves are handled at once (a transaction's batch)")
    p.add_argument("--profile", help="cProfile output of the measured moves")
    args = p.parse_args(argv)
    os.environ.setdefault("ARENA_LOG_LEVEL", "WARNING")
    result = uvloop.run(run(args.rooms, args.spectators, args.moves, args.seed,
                            args.concurrency, args.profile))
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
