"""Fixtures of the server tests: a real uvicorn server in the test's own event loop.

Each test gets its own SQLite file in ``tmp_path``, a ``ManualClock`` (time moves only when the
test says so), a fixed seed source, the in-memory broker, an httpx client and websocket clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from app.main import create_app
from app.realtime.edge import UVICORN_WS
from app.rooms.clocks import ManualClock
from app.settings import Settings
from tests.conftest import free_port, fresh_postgres_database
from tests.waiting import wait_until

SEED = bytes(range(32))  # the fixed match seed of these tests
QUIET = {"presence", "chat", "chat_history", "pong", "room"}  # ``Client.next`` skips unless asked


class Client:
    """A websocket client of one room with a receive timeout (no test can hang)."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.welcome: dict[str, Any] | None = None
        self.last: dict[str, Any] | None = None  # the newest welcome/update

    async def send(self, data: Any) -> None:
        """Send ``data`` (a dict as JSON; a str as is)."""
        await self.socket.send(data if isinstance(data, str) else json.dumps(data))

    async def _recv(self, timeout: float) -> dict[str, Any]:
        """Return the next frame of any type (``last`` follows welcome/update frames)."""
        frame = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        if frame["type"] in ("welcome", "update"):
            self.last = frame
        return frame

    async def next(self, *types: str, timeout: float = 5.0) -> dict[str, Any]:
        """Return the next frame of one of ``types`` (default: anything but the quiet ones)."""
        while True:
            frame = await self._recv(timeout)
            if (types and frame["type"] in types) or (not types and frame["type"] not in QUIET):
                return frame

    async def until_version(self, version: int) -> list[dict[str, Any]]:
        """Return the update frames received until one reaches ``version``.

        Only for a version this socket must be shown: a viewer gets an ``update`` only when it
        can see a change (docs/protocol.md), so waiting for any other would time out. Tests
        that replay the engine predict which viewers must hear (``tests.app.expect``).
        """
        frames = []
        while self.last is None or self.last.get("view") is None \
                or self.last["version"] < version:
            frames.append(await self.next("update"))
        return frames

    async def until_presence(self, online: list[int], spectators: int) -> dict[str, Any]:
        """Return the first ``presence`` frame with these seats online and spectator count."""
        want = {"type": "presence", "online": online, "spectators": spectators}
        while (frame := await self.next("presence")) != want:
            pass
        return frame

    async def settle(self) -> list[dict[str, Any]]:
        """Return the update frames already queued for this socket (a ``ping``, up to its
        ``pong``; other frames are skipped).

        The hub queues a version's frames for all its sockets of the room at once, so once any
        socket of the same server process has a version's ``update``, the ``pong`` comes after
        every frame of that version — also when this socket gets none (an unchanged viewer).
        A ping refused by the rate limit (``rate_limited``) is sent again a moment later.
        """
        return [frame for frame in await self.silent() if frame["type"] == "update"]

    async def silent(self) -> list[dict[str, Any]]:
        """Return every frame already queued for this socket: a ``ping``, then the frames up to
        its ``pong`` (most tests expect none; see ``settle`` for why the pong is a barrier). A
        ping refused by the rate limit (``rate_limited``) is sent again a moment later."""
        await self.send({"type": "ping"})
        frames = []
        while (frame := await self._recv(5.0))["type"] != "pong":
            if frame["type"] == "error" and frame["code"] == "rate_limited":
                await asyncio.sleep(0.1)
                await self.send({"type": "ping"})
            else:
                frames.append(frame)
        return frames

    async def act(self, action: dict[str, Any], prompt: str | None = None) -> None:
        """Answer the current prompt (or ``prompt``) with ``action``."""
        await self.send({"type": "act", "prompt": prompt or self.last["prompt"],
                         "action": action})


class Arena:
    """A running server plus helpers to create players and rooms and connect sockets."""

    def __init__(self, base: str, http: httpx.AsyncClient, clock: ManualClock, app: Any,
                 db_path: Path) -> None:
        self.base, self.http, self.clock, self.app, self.db_path = base, http, clock, app, db_path
        self.sockets: list[Any] = []

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://")

    async def player(self, name: str) -> dict[str, Any]:
        """Create a player; return ``{id, name, token}``."""
        answer = await self.http.post("/api/players", json={"name": name})
        assert answer.status_code == 201, answer.text
        return answer.json()

    async def room(self, creator: dict[str, Any], options: dict[str, Any] | None = None,
                   game: str = "reverse_curse") -> dict[str, Any]:
        """Create a room; return its JSON."""
        answer = await self.http.post("/api/rooms", json={"game": game, "options": options},
                                      headers=auth(creator))
        assert answer.status_code == 201, answer.text
        return answer.json()

    async def sit(self, code: str, seat: int, player: dict[str, Any]) -> httpx.Response:
        """Claim ``seat`` for ``player``."""
        return await self.http.post(f"/api/rooms/{code}/seats/{seat}", headers=auth(player))

    async def connect(self, code: str, token: str | None = None, hello: bool = True,
                      **kwargs: Any) -> Client:
        """Open a socket to room ``code``; with ``hello``, greet and read the ``welcome``."""
        socket = await websockets.connect(f"{self.ws_base}/ws/rooms/{code}", **kwargs)
        self.sockets.append(socket)
        client = Client(socket)
        if hello:
            await client.send({"type": "hello", "token": token})
            client.welcome = await client.next("welcome")
        return client

    async def seat_table(self, code: str,
                         people: list[dict[str, Any]]) -> tuple[dict[int, Client], dict[int | None, Client]]:
        """Connect a spectator to room ``code``, seat ``people`` in seats 0, 1, … and connect each;
        return ``(clients by seat, viewers)``, viewers being the clients plus ``None``: the
        spectator."""
        watch = await self.connect(code)
        for seat, person in enumerate(people):
            assert (await self.sit(code, seat, person)).status_code == 200
        clients = {seat: await self.connect(code, person["token"]) for seat, person in enumerate(people)}
        return clients, {**clients, None: watch}

    async def action_count(self, match_id: int) -> int:
        """Return how many actions the match has logged (read from the database)."""
        from app.db import repositories as repo
        async with self.app.state.arena.sessions() as session:
            return await repo.count_actions(session, match_id)


def auth(player: dict[str, Any]) -> dict[str, str]:
    """Return the Authorization header of ``player``."""
    return {"Authorization": f"Bearer {player['token']}"}


async def serve(app: Any) -> tuple[uvicorn.Server, asyncio.Task, str]:
    """Start ``app`` under uvicorn on a free port in this event loop; return server, task, URL
    once it serves and has resumed its playing matches (``app.state.ready``)."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="on", ws_max_size=64 * 1024,
                                           ws=UVICORN_WS))
    task = asyncio.create_task(server.serve())
    await wait_until(lambda: (server.started and getattr(app.state, "ready", False))
                     or task.done(), "uvicorn's start and the arena's resume", timeout=10)
    if not server.started:
        task.result()  # raises the startup error
        raise RuntimeError("uvicorn did not start")
    if not getattr(app.state, "ready", False):
        raise RuntimeError("the app did not resume its matches within 10 s")
    return server, task, f"http://127.0.0.1:{port}"


async def shutdown(server: uvicorn.Server, task: asyncio.Task) -> None:
    """Stop a server started by ``serve``."""
    server.should_exit = True
    await asyncio.wait_for(task, 10)


#: The inbound frame budget of test servers' sockets (frames per second; see ``make_app``).
TEST_FRAMES_PER_SECOND = 1000.0


def make_app(db_path: Path, clock: ManualClock, broker: Any = None, **settings: Any) -> Any:
    """Return an app on the SQLite file ``db_path`` (or the ``database_url`` of ``settings``)
    with the fixed seed and ``clock`` (and ``broker`` instead of the in-memory one when given).

    Its sockets may send ``TEST_FRAMES_PER_SECOND`` frames a second unless ``settings`` say
    otherwise (production: 20): a scripted client answers as fast as the machine runs, so a
    whole match played on a fast machine would otherwise meet ``rate_limited`` mid-match.
    Tests of the limit pass the setting they test (``frames_per_second=…``). ``bot_pool`` and
    ``games`` in ``settings`` are ``create_app``'s executor factory of the bots' searches and
    the games it hosts.
    """
    settings.setdefault("frames_per_second", TEST_FRAMES_PER_SECOND)
    settings.setdefault("database_url", f"sqlite+aiosqlite:///{db_path}")
    extra = {key: settings.pop(key) for key in ("bot_pool", "games") if key in settings}
    config = Settings(redis_url=None, **settings)
    return create_app(config, clock=clock, seed_source=lambda: SEED, broker=broker, **extra)


@pytest.fixture(scope="session")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database already at the head revision (copied by each test: fast)."""
    from app.db.session import make_engine, migrate

    path = tmp_path_factory.mktemp("template") / "arena.db"

    async def build() -> None:
        engine = make_engine(f"sqlite+aiosqlite:///{path}")
        await migrate(engine)
        await engine.dispose()

    asyncio.run(build())
    return path


@pytest.fixture
def db_path(tmp_path: Path, template_db: Path) -> Path:
    """This test's own SQLite file (a copy of the migrated template)."""
    return Path(shutil.copy(template_db, tmp_path / "arena.db"))


@contextlib.asynccontextmanager
async def running_arena(db_path: Path, clock: ManualClock | None = None, broker: Any = None,
                        **settings: Any) -> AsyncIterator[Arena]:
    """Serve ``make_app(db_path, clock, broker, **settings)`` (the fixed seed; ``settings`` are
    ``Settings`` fields; a new ``ManualClock`` when ``clock`` is None) for the ``async with``
    block; yield its ``Arena``.

    On exit every socket the arena opened is closed, then the server is stopped.
    """
    clock = ManualClock() if clock is None else clock
    app = make_app(db_path, clock, broker, **settings)
    server, task, base = await serve(app)
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        arena = Arena(base, http, clock, app, db_path)
        try:
            yield arena
        finally:
            for socket in arena.sockets:
                await socket.close()
            await shutdown(server, task)


@pytest.fixture
async def arena(db_path: Path) -> AsyncIterator[Arena]:
    """A running server on its own SQLite file, with a ``ManualClock`` and the fixed seed."""
    async with running_arena(db_path) as running:
        yield running


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def postgres_or_none(request) -> str | None:
    """The test PostgreSQL URL for the ``postgresql`` case, ``None`` for the ``sqlite`` one."""
    return None if request.param == "sqlite" else request.getfixturevalue("postgres_url")


@pytest.fixture
async def database_url(postgres_or_none, tmp_path, request) -> AsyncIterator[str]:
    """The URL of an empty database for a test run on SQLite and on PostgreSQL: an SQLite
    file, or a PostgreSQL database of its own named after the test module
    (``fresh_postgres_database``: dropped afterwards)."""
    if postgres_or_none is None:
        yield f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}"
        return
    name = "arena_" + request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
    async with fresh_postgres_database(postgres_or_none, name) as url:
        yield url
