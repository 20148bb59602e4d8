"""The chaos run's servers and its faults: a private ``redis-server`` and N app processes on
one PostgreSQL database (``bench.servers``), a process ``kill -9``ed and restarted every few
seconds, Redis killed and restarted once.

Every process and file stays on 127.0.0.1 and under the given folder; ``Cluster.stop`` ends
every process this module started (by its own pid).
"""

from __future__ import annotations

import asyncio
import logging
import random
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench import servers

logger = logging.getLogger(__name__)


class RedisProcess:
    """A ``redis-server`` on ``port`` that keeps nothing (``--save ''``, no AOF): a restart
    loses every key and subscription, like a crash."""

    def __init__(self, port: int, folder: Path) -> None:
        self.port, self.folder = port, folder
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://{servers.HOST}:{self.port}/0"

    def start(self, timeout: float = 10.0) -> None:
        """Start it and return once it answers ``PING``.

        Raises:
            RuntimeError: ``redis-server``/``redis-cli`` missing, or no answer in ``timeout`` s.
        """
        if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
            raise RuntimeError("redis-server and redis-cli are needed")
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", servers.HOST, "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True,
                             text=True).stdout.strip() != "PONG":
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.kill()
                raise RuntimeError(f"redis-server on port {self.port} did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL it and reap it (nothing when it is not running)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


class Cluster:
    """``len(ports)`` app processes (``uvicorn app.main:app``) on one database and Redis.

    Args:
        ports: one TCP port per process; database_url: the PostgreSQL URL (recreated empty
        by ``start``); redis: the broker; env: extra settings of every process; folder: where
        each process's log goes (``server-<port>.log``, appended across restarts).
    """

    def __init__(self, ports: list[int], database_url: str, redis: RedisProcess,
                 env: dict[str, str], folder: Path) -> None:
        self.specs = [servers.ServerSpec("app", port, database_url, redis.url, env=env)
                      for port in ports]
        self.folder = folder
        self.processes: list[subprocess.Popen | None] = [None] * len(ports)

    @property
    def bases(self) -> list[str]:
        """The HTTP base URLs of the processes."""
        return [f"http://{servers.HOST}:{spec.port}" for spec in self.specs]

    def _log(self, index: int) -> str:
        return str(self.folder / f"server-{self.specs[index].port}.log")

    def start(self) -> None:
        """Recreate the database (migrated), then start every process (each once it listens;
        the logs begin empty)."""
        servers.fresh_postgres(self.specs[0].database_url)
        for index in range(len(self.specs)):
            Path(self._log(index)).unlink(missing_ok=True)
            self.restart(index)

    def restart(self, index: int) -> None:
        """Start process ``index`` on the database as it is; return once it listens."""
        self.processes[index] = servers.start(self.specs[index], self._log(index), fresh=False)

    def kill(self, index: int) -> None:
        """``kill -9`` process ``index`` and reap it."""
        process = self.processes[index]
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait(10)
        self.processes[index] = None

    def stop(self) -> None:
        """Stop every running process (SIGINT, then SIGKILL when stuck)."""
        for index, process in enumerate(self.processes):
            if process is not None:
                servers.stop(process)
            self.processes[index] = None

    async def ready(self, timeout: float = 60.0) -> None:
        """Return once every process answers ``/readyz`` with 200.

        Raises:
            RuntimeError: one did not within ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        for base in self.bases:
            if not await _until_ready(base, deadline - time.monotonic()):
                raise RuntimeError(f"{base} not ready within {timeout} s")

    async def ready_one(self, index: int, timeout: float) -> bool:
        """Return whether process ``index`` answered ``/readyz`` with 200 within ``timeout``
        seconds."""
        return await _until_ready(self.bases[index], timeout)


async def _until_ready(base: str, timeout: float) -> bool:
    """Return once ``base`` answers ``/readyz`` with 200 (``True``), or ``False`` after
    ``timeout`` seconds (polled every 0.2 s; the last answer is logged)."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    async with httpx.AsyncClient(timeout=5) as http:
        while True:
            try:
                answer = await http.get(f"{base}/readyz")
                if answer.status_code == 200:
                    return True
                last = answer.text
            except httpx.TransportError as exc:
                last = repr(exc)
            if time.monotonic() > deadline:
                logger.warning("%s not ready: %s", base, last)
                return False
            await asyncio.sleep(0.2)


@dataclass
class FaultPlan:
    """When faults happen, in seconds from the start of the play.

    Attributes:
        seconds: how long faults are injected (none starts after it).
        kill_every: mean seconds between two kills (each 0.8-1.2 × that after the last).
        redis_at: when Redis is killed; redis_down: seconds it stays down.
    """

    seconds: float
    kill_every: float
    redis_at: float
    redis_down: float


@dataclass
class FaultLog:
    """The faults injected: ``[{"at": s, "fault": ..., ...}]`` in order, and counters.

    ``starts`` holds, per restart after a kill, the seconds from the start until the process
    listened and until it answered ``/readyz`` with 200 (``None``: not within
    ``READY_SECONDS``); a start killed again before it was ready counts in
    ``killed_before_ready`` instead.
    """

    events: list[dict[str, Any]] = field(default_factory=list)
    kills: int = 0
    redis_restarts: int = 0
    restart_failures: int = 0
    starts: list[tuple[float, float | None]] = field(default_factory=list)
    killed_before_ready: int = 0
    timing: dict[int, asyncio.Task] = field(default_factory=dict)

    def killed(self, index: int) -> None:
        """Process ``index`` was killed: a start of it still timed is one killed before it
        was ready."""
        task = self.timing.pop(index, None)
        if task is not None and not task.done():
            task.cancel()
            self.killed_before_ready += 1

    def note(self, began: float, fault: str, **detail: Any) -> None:
        self.events.append({"at": round(time.monotonic() - began, 1), "fault": fault, **detail})


async def inject_faults(cluster: Cluster, redis: RedisProcess, plan: FaultPlan,
                        rng: random.Random, log: FaultLog) -> None:
    """Kill (SIGKILL) a random running process every ``plan.kill_every`` s or so and start it
    again at once (in the background: a start can take longer than the pace; at least one
    other process keeps listening), and kill Redis once at ``plan.redis_at`` for
    ``plan.redis_down`` s (once the starts under way are done), until ``plan.seconds``; return
    once every process runs again."""
    began = time.monotonic()
    next_kill = plan.kill_every * rng.uniform(0.8, 1.2)
    redis_done, starting = False, {}  # type: bool, dict[int, Any]
    while (elapsed := time.monotonic() - began) < plan.seconds:
        starting = {i: task for i, task in starting.items() if not task.done()}
        running = [i for i in range(len(cluster.specs)) if i not in starting]
        if not redis_done and elapsed >= plan.redis_at:
            await asyncio.gather(*starting.values())
            redis.kill()
            log.note(began, "redis_killed")
            await asyncio.sleep(plan.redis_down)
            await asyncio.to_thread(redis.start)
            log.note(began, "redis_started")
            log.redis_restarts += 1
            redis_done = True
        elif elapsed >= next_kill and len(running) >= 2:
            index = rng.choice(running)
            cluster.kill(index)
            log.killed(index)
            log.kills += 1
            log.note(began, "killed", port=cluster.specs[index].port)
            starting[index] = asyncio.create_task(_start_again(cluster, index, began, log))
            next_kill = elapsed + plan.kill_every * rng.uniform(0.8, 1.2)
        else:
            await asyncio.sleep(0.2)
    await asyncio.gather(*starting.values())
    await asyncio.gather(*log.timing.values())


#: Seconds a restarted process may take to answer ``/readyz`` with 200.
READY_SECONDS = 180.0


async def _start_again(cluster: Cluster, index: int, began: float, log: FaultLog,
                       tries: int = 10) -> None:
    """Start process ``index`` again and return once it listens (it counts as running from
    then on: it serves while it resumes its matches); a task of its own notes when it answers
    ``/readyz`` with 200 (``FaultLog.starts``). After a failed start try again a second later
    (at most ``tries`` times)."""
    port = cluster.specs[index].port
    for _ in range(tries):
        try:
            started = time.monotonic()
            await asyncio.to_thread(cluster.restart, index)
            listening = round(time.monotonic() - started, 1)
            log.note(began, "restarted", port=port, listen_s=listening)
            log.timing[index] = asyncio.create_task(
                _time_ready(cluster, index, started, listening, log))
            return
        except RuntimeError as failed:
            log.restart_failures += 1
            log.note(began, "restart_failed", port=port, error=str(failed))
            await asyncio.sleep(1.0)


async def _time_ready(cluster: Cluster, index: int, started: float, listening: float,
                      log: FaultLog) -> None:
    """Note ``(listening, seconds until /readyz 200 or None)`` of the start at ``started``."""
    ready = await cluster.ready_one(index, READY_SECONDS)
    log.starts.append((listening, round(time.monotonic() - started, 1) if ready else None))
