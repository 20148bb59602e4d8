"""Start and stop the servers a load run targets, each in its own process, on 127.0.0.1 only.

Kinds: ``app`` (``uvicorn app.main:app``, the real server), ``ceiling`` (``python -m
bench.ceiling``, the bare websocket server with no game logic) and ``app-lag``
(``bench.lag_app:app``: the app with an event-loop lag probe, for ``bench.bot_lag``).
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from app.realtime.edge import UVICORN_WS

#: The only host any benchmark talks to (the workplace allows loopback traffic only).
HOST = "127.0.0.1"
#: The repository root (the servers run from here so ``app``/``bench`` import).
ROOT = Path(__file__).resolve().parent.parent
#: The app's per-client-address limits, off: every benchmark client comes from 127.0.0.1 and
#: stands for thousands of real addresses (``app/limits.py``; ``ServerSpec.env`` can set them).
NO_PER_IP_LIMITS = {"ARENA_MAX_CONNECTIONS_PER_IP": "0", "ARENA_PLAYERS_PER_MINUTE": "0",
                    "ARENA_ROOMS_PER_MINUTE": "0", "ARENA_LOG_LEVEL": "WARNING"}

#: The uvicorn flags ``make run`` and the Dockerfile give the app (Makefile ``UVICORN_FLAGS``
#: without proxies): frames over 64 KiB refused unread, no per-message deflate, no
#: ``X-Forwarded-For`` handling (which would keep one more middleware frame alive per socket).
APP_FLAGS = ("--ws", UVICORN_WS, "--ws-max-size", "65536", "--ws-per-message-deflate", "false",
             "--no-proxy-headers")


@dataclass
class ServerSpec:
    """What to start.

    Attributes:
        kind: ``"app"``, ``"app-lag"`` or ``"ceiling"``.
        port: TCP port on 127.0.0.1.
        database_url: the app's ``DATABASE_URL`` (default: a fresh SQLite file of its own per
            port, ``/tmp/bench-PORT.db``, so benchmarks on other ports never share one).
        redis_url: the app's ``REDIS_URL`` (``None`` = in-memory broker).
        workers: uvicorn worker processes (the app only; more than 1 needs PostgreSQL + Redis).
        profile: write a cProfile of the (single) server process to this file on stop.
        ceiling_args: extra arguments of ``bench.ceiling`` (frame sizes).
        env: extra environment variables.
    """

    kind: str
    port: int = 8200
    database_url: str = ""
    redis_url: str | None = None
    workers: int = 1
    profile: str | None = None
    ceiling_args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.database_url:
            self.database_url = f"sqlite+aiosqlite:////tmp/bench-{self.port}.db"

    def command(self) -> list[str]:
        """Return the argv that starts this server.

        Raises:
            ValueError: for an unknown kind, or a profile of a multi-worker server.
        """
        python = [sys.executable]
        if self.profile:
            if self.workers != 1:
                raise ValueError("Profile one worker at a time.")
            python += ["-m", "cProfile", "-o", self.profile]
        if self.kind == "ceiling":
            return python + ["-m", "bench.ceiling", "--port", str(self.port), *self.ceiling_args]
        if self.kind in ("app", "app-lag"):
            target = "app.main:app" if self.kind == "app" else "bench.lag_app:app"
            return python + ["-m", "uvicorn", target, "--host", HOST,
                             "--port", str(self.port), "--workers", str(self.workers),
                             "--no-access-log", "--log-level", "warning", *APP_FLAGS]
        raise ValueError(f"Unknown server kind {self.kind!r}.")

    def environment(self) -> dict[str, str]:
        """Return the server's environment: ours, no per-IP limits, the database and broker."""
        env = {**os.environ, **NO_PER_IP_LIMITS, **self.env, "DATABASE_URL": self.database_url}
        env.pop("REDIS_URL", None)
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
        return env


def raise_fd_limit() -> None:
    """Raise this process's open-file limit to its hard limit (``ulimit -Hn``): the processes
    it starts inherit it (a server or a generator holds one descriptor per socket)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def fresh_sqlite(database_url: str) -> None:
    """Delete the SQLite file (and its journals) behind ``database_url``, if it is one."""
    if not database_url.startswith("sqlite"):
        return
    path = database_url.partition(":///")[2]
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(path + suffix).unlink(missing_ok=True)


def fresh_postgres(database_url: str) -> None:
    """Drop and recreate the PostgreSQL database of ``database_url`` (asyncpg, via the
    ``postgres`` maintenance database of the same server), then upgrade it to the newest
    Alembic revision, so several workers do not race to migrate it."""
    import asyncio

    import asyncpg

    from app.db.session import make_engine, migrate

    plain = database_url.replace("postgresql+asyncpg://", "postgresql://", 1)
    server, _, name = plain.rpartition("/")

    async def recreate() -> None:
        connection = await asyncpg.connect(f"{server}/postgres")
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()
        engine = make_engine(database_url)
        await migrate(engine)
        await engine.dispose()

    asyncio.run(recreate())


def refuse_taken_port(port: int) -> None:
    """Raise unless 127.0.0.1:``port`` is free: a second benchmark started on the port of a
    running one would otherwise recreate that one's database under it and measure its server.

    Raises:
        RuntimeError: something accepts TCP connections on the port.
    """
    try:
        with socket.create_connection((HOST, port), timeout=0.5):
            pass
    except OSError:
        return
    raise RuntimeError(f"port {port} is in use (another benchmark's server?): pick --port")


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 60.0) -> None:
    """Return once 127.0.0.1:``port`` accepts TCP connections.

    Raises:
        RuntimeError: the process exited first, or ``timeout`` seconds passed.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with status {process.returncode}")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"server did not listen on port {port} within {timeout} s")


def start(spec: ServerSpec, log_path: str | None = None, fresh: bool = True
          ) -> subprocess.Popen:
    """Start the server of ``spec`` and return its process once it listens.

    With ``fresh`` the database is recreated empty first (SQLite file, or PostgreSQL database
    migrated to head); without it the server starts on the database as it is (a restart).
    Its output goes to ``log_path`` (appended to when not ``fresh``; or nowhere). It may open
    as many files as the hard limit allows (``raise_fd_limit``).
    """
    raise_fd_limit()
    refuse_taken_port(spec.port)
    if fresh and spec.database_url.startswith("postgresql"):
        fresh_postgres(spec.database_url)
    if fresh:
        fresh_sqlite(spec.database_url)
    out = open(log_path, "w" if fresh else "a") if log_path else subprocess.DEVNULL
    process = subprocess.Popen(spec.command(), cwd=ROOT, env=spec.environment(),
                               stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_port(spec.port, process)
    except RuntimeError:
        stop(process)
        raise
    return process


def stop(process: subprocess.Popen, timeout: float = 20.0) -> None:
    """Stop ``process`` (SIGINT, so uvicorn shuts down and cProfile writes; SIGKILL if stuck)."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
