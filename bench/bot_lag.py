"""Search bots versus the event loop: does a server whose bots search keep people's moves fast?

Two runs, each on a fresh server (``bench.servers`` kind ``app-lag``: the real app plus an
event-loop lag probe) with a fresh SQLite file:

1. ``without``: ``--human-rooms`` rooms of scripted people (``bench.clients.Player``: random
   legal actions after a think time, rematches) play for ``--seconds``;
2. ``with``: the same, plus ``--bot-rooms`` rooms whose every seat is a ``--level`` bot, all
   thinking at once (bot delay 0: a bot asks for its next decision as soon as it may). A bot
   room whose match ends is replaced by a new one, so that many rooms think during the window.

Per run it reports the server's event-loop lag (``bench.lag_app``: how late a 5 ms sleep
wakes, p50/p95/p99/max in ms), the people's move round-trip (``act`` → their ``update``), the
bot rooms playing (min/mean over the window's one-second samples), the bots' decisions by
outcome (``searched`` in time, ``late`` → greedy, ``crashed``), and the server's CPU % (its
process tree: the workers included; ``loop_process_cpu_percent``: the server process alone). The verdict: lag p99 ≤ ``LAG_P99_MS`` with bots, and the
round-trip p99 with bots ≤ ``RTT_RATIO`` × without.

``--decide burn`` makes every search decision burn its level's CPU budget
(``burn``: ``SEARCH_CPU`` seconds of busy work, then the greedy action) — a stand-in for
the search whose cost does not depend on the game; ``--decide engine`` runs ``engine.bots``'s.

Usage::

    python -m bench.bot_lag --port 8150 --bot-rooms 50 --human-rooms 10 --seconds 30

Targets only 127.0.0.1. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvloop

from bench import procstat, servers
from bench.clients import Pace, Player, RoomWatch
from bench.load import (
    LoadConfig,
    _launch,
    _post,
    _wait_welcomed,
    create_rooms,
    http_limits,
    quiet_collector,
)
from bench.metrics import Recorder

#: The targets: the loop's lag p99 with bots (ms), and people's round-trip p99 with bots over
#: without.
LAG_P99_MS = 20.0
RTT_RATIO = 1.5
#: CPU seconds a ``burn`` decision spends per search level (its budget: ``bot_workers``).
SEARCH_CPU = {"hard": 0.5, "expert": 2.5}
DECIDES = {"engine": "engine.bots:decide", "burn": "bench.bot_lag:burn"}


def burn(game_id: str, level: str, view, legal, seed: bytes, should_stop=None) -> dict:
    """Spend ``SEARCH_CPU[level]`` CPU seconds (or until ``should_stop()``), then return the
    greedy (``normal``) action: ``engine.bots.decide``'s signature."""
    from engine.bots import decide
    start = time.process_time()
    spins = 0
    while time.process_time() - start < SEARCH_CPU.get(level, 0.0):
        spins += 1
        if spins % 1000 == 0 and should_stop is not None and should_stop():
            break
    return decide(game_id, "normal", view, legal, seed)


@dataclass
class LagConfig:
    """One comparison's parameters (see ``--help``)."""

    port: int = 8150
    game: str = "reverse_curse"
    options: dict[str, Any] = field(default_factory=dict)
    human_rooms: int = 10
    bot_rooms: int = 50
    level: str = "hard"
    think: float = 1.0
    seconds: float = 30.0
    warmup: float = 3.0
    decide: str = "burn"
    workers: int = 0
    bot_delay: float = 0.0
    database_url: str = "sqlite+aiosqlite:////tmp/bench-bot-lag.db"

    @property
    def url(self) -> str:
        return f"http://{servers.HOST}:{self.port}"


async def playing_codes(client: httpx.AsyncClient) -> set[str]:
    """Return the codes of every listed room whose match is being played, over every page of
    ``GET /api/rooms?status=playing`` (``RoomPage``: ``items``, ``next_cursor``)."""
    codes: set[str] = set()
    params: dict[str, Any] = {"status": "playing", "limit": 200}
    while True:
        response = await client.get("/api/rooms", params=params)
        response.raise_for_status()
        page = response.json()
        codes.update(room["code"] for room in page["items"])
        if page["next_cursor"] is None:
            return codes
        params["cursor"] = page["next_cursor"]


class BotRooms:
    """``count`` rooms of ``level`` bots, each replaced by a new one once its match is over."""

    def __init__(self, client: httpx.AsyncClient, config: LagConfig) -> None:
        self._client, self._config = client, config
        self.codes: list[str] = []
        self.replaced = 0

    async def _new_room(self, index: int) -> str:
        creator = await _post(self._client, "/api/players", body={"name": f"botroom{index}"})
        room = await _post(self._client, "/api/rooms", creator["token"],
                           {"game": self._config.game, "options": self._config.options})
        await _post(self._client, f"/api/rooms/{room['code']}/bots", creator["token"],
                    {"level": self._config.level})
        return room["code"]

    async def fill(self) -> None:
        """Create the rooms (their matches start at once)."""
        self.codes = [await self._new_room(i) for i in range(self._config.bot_rooms)]

    async def playing(self) -> int:
        """Replace the rooms whose match is over; return how many were playing."""
        playing = await playing_codes(self._client)
        count = 0
        for index, code in enumerate(self.codes):
            if code in playing:
                count += 1
            else:
                self.codes[index] = await self._new_room(len(self.codes) + self.replaced)
                self.replaced += 1
        return count


async def run_once(config: LagConfig, with_bots: bool, server_pid: int) -> dict[str, Any]:
    """Run the people (and the bot rooms when ``with_bots``) for the window; return figures."""
    load = LoadConfig(url=config.url, game=config.game, options=config.options,
                      rooms=config.human_rooms, spectators=0, think=config.think,
                      seconds=config.seconds, warmup=config.warmup)
    rng = random.Random(0)
    limits = http_limits(None)
    async with httpx.AsyncClient(base_url=config.url, limits=limits, timeout=60) as client:
        plans = await create_rooms(load)
        bots = BotRooms(client, config)
        if with_bots:
            await bots.fill()
        recorder = Recorder()
        pace = Pace(config.think, asyncio.Event(), asyncio.Event(), None)
        clients = [[Player(load.ws_url(plan.code), token, plan.code, RoomWatch(), recorder, pace,
                           random.Random(rng.random())) for token in plan.tokens]
                   for plan in plans]
        tasks = await _launch(load, plans, clients)
        await _wait_welcomed(recorder, sum(len(c) for c in clients), timeout=120)
        quiet_collector()
        pace.go.set()
        await asyncio.sleep(config.warmup)
        await _post(client, "/bench/lag/start")
        recorder.start, first = time.perf_counter(), procstat.sample(server_pid)
        main_first = procstat.sample_one(server_pid)
        samples = []
        while time.perf_counter() - recorder.start < config.seconds:
            began = time.perf_counter()
            if with_bots:
                samples.append(await bots.playing())
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - began)))
        recorder.end, last = time.perf_counter(), procstat.sample(server_pid)
        main_last = procstat.sample_one(server_pid)
        lag = (await client.get("/bench/lag")).json()
        pace.stop.set()
        await asyncio.wait(tasks, timeout=30)
    window = recorder.end - recorder.start
    return {"with_bots": with_bots, "lag_ms": lag["lag_ms"],
            "rtt_ms": recorder.result([], 0)["rtt_ms"], "errors": dict(recorder.errors),
            "bot_rooms_playing": {"min": min(samples, default=0),
                                  "mean": round(sum(samples) / len(samples), 1) if samples else 0},
            "bot_rooms_replaced": bots.replaced, "decisions": lag["thinker"],
            "workers": lag["workers"],
            "server_cpu_percent": round(100 * (last.cpu_seconds - first.cpu_seconds) / window, 1),
            "loop_process_cpu_percent": round(100 * (main_last - main_first) / window, 1),
            "server_processes": last.processes}


def serve_and_run(config: LagConfig, with_bots: bool) -> dict[str, Any]:
    """Start a fresh ``app-lag`` server, run once, stop it."""
    delay = str(config.bot_delay)
    env = {"ARENA_BOT_DELAY_MIN": delay, "ARENA_BOT_DELAY_MAX": delay,
           "ARENA_BOT_DECIDE": DECIDES[config.decide], "ARENA_BOT_WORKERS": str(config.workers)}
    spec = servers.ServerSpec("app-lag", config.port, config.database_url, env=env)
    process = servers.start(spec, log_path=f"/tmp/bench-bot-lag-{config.port}.log")
    try:
        return uvloop.run(run_once(config, with_bots, process.pid))
    finally:
        servers.stop(process)


def verdict(without: dict[str, Any], with_bots: dict[str, Any]) -> dict[str, Any]:
    """Return the two checks and whether both hold."""
    lag = with_bots["lag_ms"]["p99"]
    base, loaded = without["rtt_ms"]["p99"], with_bots["rtt_ms"]["p99"]
    ratio = round(loaded / base, 2) if base and loaded is not None else None
    return {"lag_p99_ms": lag, "lag_ok": lag is not None and lag <= LAG_P99_MS,
            "rtt_p99_ratio": ratio, "rtt_ok": ratio is not None and ratio <= RTT_RATIO,
            "ok": bool(lag is not None and lag <= LAG_P99_MS and ratio is not None
                       and ratio <= RTT_RATIO)}


def parse_args(argv: Sequence[str] | None) -> LagConfig:
    """Return the configuration from the command line (``--help`` lists the options)."""
    p = argparse.ArgumentParser(prog="python -m bench.bot_lag", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, default=8150)
    p.add_argument("--game", default="reverse_curse")
    p.add_argument("--options", default="{}", help="room options as JSON")
    p.add_argument("--human-rooms", type=int, default=10)
    p.add_argument("--bot-rooms", type=int, default=50)
    p.add_argument("--level", default="hard", choices=("easy", "normal", "hard", "expert"),
                   help="the bots' level (easy/normal: a control, decided inline)")
    p.add_argument("--think", type=float, default=1.0, help="people's mean think seconds")
    p.add_argument("--seconds", type=float, default=30.0, help="measurement window")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--decide", choices=sorted(DECIDES), default="burn")
    p.add_argument("--workers", type=int, default=0, help="ARENA_BOT_WORKERS (0: one per CPU)")
    p.add_argument("--bot-delay", type=float, default=0.0,
                   help="the bots' least seconds per answer (0: answer as soon as decided)")
    p.add_argument("--database-url", default="sqlite+aiosqlite:////tmp/bench-bot-lag.db")
    a = p.parse_args(argv)
    return LagConfig(a.port, a.game, json.loads(a.options), a.human_rooms, a.bot_rooms,
                     a.level, a.think, a.seconds, a.warmup, a.decide, a.workers, a.bot_delay,
                     a.database_url)


def main(argv: Sequence[str] | None = None) -> int:
    """Run without, then with bots; print one JSON line (exit status 0 either way)."""
    config = parse_args(argv)
    without = serve_and_run(config, False)
    with_bots = serve_and_run(config, True)
    result = {"bench": "bot_lag", "game": config.game, "level": config.level,
              "bot_delay_s": config.bot_delay,
              "decide": config.decide, "human_rooms": config.human_rooms,
              "bot_rooms": config.bot_rooms, "seconds": config.seconds,
              "without": without, "with": with_bots, "verdict": verdict(without, with_bots)}
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
