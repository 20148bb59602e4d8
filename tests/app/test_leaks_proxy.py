"""The server as ``make run`` starts it (docs/security.md §3, "Proxy headers and frame size").

uvicorn trusts ``X-Forwarded-For`` from 127.0.0.1 unless told otherwise, so a client on the
same host (or behind a proxy on it) could rotate that header for a fresh budget of log-ins
(``LOGINS_PER_MINUTE`` = 10 per address) and websockets (``max_connections_per_ip`` = 32).
``make run`` now passes ``--no-proxy-headers`` unless ``ARENA_FORWARDED_ALLOW_IPS`` names the
proxies, and ``--ws-max-size 65536``. These tests run the exact command ``make -n run`` prints.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from app.api.accounts import LOGINS_PER_MINUTE
from app.settings import Settings
from tests.conftest import free_port
from tests.waiting import wait_until_sync

ROOT = Path(__file__).resolve().parents[2]


def make_run_command(**env: str) -> list[str]:
    """Return the uvicorn command ``make -n run`` prints (with ``env`` added)."""
    environ = {k: v for k, v in os.environ.items() if k != "ARENA_FORWARDED_ALLOW_IPS"}
    out = subprocess.run(["make", "-n", "run"], cwd=ROOT, env={**environ, **env},
                         capture_output=True, text=True, check=True).stdout
    return shlex.split(next(line for line in out.splitlines() if "uvicorn" in line))


def test_make_run_trusts_no_proxy_by_default_and_the_configured_one_otherwise():
    command = make_run_command()
    assert command[command.index("--ws-max-size") + 1] == "65536"
    assert "--no-proxy-headers" in command and "--proxy-headers" not in command
    proxied = make_run_command(ARENA_FORWARDED_ALLOW_IPS="10.0.0.5")
    assert proxied[proxied.index("--forwarded-allow-ips") + 1] == "10.0.0.5"
    assert "--proxy-headers" in proxied and "--no-proxy-headers" not in proxied


@pytest.fixture(scope="module")
def make_run_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start the app the way ``make run`` does (own port, temp SQLite); yield its URL."""
    port = free_port()
    command = make_run_command()
    command[0] = sys.executable
    command[command.index("--port") + 1] = str(port)
    db = tmp_path_factory.mktemp("makerun") / "arena.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{db}"}
    env.pop("REDIS_URL", None)
    log = open(db.parent / "server.log", "wb")
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        if process.poll() is not None:
            raise RuntimeError((db.parent / "server.log").read_text())
        try:
            return httpx.get(f"{base}/api/games", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until_sync(answers, "the server's first answer", timeout=15, every=0.05)
        yield base
    finally:
        process.terminate()
        process.wait(10)
        log.close()


async def test_rotating_forwarded_for_does_not_reset_the_login_limit(make_run_server):
    # Sent at once: the limit is taken before the (slow, argon2) password check, and a token
    # refills only every 6 s (10 a minute), so exactly 10 get through to a 401.
    async with httpx.AsyncClient(base_url=make_run_server, timeout=30) as http:
        answers = await asyncio.gather(*(
            http.post("/api/login", json={"name": "nobody", "password": "wrong pass"},
                      headers={"X-Forwarded-For": f"10.9.0.{i}"})
            for i in range(LOGINS_PER_MINUTE + 2)))
    assert sorted(a.status_code for a in answers) == [401] * LOGINS_PER_MINUTE + [429, 429]


async def test_rotating_forwarded_for_does_not_reset_the_socket_limit(make_run_server):
    limit = Settings().max_connections_per_ip
    ws = make_run_server.replace("http://", "ws://") + "/ws/rooms/NOPE"
    sockets = []
    try:
        for i in range(limit):
            sockets.append(await websockets.connect(
                ws, additional_headers={"X-Forwarded-For": f"10.8.0.{i}"}))
        extra = await websockets.connect(ws, additional_headers={"X-Forwarded-For": "10.7.0.1"})
        sockets.append(extra)
        frame = json.loads(await asyncio.wait_for(extra.recv(), 5))
        assert (frame["type"], frame["code"]) == ("error", "too_many_connections")
    finally:
        for socket in sockets:
            await socket.close()


async def test_a_frame_over_64_kib_is_closed_before_it_is_read(make_run_server):
    ws = make_run_server.replace("http://", "ws://") + "/ws/rooms/NOPE"
    async with websockets.connect(ws, max_size=None) as socket:
        await socket.send("x" * (64 * 1024 + 1))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), 5)
    assert closed.value.rcvd.code == 1009
