"""One chaos run: the cluster up, the rooms made, clients playing through the faults, then the
checks (``bench.chaos.checks``) and the JSON summary.

Phases: start Redis and the processes (fresh database); make ``rooms`` rooms of every game —
every other one with bots (of each level in turn) in every seat but the creator's, the others
with a person per seat — over REST on random processes; connect the clients (each seated
person, and ``spectators`` per room); let them play while ``inject_faults`` runs; then stop
the drops, stop the players acting, check convergence, stop the clients, replay the stored
log and check everything else.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import secrets
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import repositories as repo
from app.db.session import make_sessionmaker
from app.rooms.bots import BotDelay
from bench.chaos import checks
from bench.chaos.clients import Chaos, ChaosPlayer, Observations
from bench.chaos.cluster import (
    READY_SECONDS,
    Cluster,
    FaultLog,
    FaultPlan,
    RedisProcess,
    inject_faults,
)
from bench.chaos.log import BotKey, Violations
from bench.clients import Pace, RoomWatch
from bench.load import LoadConfig, _post, create_room, start_match
from bench.metrics import Recorder

#: Every game of the catalog, in the order rooms are made.
ALL_GAMES = ("reverse_curse", "zipai", "grid_reversal", "numgr", "civilization", "mahjong")
BOT_LEVELS = ("easy", "normal")  # decided in the server process, so recomputable


@dataclass
class ChaosConfig:
    """One run's parameters (``python -m bench.chaos --help``)."""

    ports: tuple[int, ...] = (8300, 8301, 8302)
    redis_port: int = 6400
    database_url: str = "postgresql+asyncpg://postgres@127.0.0.1:5432/chaos_run"
    folder: Path = Path("/tmp/chaos")
    games: tuple[str, ...] = ALL_GAMES
    rooms: int = 50
    spectators: int = 1
    think: float = 2.0
    drop_mean: float = 30.0
    seconds: float = 180.0
    kill_every: float = 15.0
    redis_at: float | None = None
    redis_down: float = 5.0
    converge_timeout: float = 90.0
    bot_delay: tuple[float, float] = (0.6, 1.2)
    seed: int = 0


@dataclass
class Room:
    """A made room: its code, the tokens of its seated people, and its bot seats' levels."""

    code: str
    tokens: list[str]
    bots: dict[int, str]


async def _make_room(http: list[httpx.AsyncClient], game: str, index: int,
                     level: str | None, rng: random.Random) -> Room:
    """Make one room on random processes: with bots of ``level`` in every seat but seat 0, or
    (``None``) with one person per seat; its match has started."""
    client = rng.choice(http)
    if level is None:
        plan = await create_room(client, LoadConfig(game=game), index)
        await start_match(rng.choice(http), plan)
        return Room(plan.code, plan.tokens, {})
    person = await _post(client, "/api/players", body={"name": f"chaos{index}"})
    room = await _post(client, "/api/rooms", person["token"], {"game": game})
    await _post(rng.choice(http), f"/api/rooms/{room['code']}/seats/0", person["token"])
    await _post(rng.choice(http), f"/api/rooms/{room['code']}/bots", person["token"],
                {"level": level})
    return Room(room["code"], [person["token"]],
                {seat: level for seat in range(1, len(room["seats"]))})


async def make_rooms(bases: list[str], config: ChaosConfig, rng: random.Random) -> list[Room]:
    """Make ``config.rooms`` rooms of every game (8 requests at a time)."""
    gate = asyncio.Semaphore(8)
    levels = itertools.cycle(BOT_LEVELS)
    wanted = [(game, index, next(levels) if index % 2 == 0 else None)
              for game in config.games for index in range(config.rooms)]
    async with ProcessClients(bases) as http:
        async def one(n: int, game: str, index: int, level: str | None) -> Room:
            async with gate:
                return await _make_room(http, game, n, level, random.Random(rng.random()))
        return list(await asyncio.gather(*(one(n, *w) for n, w in enumerate(wanted))))


class ProcessClients:
    """``async with ProcessClients(bases) as http``: one ``httpx.AsyncClient`` per process
    base URL, closed on exit."""

    def __init__(self, bases: list[str]) -> None:
        self.http = [httpx.AsyncClient(base_url=base, timeout=30,
                                       limits=httpx.Limits(max_connections=None))
                     for base in bases]

    async def __aenter__(self) -> list[httpx.AsyncClient]:
        return self.http

    async def __aexit__(self, *exc: Any) -> None:
        for client in self.http:
            await client.aclose()


def rematcher(http: list[httpx.AsyncClient], recorder: Recorder, rng: random.Random):
    """Return ``Pace.rematch``: ask on a random process, again on another one (at most 20
    times, 0.5 s apart) while no process answers; a refusal is counted ``rematch_<code>``."""
    async def rematch(code: str, token: str | None) -> None:
        for _ in range(20):
            try:
                await _post(rng.choice(http), f"/api/rooms/{code}/rematch", token)
                return
            except httpx.HTTPStatusError as refused:
                if refused.response.status_code < 500:
                    recorder.errors[f"rematch_{refused.response.status_code}"] += 1
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.5)
        recorder.errors["rematch_failed"] += 1
    return rematch


async def _play(config: ChaosConfig, cluster: Cluster, redis: RedisProcess, sessions,
                key: BotKey, rng: random.Random) -> dict[str, Any]:
    rooms = await make_rooms(cluster.bases, config, rng)
    recorder, seen, faults, violations = Recorder(), Observations(), FaultLog(), Violations()

    async def head(code: str) -> tuple[int | None, int]:
        async with sessions() as session:
            found = await repo.room_head(session, code)
        return (found[1], found[2]) if found else (None, 0)

    chaos = Chaos([base.replace("http", "ws", 1) for base in cluster.bases], head,
                  config.drop_mean)
    async with ProcessClients(cluster.bases) as http:
        pace = Pace(config.think, asyncio.Event(), asyncio.Event(),
                    rematcher(http, recorder, random.Random(rng.random())))
        clients = {room.code: [ChaosPlayer(token, room.code, RoomWatch(), recorder, pace,
                                           random.Random(rng.random()), chaos, seen)
                               for token in room.tokens + [None] * config.spectators]
                   for room in rooms}
        tasks = [asyncio.ensure_future(c.run()) for cs in clients.values() for c in cs]
        pace.go.set()
        plan = FaultPlan(config.seconds, config.kill_every,
                         config.redis_at if config.redis_at is not None else config.seconds / 2,
                         config.redis_down)
        began = time.monotonic()
        await inject_faults(cluster, redis, plan, rng, faults)
        fault_seconds = time.monotonic() - began
        chaos.calm.set()
        try:
            await cluster.ready(READY_SECONDS)
        except RuntimeError as late:
            violations.add("process_not_ready", str(late))
        chaos.hold.set()
        converged_s = await checks.check_convergence(sessions, clients,
                                                     config.converge_timeout, violations)
        pace.stop.set()
        await asyncio.wait(tasks, timeout=30)
    logs = await checks.stored_logs(sessions, {room.code: room.bots for room in rooms}, key,
                                    violations)
    acked = checks.check_acks(seen.acks, logs, violations)
    checks.check_welcomes(seen.welcomes, logs, violations)
    checks.check_regressions(seen, violations)
    return {
        "bench": "chaos", "processes": len(config.ports), "games": list(config.games),
        "rooms": len(rooms), "bot_rooms": sum(bool(room.bots) for room in rooms),
        "clients": sum(len(cs) for cs in clients.values()),
        "fault_seconds": round(fault_seconds, 1), "converge_s": converged_s,
        "faults": {"kills": faults.kills, "redis_restarts": faults.redis_restarts,
                   "restart_failures": faults.restart_failures,
                   "start_s": start_figures(faults), "events": faults.events},
        "actions": sum(log.seq for log in logs.values()), "matches": len(logs),
        "finished_matches": sum(log.live.over for log in logs.values()),
        "acked_actions": acked, "welcomes": len(seen.welcomes),
        "connections": seen.connections, "reconnects": seen.reconnects, "drops": seen.drops,
        "client_errors": dict(recorder.errors),
        "violations": violations.to_json(), "violation_count": sum(violations.counts.values()),
    }


def start_figures(faults: FaultLog) -> dict[str, Any]:
    """Return ``{"listen": [median, max], "ready": [median, max], "never_ready": n,
    "killed_before_ready": n}`` of the restarts' seconds (``FaultLog.starts``; ``None``
    figures when there was none)."""
    def spread(values: list[float]) -> list[float] | None:
        return [statistics.median(values), max(values)] if values else None
    ready = [r for _, r in faults.starts if r is not None]
    return {"listen": spread([listen for listen, _ in faults.starts]), "ready": spread(ready),
            "never_ready": len(faults.starts) - len(ready),
            "killed_before_ready": faults.killed_before_ready}


async def run_chaos(config: ChaosConfig) -> dict[str, Any]:
    """Run the whole chaos run of ``config``; return its summary (see ``_play``). Every
    process started here is stopped before it returns."""
    config.folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(config.seed)
    secret = secrets.token_hex(32)
    env = {"ARENA_BOT_SECRET": secret, "ARENA_BOT_DELAY_MIN": str(config.bot_delay[0]),
           "ARENA_BOT_DELAY_MAX": str(config.bot_delay[1]), "ARENA_FRAMES_PER_SECOND": "1000"}
    key = BotKey(bytes.fromhex(secret), BotDelay(*config.bot_delay))
    redis = RedisProcess(config.redis_port, config.folder)
    cluster = Cluster(list(config.ports), config.database_url, redis, env, config.folder)
    engine = None
    try:
        await asyncio.to_thread(redis.start)
        await asyncio.to_thread(cluster.start)
        await cluster.ready()
        # few connections: the servers' pools (30 each) share PostgreSQL's max_connections
        engine = create_async_engine(config.database_url, pool_size=4, max_overflow=4)
        return await _play(config, cluster, redis, make_sessionmaker(engine), key, rng)
    finally:
        await asyncio.to_thread(cluster.stop)
        redis.kill()
        if engine is not None:
            await engine.dispose()

