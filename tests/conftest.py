"""Shared fixtures: external services (PostgreSQL, Redis, Chromium) and a live server.

A service that is not reachable skips the test that needs it with a clear reason — unless the
environment has ``REQUIRE_SERVICES=1`` (CI), where it fails instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.waiting import wait_until_sync

POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
POSTGRES_HOST, POSTGRES_PORT = "127.0.0.1", 5432
REDIS_URL = "redis://127.0.0.1:6379/0"
REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379
CHROMIUM = Path("/usr/bin/chromium")


def require(service: str, problem: str | None) -> None:
    """Skip (or, with ``REQUIRE_SERVICES=1``, fail) when ``problem`` says a service is missing."""
    if problem is None:
        return
    message = f"{service} is not available: {problem}"
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"{message} (REQUIRE_SERVICES=1)")
    pytest.skip(message)


def port_problem(host: str, port: int) -> str | None:
    """Return why ``host:port`` does not accept TCP connections, or ``None`` if it does."""
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return None
    except OSError as exc:
        return f"nothing answers on {host}:{port} ({exc})"


async def _ensure_database(name: str) -> None:
    import asyncpg
    conn = await asyncpg.connect(host=POSTGRES_HOST, port=POSTGRES_PORT, user="postgres",
                                 database="postgres")
    try:
        if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
            await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def fresh_postgres_database(postgres_url: str, prefix: str) -> AsyncIterator[str]:
    """Create an empty PostgreSQL database named ``<prefix>_<12 hex digits>`` next to
    ``postgres_url``'s; yield its URL; drop it (closing its connections) when the block ends."""
    import asyncpg
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(host=POSTGRES_HOST, port=POSTGRES_PORT, user="postgres",
                                  database="postgres")
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield postgres_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await admin.close()


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """The test PostgreSQL URL (``…/test``, trust auth); the database is created if missing."""
    require("PostgreSQL", port_problem(POSTGRES_HOST, POSTGRES_PORT))
    try:
        asyncio.run(_ensure_database("test"))
    except Exception as exc:  # reachable but refusing us
        require("PostgreSQL", f"cannot connect as postgres ({exc})")
    return POSTGRES_URL


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The test Redis URL (database 0)."""
    require("Redis", port_problem(REDIS_HOST, REDIS_PORT))
    return REDIS_URL


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The path of Debian's Chromium."""
    require("Chromium", None if os.access(CHROMIUM, os.X_OK) else f"{CHROMIUM} is missing")
    return str(CHROMIUM)


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def threaded_server(app: Any, **config: Any) -> Iterator[str]:
    """Serve ``app`` under uvicorn on a free 127.0.0.1 port from a background thread (its own
    event loop); yield the base URL (``http://127.0.0.1:<port>``).

    ``config`` adds ``uvicorn.Config`` options (e.g. ``ws_max_size``). The server stops when the
    ``with`` block ends. Raises RuntimeError when its thread ended without starting it, and
    AssertionError when it has not started within 20 s.
    """
    import uvicorn

    port = free_port()
    from app.realtime.edge import UVICORN_WS

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="on",
                                           log_level="warning", **{"ws": UVICORN_WS, **config}))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_until_sync(lambda: server.started or not thread.is_alive(), "the threaded server's start",
                    timeout=20)
    if not server.started:
        raise RuntimeError("the threaded server did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """Run the real app under uvicorn on a free port with a fresh SQLite file; yield its URL.

    The server runs in a background thread (its own event loop) and stops at teardown.
    """
    from app.main import create_app
    from app.settings import Settings

    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'arena.db'}",
                        redis_url=None)
    with threaded_server(create_app(settings)) as url:
        yield url
