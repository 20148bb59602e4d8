"""Helpers of the production-mode tests: real uvicorn processes on one PostgreSQL database and
a private Redis, driven by websocket clients.

Each test gets a uniquely named PostgreSQL database (dropped afterwards) and its own
``redis-server`` on a free port (so restarting Redis touches no one else). Servers run
``tests.app.prod_server:build`` (the real app plus test-only hooks) as separate processes.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.realtime.edge import UVICORN_WS
from app.rooms.clocks import FileClock
from engine.registry import GAMES
from tests.app.conftest import Arena, Client
from tests.app.expect import shows_spectator, timeout_event
from tests.app.prod_server import STORE_WAITING
from tests.conftest import free_port, require
from tests.waiting import wait_until, wait_until_sync

ROOT = Path(__file__).resolve().parents[2]
#: Every client of these tests comes from 127.0.0.1: per-address limits off, quiet logs; and a
#: scripted client answers as fast as the machine runs, so the per-socket frame budget is raised
#: (production: 20 a second; on a fast machine a whole match would meet ``rate_limited``).
TEST_ENV = {"ARENA_MAX_CONNECTIONS_PER_IP": "0", "ARENA_PLAYERS_PER_MINUTE": "0",
            "ARENA_ROOMS_PER_MINUTE": "0", "ARENA_LOG_FORMAT": "json",
            "ARENA_FRAMES_PER_SECOND": "1000"}
RESIGN = {"type": "resign"}


class ServerProcess:
    """One ``uvicorn`` process of the app on ``port`` (stdout/stderr to ``log``)."""

    def __init__(self, port: int, env: dict[str, str], log: Path) -> None:
        self.port, self.env, self.log = port, env, log
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the process (returns at once; ``await ready()`` waits for ``/readyz``)."""
        command = [sys.executable, "-m", "uvicorn", "tests.app.prod_server:build", "--factory",
                   "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
                   "--ws", UVICORN_WS, "--ws-max-size", "65536"]
        out = self.log.open("ab")
        self.process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **self.env},
                                        stdout=out, stderr=subprocess.STDOUT)
        out.close()

    async def ready(self, timeout: float = 30.0) -> None:
        """Wait until ``/readyz`` answers 200.

        Raises:
            RuntimeError: the process died or was not ready in time (with its log).
        """
        async with httpx.AsyncClient(base_url=self.base, timeout=2) as http:
            async def answers() -> bool:
                if self.process.poll() is not None:
                    raise RuntimeError(f"server on {self.port} died")
                try:
                    return (await http.get("/readyz")).status_code == 200
                except httpx.TransportError:
                    return False

            try:
                await wait_until(answers, f"server on {self.port} ready", timeout, every=0.05)
            except (AssertionError, RuntimeError) as exc:
                raise RuntimeError(f"{exc}:\n{self.log.read_text()[-3000:]}") from None

    def logged(self, line: str) -> int:
        """Return how many lines of this process's log are ``line``."""
        return self.log.read_text(errors="replace").splitlines().count(line)

    def kill(self) -> None:
        """SIGKILL the process (no shutdown at all) and reap it."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def terminate(self, timeout: float = 20.0) -> int:
        """SIGTERM the process (graceful shutdown); return its exit code."""
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)


class RedisServer:
    """A private ``redis-server`` on a free port (``TEST_REDIS_PORT`` when set: a port range of
    one's own on a shared machine), restartable (nothing saved to disk)."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, int(os.environ.get("TEST_REDIS_PORT") or free_port())
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it and wait until it answers PING."""
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until_sync(lambda: subprocess.run(
            ["redis-cli", "-p", str(self.port), "ping"], capture_output=True,
            text=True).stdout.strip() == "PONG", "the private redis-server's start", timeout=10,
            every=0.05)

    def stop(self) -> None:
        """Kill it (what it held is lost, like a crash) and reap it."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


class RedisPath:
    """A TCP forwarder (in the test's event loop) from a free port to ``RedisServer``: a
    process given ``url`` loses Redis when the path is cut (``cut``: every forwarded
    connection closed, new ones closed at once) while the others keep it, and gets it back
    with ``open``."""

    def __init__(self, redis: RedisServer) -> None:
        self.redis, self.port = redis, free_port()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._open = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def open(self) -> None:
        """Forward the connections to Redis (from now on)."""
        if self._server is None:
            self._server = await asyncio.start_server(self._forward, "127.0.0.1", self.port)
        self._open = True

    async def cut(self) -> None:
        """Close every forwarded connection (both ends); close new ones at once."""
        self._open = False
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def close(self) -> None:
        """Cut, and stop listening."""
        await self.cut()
        if self._server is not None:
            self._server.close()
            self._server = None

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self._open:
            writer.transport.abort()
            return
        self._writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.redis.port)
        except OSError:
            writer.transport.abort()
            return
        if not self._open:  # cut while connecting
            writer.transport.abort()
            up_writer.transport.abort()
            return
        self._writers.add(up_writer)

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (OSError, ConnectionError):
                pass
            finally:
                sink.transport.abort()
                self._writers.discard(sink)

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A private Redis for this test (skips without ``redis-server``)."""
    missing = [tool for tool in ("redis-server", "redis-cli") if shutil.which(tool) is None]
    require("Redis", f"{', '.join(missing)} not installed" if missing else None)
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def admin_execute(*statements: str) -> None:
    """Run ``statements`` on the PostgreSQL maintenance database ``postgres``."""
    import asyncpg
    admin = await asyncpg.connect(host="127.0.0.1", port=5432, user="postgres",
                                  database="postgres")
    try:
        for statement in statements:
            await admin.execute(statement)
    finally:
        await admin.close()


def database_url(postgres_url: str, name: str) -> str:
    """Return the URL of database ``name`` on the test PostgreSQL server."""
    return postgres_url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(scope="session")
def template_database(postgres_url: str) -> Iterator[str]:
    """A database already migrated to head, copied by each test (the servers then start fast);
    dropped at the end of the session. Yields its name."""
    from app.db.session import make_engine, migrate
    name = f"arena_prod_template_{uuid.uuid4().hex[:12]}"

    async def build() -> None:
        await admin_execute(f'CREATE DATABASE "{name}"')
        engine = make_engine(database_url(postgres_url, name))
        await migrate(engine)
        await engine.dispose()

    asyncio.run(build())
    try:
        yield name
    finally:
        asyncio.run(admin_execute(f'DROP DATABASE "{name}" WITH (FORCE)'))


@pytest.fixture
async def database(postgres_url: str, template_database: str) -> AsyncIterator[str]:
    """A fresh, uniquely named PostgreSQL database at head (its URL), dropped afterwards."""
    name = f"arena_prod_{uuid.uuid4().hex[:12]}"
    await admin_execute(f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"')
    try:
        yield database_url(postgres_url, name)
    finally:
        await admin_execute(f'DROP DATABASE "{name}" WITH (FORCE)')


class Cluster:
    """Server processes sharing one database and one Redis, plus REST helpers."""

    def __init__(self, database: str, redis: RedisServer, folder: Path) -> None:
        self.database, self.redis, self.folder = database, redis, folder
        self.servers: list[ServerProcess] = []
        self.http = httpx.AsyncClient(timeout=10)
        self.clients: list[httpx.AsyncClient] = []
        self.sockets: list[Any] = []

    async def launch(self, count: int, ready: bool = True, **env: str) -> list[ServerProcess]:
        """Start ``count`` processes (extra ``ARENA_…`` variables in ``env``); with ``ready``
        wait until each answers ``/readyz`` with 200."""
        fresh = []
        for _ in range(count):
            index = len(self.servers)
            server = ServerProcess(free_port(), {
                **TEST_ENV, "DATABASE_URL": self.database, "REDIS_URL": self.redis.url, **env},
                self.folder / f"server{index}.log")
            server.start()
            self.servers.append(server)
            fresh.append(server)
        if ready:
            await asyncio.gather(*(server.ready() for server in fresh))
        return fresh

    def arena(self, server: ServerProcess) -> Arena:
        """Return the ``tests.app.conftest.Arena`` helpers bound to ``server``."""
        http = httpx.AsyncClient(base_url=server.base, timeout=10)
        self.clients.append(http)
        arena = Arena(server.base, http, None, None, None)
        arena.sockets = self.sockets
        return arena

    async def metric(self, server: ServerProcess, name: str, **labels: str) -> float:
        """Return the value of one sample of ``server``'s ``/metrics`` (0 when absent)."""
        from prometheus_client.parser import text_string_to_metric_families
        text = (await self.http.get(f"{server.base}/metrics")).text
        return sum(sample.value for family in text_string_to_metric_families(text)
                   for sample in family.samples
                   if sample.name == name and sample.labels == labels)

    async def close(self) -> None:
        for socket in self.sockets:
            await socket.close()
        for server in self.servers:
            server.kill()
        for http in (self.http, *self.clients):
            await http.aclose()


@pytest.fixture
async def cluster(database: str, redis_server: RedisServer, tmp_path: Path
                  ) -> AsyncIterator[Cluster]:
    """A ``Cluster`` on this test's database and Redis (no process started yet)."""
    cluster = Cluster(database, redis_server, tmp_path)
    try:
        yield cluster
    finally:
        await cluster.close()


# ------------------------------------------------------------------ the test's time, stores

@pytest.fixture
def clock(tmp_path: Path) -> FileClock:
    """The clock of this test's server processes (``ARENA_TEST_CLOCK_FILE``: ``clocked``), at
    a whole second of the real time; it moves only when the test moves it."""
    return FileClock.create(tmp_path / "clock", float(int(time.time())))


def clocked(clock: FileClock, turn: float, **env: str) -> dict[str, str]:
    """Return the environment of server processes on ``clock`` whose every decision has
    ``turn`` seconds (``ARENA_TEST_TURN_SECONDS``), plus ``env``."""
    return {"ARENA_TEST_CLOCK_FILE": str(clock.path), "ARENA_TEST_TURN_SECONDS": str(turn),
            **env}


class StoreGate:
    """The test's side of ``ARENA_TEST_STORE_GATE`` (``tests.app.prod_server``): how many
    action stores each server process may begin; the ones past it wait, in flight.

    Args:
        path: the gate's file (created holding 0: every store waits).
    """

    def __init__(self, path: Path) -> None:
        self._file = FileClock.create(path, 0)

    def env(self) -> dict[str, str]:
        """Return the environment variable that puts server processes behind this gate."""
        return {"ARENA_TEST_STORE_GATE": str(self._file.path)}

    def allow(self, stores: float) -> None:
        """Let each process begin its first ``stores`` stores (``math.inf``: all of them)."""
        self._file.set(stores)

    @staticmethod
    async def waiting(server: ServerProcess, stores: int, timeout: float = 10.0) -> None:
        """Return once ``server`` has begun ``stores`` stores (each waits at the gate or went
        through it: ``STORE_WAITING`` lines of its log)."""
        await wait_until(lambda: server.logged(STORE_WAITING) >= stores,
                         f"{stores} store(s) begun on {server.port}", timeout, every=0.02)


# ------------------------------------------------------------------------- the database

async def fetch(database: str, query: str, *args: Any) -> list[dict[str, Any]]:
    """Run ``query`` on the test database; return the rows as dicts."""
    import asyncpg
    plain = database.replace("postgresql+asyncpg://", "postgresql://", 1)
    conn = await asyncpg.connect(plain)
    try:
        return [dict(row) for row in await conn.fetch(query, *args)]
    finally:
        await conn.close()


async def stored_actions(database: str, match_id: int) -> list[dict[str, Any]]:
    """Return the match's ``match_actions`` rows ``{seq, seat, action, timeout, at}`` by seq."""
    rows = await fetch(database, "SELECT seq, seat, action, timeout, at FROM match_actions "
                                 "WHERE match_id = $1 ORDER BY seq", match_id)
    return [{**row, "action": json.loads(row["action"])} for row in rows]


async def stored_match(database: str, match_id: int) -> dict[str, Any]:
    """Return the match row ``{game, options, seed, status, outcome, seats}``."""
    [row] = await fetch(database, "SELECT game, options, seed, status, outcome FROM matches "
                                  "WHERE id = $1", match_id)
    seats = await fetch(database, "SELECT count(*) AS n FROM match_seats WHERE match_id = $1",
                        match_id)
    return {**row, "options": json.loads(row["options"]), "seats": seats[0]["n"],
            "outcome": json.loads(row["outcome"]) if row["outcome"] else None}


def replay(match: dict[str, Any], actions: list[dict[str, Any]]) -> Any:
    """Return the engine state after ``actions`` from the match's seed (the expected state)."""
    return replay_public(match, actions)[0]


def replay_public(match: dict[str, Any], actions: list[dict[str, Any]]) -> tuple[Any, int]:
    """Return the engine state after ``actions`` and the public version frames then show
    (``tests.app.expect.shows_spectator``; a clock's ``timeout`` event is public in the
    Reverse Curse games these tests play)."""
    game = GAMES[match["game"]]
    state = game.new_game(match["options"], match["seats"], bytes.fromhex(match["seed"]))
    public = 0
    for row in actions:
        before = state
        if row["action"] == RESIGN:
            state, events = game.resign(state, row["seat"])
        else:
            state, events = game.apply(state, row["seat"], row["action"])
        events = [timeout_event(row["seat"])] * bool(row.get("timeout")) + list(events)
        public += shows_spectator(game, before, state, events)
    return state, public


# ------------------------------------------------------------------------- playing

async def seated(arenas: list[Arena], options: dict[str, Any]) -> tuple[str, list[dict]]:
    """Create a Reverse Curse room on ``arenas[0]`` and seat two players; return code, players."""
    ann, bob = await arenas[0].player("Ann"), await arenas[0].player("Bob")
    code = (await arenas[0].room(ann, options))["code"]
    for seat, player in enumerate((ann, bob)):
        answer = await arenas[seat % len(arenas)].sit(code, seat, player)
        assert answer.status_code == 200, answer.text
    return code, [ann, bob]


async def reach(clients: dict[Any, Client], version: int) -> None:
    """Wait until every client has been shown ``version``."""
    await asyncio.gather(*(client.until_version(version) for client in clients.values()))
