"""The load generator: R rooms of scripted players and S spectators per room.

It creates the players and rooms over REST (docs/protocol.md) with every seat but the last
claimed; then room by room it claims the last seat (the match and its clocks start) and connects
that room's clients over websockets, so no clock runs out while a thousand rooms are being made;
it lets them all sit idle (idle memory per room), then lets the players answer their prompts
with random legal actions after a think time (when a match ends, its players ask for a rematch,
so every room keeps playing for the whole window; ``--no-rematch``: the room stops), and
measures, over a window after a warm-up: move round-trip p50/p95/p99 (``act`` -> the acting
player's ``update``), the time for an update to reach the last spectator of its room, moves/s,
errors, and the server's CPU and RSS from ``/proc`` of its pid (and its children). It prints
one JSON line. The generator runs on uvloop, in one process, or with ``--processes N`` in N
child processes (each playing every N-th room, so each holds 1/N of the sockets: a process
may hold at most ``ulimit -Hn`` descriptors), whose raw samples are merged before any
percentile is taken; its CPU % over the window (of every process) is ``client_cpu_percent``.

Targets only 127.0.0.1. Usage::

    python -m bench.load --start app --rooms 100 --spectators 2 --think 1 --seconds 20
    python -m bench.load --server-pid 1234 --url http://127.0.0.1:8200 ...
    python -m bench.load --start app --processes 2 --rooms 4500 --spectators 2 --think 2 ...

``--start app|ceiling`` starts the server itself (fresh SQLite file) and stops it afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import gc
import itertools
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvloop
from prometheus_client.parser import text_string_to_metric_families

from bench import procstat, servers
from bench.clients import Pace, Player, RoomWatch, Spectator
from bench.metrics import Recorder, Samples, summary_ms

MB = 1024 * 1024
#: How long the generator keeps an idle HTTP connection: under uvicorn's 5 s keep-alive
#: timeout, so it never sends a request on a connection the server is closing (httpx's
#: default, 5 s, races it: such a request fails "Server disconnected without sending a
#: response").
KEEPALIVE_SECONDS = 2.0


def http_limits(max_connections: int | None) -> httpx.Limits:
    """Return the generator's HTTP connection limits: at most ``max_connections`` at a time
    (``None``: no cap), idle ones closed after ``KEEPALIVE_SECONDS``."""
    return httpx.Limits(max_connections=max_connections, max_keepalive_connections=None,
                        keepalive_expiry=KEEPALIVE_SECONDS)


@dataclass
class LoadConfig:
    """One run's parameters (see ``python -m bench.load --help``)."""

    url: str = f"http://{servers.HOST}:8200"
    game: str = "reverse_curse"
    options: dict[str, Any] = field(default_factory=dict)
    rooms: int = 10
    spectators: int = 1
    think: float = 1.0
    seconds: float = 20.0
    warmup: float = 3.0
    connect_rate: float = 500.0
    rest_concurrency: int = 16
    seed: int = 0
    rematch: bool = True
    patches: bool = True
    #: Read the server's collector pauses from ``/metrics``: one server process only (several
    #: uvicorn workers share a port, and each scrape reaches any one of them).
    collector: bool = True

    def ws_url(self, code: str) -> str:
        """Return the websocket URL of room ``code``."""
        return self.url.replace("http", "ws", 1).rstrip("/") + f"/ws/rooms/{code}"


@dataclass
class RoomPlan:
    """A created room: its code and each seat's player token (all seats but the last claimed)."""

    code: str
    tokens: list[str]


# --------------------------------------------------------------------------- REST set-up


async def _post(client: httpx.AsyncClient, path: str, token: str | None = None,
                body: dict[str, Any] | None = None) -> dict[str, Any]:
    """POST ``body`` to ``path`` and return the JSON answer.

    Raises:
        httpx.HTTPStatusError: for a 4xx/5xx answer.
    """
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = await client.post(path, json=body, headers=headers)
    answer.raise_for_status()
    return answer.json()


async def create_room(client: httpx.AsyncClient, config: LoadConfig, index: int) -> RoomPlan:
    """Create a room of ``config.game`` and one player per seat; claim every seat but the last
    (claiming the last one starts the match: ``start_match``)."""
    first = await _post(client, "/api/players", body={"name": f"bench{index}-0"})
    room = await _post(client, "/api/rooms", first["token"],
                       {"game": config.game, "options": config.options})
    tokens = [first["token"]]
    for seat in range(1, len(room["seats"])):
        tokens.append((await _post(client, "/api/players",
                                   body={"name": f"bench{index}-{seat}"}))["token"])
    for seat, token in enumerate(tokens[:-1]):
        await _post(client, f"/api/rooms/{room['code']}/seats/{seat}", token)
    return RoomPlan(room["code"], tokens)


async def start_match(client: httpx.AsyncClient, plan: RoomPlan) -> None:
    """Claim the room's last seat: every seat is filled, so the match starts."""
    last = len(plan.tokens) - 1
    await _post(client, f"/api/rooms/{plan.code}/seats/{last}", plan.tokens[last])


async def ask_rematch(client: httpx.AsyncClient, recorder: Recorder, code: str,
                      token: str | None) -> None:
    """Ask to play again in room ``code`` as the player of ``token`` (the last seat to ask
    starts the rematch). A refusal is counted in ``recorder.errors`` as ``rematch_<its
    code>`` (``rematch_failed`` when no answer came)."""
    try:
        await _post(client, f"/api/rooms/{code}/rematch", token)
    except httpx.HTTPStatusError as refused:
        try:
            reason = refused.response.json()["detail"]["code"]
        except (ValueError, KeyError, TypeError):
            reason = str(refused.response.status_code)
        recorder.errors[f"rematch_{reason}"] += 1
    except httpx.HTTPError:
        recorder.errors["rematch_failed"] += 1


async def create_rooms(config: LoadConfig) -> list[RoomPlan]:
    """Create ``config.rooms`` rooms with at most ``rest_concurrency`` requests in flight."""
    gate = asyncio.Semaphore(config.rest_concurrency)
    limits = http_limits(config.rest_concurrency)
    async with httpx.AsyncClient(base_url=config.url, limits=limits, timeout=60) as client:
        async def one(index: int) -> RoomPlan:
            async with gate:
                return await create_room(client, config, index)
        return list(await asyncio.gather(*(one(i) for i in range(config.rooms))))


# --------------------------------------------------------------------------- the run


async def _launch(config: LoadConfig, plans: Sequence[RoomPlan],
                  clients: Sequence[Sequence]) -> list[asyncio.Task]:
    """Start each room's match, then its clients as tasks (``clients[i]`` are room ``i``'s).

    Room ``i`` is due once the clients of the rooms before it had their turn at
    ``config.connect_rate`` clients per second; its claim then waits for one of
    ``config.rest_concurrency`` requests in flight. The claims' round trips overlap, so starting
    thousands of matches does not take longer than the turn clock they start.
    """
    gate = asyncio.Semaphore(config.rest_concurrency)
    interval = 1.0 / config.connect_rate if config.connect_rate > 0 else 0.0
    begun = time.perf_counter()
    limits = http_limits(config.rest_concurrency)
    async with httpx.AsyncClient(base_url=config.url, limits=limits, timeout=60) as client:
        async def one(plan: RoomPlan, room_clients: Sequence, due: int) -> list[asyncio.Task]:
            await asyncio.sleep(max(0.0, begun + due * interval - time.perf_counter()))
            async with gate:
                await start_match(client, plan)
            return [asyncio.ensure_future(c.run()) for c in room_clients]
        dues = itertools.accumulate((len(c) for c in clients[:-1]), initial=0)
        rooms = await asyncio.gather(*(one(plan, room_clients, due) for plan, room_clients, due
                                       in zip(plans, clients, dues)))
    return [task for room in rooms for task in room]


async def _wait_welcomed(recorder: Recorder, expected: int, timeout: float) -> None:
    """Return once ``expected`` welcomes (or failures) arrived, or after ``timeout`` seconds."""
    deadline = time.perf_counter() + timeout
    while (recorder.welcomed + recorder.errors["connect_failed"] < expected
           and time.perf_counter() < deadline):
        await asyncio.sleep(0.1)


def quiet_collector() -> None:
    """Keep the generator's own garbage collector from pausing its clients in the run: the
    objects of the set-up (thousands of sockets) are collected once and frozen, then the
    collector is off until the process ends (reference counting still frees what the clients
    drop; a run's cycles are a few MB). With CPython's defaults a full collection of 4,000
    clients took 0.3–1 s every few seconds, and even young and middle collections every few
    hundred ms counted in the round-trips as the server's latency (bench/HISTORY.md
    2026-12-06 "tail")."""
    gc.collect()
    gc.freeze()
    gc.disable()


def _server_sample(pid: int | None) -> procstat.Sample | None:
    return procstat.sample(pid) if pid else None


def player_seeds(seed: int, plans: Sequence[RoomPlan]) -> list[list[float]]:
    """Return the seed of each player's random choices, per room (``random.Random(seed)``'s
    draws, room by room, seat by seat): the same whichever process plays the room."""
    rng = random.Random(seed)
    return [[rng.random() for _ in plan.tokens] for plan in plans]


class Generator:
    """The clients of some rooms in this process: their players (seeded by ``seeds``: one
    list per room, ``player_seeds``) and ``config.spectators`` spectators per room.

    Args:
        config: the run; plans, seeds: the rooms this process plays.
        client: the HTTP client of the players' rematch requests.
    """

    def __init__(self, config: LoadConfig, plans: Sequence[RoomPlan],
                 seeds: Sequence[Sequence[float]], client: httpx.AsyncClient) -> None:
        self.config, self.plans, self.recorder = config, plans, Recorder()
        rematch = (functools.partial(ask_rematch, client, self.recorder) if config.rematch
                   else None)
        self.pace = Pace(config.think, asyncio.Event(), asyncio.Event(), rematch, config.patches)
        self.watches = [RoomWatch() for _ in plans]
        self.clients: list[list] = []
        for plan, watch, room_seeds in zip(plans, self.watches, seeds):
            url = config.ws_url(plan.code)
            self.clients.append(
                [Player(url, t, plan.code, watch, self.recorder, self.pace, random.Random(s))
                 for t, s in zip(plan.tokens, room_seeds)]
                + [Spectator(url, watch, self.recorder, self.pace)
                   for _ in range(config.spectators)])
        self.tasks: list[asyncio.Task] = []

    def connections(self) -> int:
        """Return how many clients (sockets) this process opens."""
        return sum(len(c) for c in self.clients)

    async def connect(self) -> float:
        """Start each room's match and its clients (``_launch``); return once every client was
        welcomed (or failed to connect), or after 120 s, with the seconds that took (the
        launch: the first match's clocks ran that long before anyone may play)."""
        begun = time.perf_counter()
        self.tasks = await _launch(self.config, self.plans, self.clients)
        await _wait_welcomed(self.recorder, self.connections(), timeout=120)
        return time.perf_counter() - begun

    async def finish(self, cpu_seconds: float) -> Samples:
        """Close every client (waiting at most 30 s) and return what was measured, with this
        process's CPU seconds over the window."""
        self.pace.stop.set()
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=30)
        traces = [trace for watch in self.watches for trace in watch.traces.values()]
        restarts = [t for watch in self.watches for t in watch.restarts]
        return self.recorder.samples(traces, self.config.spectators, restarts, cpu_seconds)


@dataclass
class Window:
    """The measurement window and the server's samples over it (``_observe``).

    Attributes:
        start, end: perf seconds; first, last: the server at each end; peak: its highest RSS
            seen (bytes); collector: the server's garbage-collector pauses over the window
            (``collector_pauses``; ``None`` for a server without them).
    """

    start: float
    end: float
    first: procstat.Sample | None
    last: procstat.Sample | None
    peak: int
    collector: dict[str, dict[str, float]] | None = None


async def _observe(pid: int | None, start: float, end: float, url: str | None) -> Window:
    """Sample the server (``pid``, if any) at ``start`` (perf seconds, waited for) and every
    second until ``end``, and read its collector pauses (``url``'s ``/metrics``, if given) at
    both ends; return the window as it ran."""
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    first, pauses = _server_sample(pid), await collector_pauses(url)
    peak = first.rss_bytes if first else 0
    while (now := time.perf_counter()) < end:
        await asyncio.sleep(min(1.0, end - now))
        sample = _server_sample(pid)
        peak = max(peak, sample.rss_bytes if sample else 0)
    last, later = _server_sample(pid), await collector_pauses(url)
    collector = None if pauses is None or later is None else {
        generation: {key: later[generation][key] - pauses[generation][key]
                     for key in ("count", "sum")} for generation in later}
    return Window(start, time.perf_counter(), first, last, peak, collector)


async def collector_pauses(url: str | None) -> dict[str, dict[str, float]] | None:
    """Return the server's ``arena_gc_pause_seconds`` so far, ``{generation: {"count",
    "sum"}}`` (seconds), or ``None`` when ``url`` serves no such metric (the ceiling) or is
    ``None``."""
    if url is None:
        return None
    try:
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            answer = await client.get("/metrics")
    except httpx.HTTPError:
        return None
    if answer.status_code != 200:
        return None
    found: dict[str, dict[str, float]] = {}
    for family in text_string_to_metric_families(answer.text):
        if family.name != "arena_gc_pause_seconds":
            continue
        for sample in family.samples:
            kind = sample.name.rsplit("_", 1)[1]
            if kind in ("count", "sum"):
                found.setdefault(sample.labels["generation"], {})[kind] = sample.value
    return found or None


def report(config: LoadConfig, plans: Sequence[RoomPlan], samples: Samples,
           setup_seconds: float, launch_seconds: float, window: Window,
           figures: dict[str, Any] | None) -> dict[str, Any]:
    """Return the run's JSON line (without ``target``): the load, the set-up's seconds
    (``setup_s``) and of it the launch's (``launch_s``: the first match started -> every client
    welcomed; the slowest generator process's), the clients' ``samples`` (of every generator
    process, merged) over ``window``, and the server's ``figures``."""
    seconds = window.end - window.start
    players = sum(len(p.tokens) for p in plans)
    return {"bench": "load", "game": config.game, "rooms": config.rooms, "players": players,
            "spectators": config.spectators * config.rooms, "think_s": config.think,
            "connections": players + config.spectators * config.rooms,
            "welcomed": samples.welcomed, "setup_s": round(setup_seconds, 1),
            "launch_s": round(launch_seconds, 1),
            **samples.figures(seconds),
            "rematches": len(samples.restarts), "rematch_ms": summary_ms(samples.restarts),
            "client_cpu_percent": round(100 * samples.cpu_seconds / seconds, 1),
            "server": figures}


async def run_load(config: LoadConfig, server_pid: int | None, processes: int = 1
                   ) -> dict[str, Any]:
    """Run one load and return its JSON-ready figures (see the module doc for the phases).

    With ``processes`` > 1 the rooms are created here and played by that many generator
    processes (``_run_split``); the line then adds ``"generators": processes``.

    The rematch requests have no cap on connections (each real player has its own browser):
    with 16 they queued in the generator, ≈ 2 s per rematch at 200 rooms.
    """
    if processes > 1:
        return await _run_split(config, server_pid, processes)
    limits = http_limits(None)
    async with httpx.AsyncClient(base_url=config.url, limits=limits, timeout=60) as client:
        return await _run_load(config, server_pid, client)


async def _run_load(config: LoadConfig, server_pid: int | None,
                    client: httpx.AsyncClient) -> dict[str, Any]:
    """``run_load`` in this process, with ``client`` for the players' rematch requests."""
    baseline = _server_sample(server_pid)
    setup_began = time.perf_counter()
    plans = await create_rooms(config)
    created = _server_sample(server_pid)
    generator = Generator(config, plans, player_seeds(config.seed, plans), client)
    launch_seconds = await generator.connect()
    setup_seconds = time.perf_counter() - setup_began
    quiet_collector()
    await asyncio.sleep(1.0)
    idle = _server_sample(server_pid)
    generator.pace.go.set()
    await asyncio.sleep(config.warmup)
    recorder = generator.recorder
    recorder.start, cpu0 = time.perf_counter(), time.process_time()
    window = await _observe(server_pid, recorder.start, recorder.start + config.seconds,
                            config.url if config.collector else None)
    recorder.end, client_cpu = window.end, time.process_time() - cpu0
    samples = await generator.finish(client_cpu)
    return report(config, plans, samples, setup_seconds, launch_seconds, window,
                  _server_figures(server_pid, baseline, created, idle, window, config.rooms))


# --------------------------------------------------------------------------- several processes


async def _run_split(config: LoadConfig, server_pid: int | None, processes: int
                     ) -> dict[str, Any]:
    """``run_load`` with ``processes`` generator processes: the rooms are created here, then
    room ``i`` is played by process ``i % processes`` (each connecting at its share of
    ``connect_rate``); once every process reported its clients welcomed (and one idle
    second) all begin to play, measure the same window (perf seconds: ``CLOCK_MONOTONIC``,
    one clock for every process) and send back their samples, merged here; the server is
    read here only."""
    baseline = _server_sample(server_pid)
    setup_began = time.perf_counter()
    plans = await create_rooms(config)
    created = _server_sample(server_pid)
    seeds = player_seeds(config.seed, plans)
    rate = config.connect_rate / processes if config.connect_rate > 0 else config.connect_rate
    share = dataclasses.replace(config, connect_rate=rate)
    children: list[_GeneratorProcess] = []
    try:
        for index in range(processes):
            children.append(await _GeneratorProcess.start(index, {
                "config": dataclasses.asdict(share),
                "plans": [dataclasses.asdict(plan) for plan in plans[index::processes]],
                "seeds": seeds[index::processes]}))
        launch_seconds = max(await asyncio.gather(*(child.receive("launched")
                                                    for child in children)))
        setup_seconds = time.perf_counter() - setup_began
        quiet_collector()
        await asyncio.sleep(1.0)
        idle = _server_sample(server_pid)
        start = time.perf_counter() + config.warmup
        for child in children:
            child.send({"start": start, "end": start + config.seconds})
        window = await _observe(server_pid, start, start + config.seconds,
                                config.url if config.collector else None)
        parts = await asyncio.gather(*(child.receive("samples") for child in children))
        for child in children:
            await child.wait()
    finally:
        for child in children:
            child.kill()
    samples = Samples.merged([Samples.from_json(part) for part in parts])
    result = report(config, plans, samples, setup_seconds, launch_seconds, window,
                    _server_figures(server_pid, baseline, created, idle, window, config.rooms))
    result["generators"] = processes
    return result


class _GeneratorProcess:
    """One generator process (``python -m bench.load --generator``) seen from the parent:
    JSON lines to its stdin, JSON lines from its stdout (``generate`` is the other end)."""

    def __init__(self, index: int, process: asyncio.subprocess.Process) -> None:
        self.index, self.process = index, process

    @classmethod
    async def start(cls, index: int, job: dict[str, Any]) -> _GeneratorProcess:
        """Start generator process ``index`` and send it ``job`` (its config, rooms, seeds)."""
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.load", "--generator", cwd=servers.ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 30)
        child = cls(index, process)
        child.send(job)
        return child

    def send(self, message: dict[str, Any]) -> None:
        """Write ``message`` as one JSON line to the process."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")

    async def receive(self, key: str) -> Any:
        """Return ``key`` of the next line the process writes.

        Raises:
            RuntimeError: the process ended first, or wrote another message.
        """
        assert self.process.stdout is not None
        line = await self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"generator process {self.index} ended "
                               f"(status {await self.process.wait()})")
        message = json.loads(line)
        if key not in message:
            raise RuntimeError(f"generator process {self.index} sent {sorted(message)}, "
                               f"not {key!r}")
        return message[key]

    async def wait(self) -> None:
        """Close its stdin and return once the process exited (it does after sending its
        samples)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()

    def kill(self) -> None:
        """Kill the process if it still runs."""
        if self.process.returncode is None:
            self.process.kill()


async def generate() -> None:
    """Be one generator process of ``_run_split``: read the job (a JSON line on stdin: config,
    rooms, seeds), connect its clients and write ``{"launched": seconds}`` (``Generator.connect``);
    read the window (``{"start", "end"}``, perf seconds), play and measure through it, then
    write ``{"samples": Samples.to_json()}`` and return."""
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader(limit=1 << 30)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    job = json.loads(await stdin.readline())
    config = LoadConfig(**job["config"])
    plans = [RoomPlan(**plan) for plan in job["plans"]]
    limits = http_limits(None)
    async with httpx.AsyncClient(base_url=config.url, limits=limits, timeout=60) as client:
        generator = Generator(config, plans, job["seeds"], client)
        launch_seconds = await generator.connect()
        quiet_collector()
        _write({"launched": launch_seconds})
        window = json.loads(await stdin.readline())
        generator.recorder.start, generator.recorder.end = window["start"], window["end"]
        generator.pace.go.set()
        await asyncio.sleep(max(0.0, window["start"] - time.perf_counter()))
        cpu0 = time.process_time()
        await asyncio.sleep(max(0.0, window["end"] - time.perf_counter()))
        samples = await generator.finish(time.process_time() - cpu0)
    _write({"samples": samples.to_json()})


def _write(message: dict[str, Any]) -> None:
    """Write ``message`` as one JSON line to stdout (to the parent)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _server_figures(pid: int | None, baseline, created, idle, window: Window,
                    rooms: int) -> dict[str, Any] | None:
    """Return the server's CPU % over the window, RSS (MB) and idle bytes per room (KB), and
    its collector's pauses over the window (``gc``: per generation, how many and their
    seconds; ``gc_percent``: their total over the window's seconds, % of wall time).

    ``idle_room_kb`` = (RSS with every room created and every client connected, before any
    move - RSS before the run) / rooms; ``room_only_kb`` is the part before the clients
    connected (rooms, seats, started matches, and the REST traffic that made them).
    """
    first, last = window.first, window.last
    if pid is None or not (baseline and created and idle and first and last):
        return None
    return {"pid": pid, "processes": last.processes,
            "cpu_percent": round(100 * (last.cpu_seconds - first.cpu_seconds)
                                 / (window.end - window.start), 1),
            "rss_mb": round(last.rss_bytes / MB, 1), "rss_peak_mb": round(window.peak / MB, 1),
            "rss_baseline_mb": round(baseline.rss_bytes / MB, 1),
            "rss_idle_mb": round(idle.rss_bytes / MB, 1),
            "idle_room_kb": round((idle.rss_bytes - baseline.rss_bytes) / rooms / 1024, 1),
            "room_only_kb": round((created.rss_bytes - baseline.rss_bytes) / rooms / 1024, 1),
            **_collector_figures(window)}


def _collector_figures(window: Window) -> dict[str, Any]:
    """``gc`` and ``gc_percent`` of ``_server_figures`` (nothing for a server without them)."""
    if window.collector is None:
        return {}
    seconds = sum(pauses["sum"] for pauses in window.collector.values())
    return {"gc": {generation: {"count": int(pauses["count"]),
                                "seconds": round(pauses["sum"], 3)}
                   for generation, pauses in sorted(window.collector.items())},
            "gc_percent": round(100 * seconds / (window.end - window.start), 1)}


# --------------------------------------------------------------------------- command line


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Return the command line (``--help`` lists every option)."""
    p = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--start", choices=("app", "ceiling"),
                   help="start this server on --port")
    p.add_argument("--port", type=int, default=8200)
    p.add_argument("--server-pid", type=int, help="pid of an already running server")
    p.add_argument("--url", help="server base URL (default http://127.0.0.1:PORT)")
    p.add_argument("--database-url", default=None,
                   help="the server's DATABASE_URL (default: /tmp/bench-PORT.db, recreated)")
    p.add_argument("--redis-url", help="REDIS_URL of a started app")
    p.add_argument("--workers", type=int, default=1, help="uvicorn workers of a started app")
    p.add_argument("--profile", help="cProfile output file of a started server")
    p.add_argument("--ceiling-args", default="", help="extra args of bench.ceiling (one string)")
    p.add_argument("--game", default="reverse_curse")
    p.add_argument("--options", default="{}", help="room options as JSON")
    p.add_argument("--rooms", type=int, default=10)
    p.add_argument("--spectators", type=int, default=1, help="spectators per room")
    p.add_argument("--think", type=float, default=1.0, help="mean think seconds (0 = peak)")
    p.add_argument("--seconds", type=float, default=20.0, help="measurement window")
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--connect-rate", type=float, default=500.0, help="new sockets per second")
    p.add_argument("--rest-concurrency", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-rematch", action="store_true",
                   help="players do not ask for a rematch: a room stops when its match ends")
    p.add_argument("--full-frames", action="store_true",
                   help="the clients do not ask for patched updates (every update is whole)")
    p.add_argument("--processes", type=int, default=1,
                   help="generator processes playing the rooms (each opens its share of the "
                        "sockets: a process is capped at `ulimit -Hn` descriptors)")
    p.add_argument("--generator", action="store_true",
                   help="(internal) be one of --processes' generator processes: the job on "
                        "stdin, the samples on stdout")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one load (starting and stopping the server when ``--start``); print one JSON line."""
    args = parse_args(argv)
    servers.raise_fd_limit()
    if args.generator:
        uvloop.run(generate())
        return 0
    if args.processes < 1:
        raise SystemExit("--processes must be at least 1")
    config = LoadConfig(url=args.url or f"http://{servers.HOST}:{args.port}", game=args.game,
                        options=json.loads(args.options), rooms=args.rooms,
                        spectators=args.spectators, think=args.think, seconds=args.seconds,
                        warmup=args.warmup, connect_rate=args.connect_rate,
                        rest_concurrency=args.rest_concurrency, seed=args.seed,
                        rematch=not args.no_rematch, patches=not args.full_frames,
                        collector=args.workers == 1)
    process = None
    if args.start:
        spec = servers.ServerSpec(args.start, args.port, args.database_url or "", args.redis_url,
                                  args.workers, args.profile, args.ceiling_args.split())
        process = servers.start(spec, log_path=f"/tmp/bench-{args.start}-{args.port}.log")
    try:
        result = uvloop.run(run_load(config, process.pid if process else args.server_pid,
                                     args.processes))
    finally:
        if process is not None:
            servers.stop(process)
    result["target"] = args.start or "external"
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
