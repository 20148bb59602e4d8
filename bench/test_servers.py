"""bench.servers: a benchmark never starts on another one's port or database."""

from __future__ import annotations

import socket

import pytest

from bench import servers


def test_each_port_gets_its_own_sqlite_file() -> None:
    assert servers.ServerSpec("app", 8200).database_url == "sqlite+aiosqlite:////tmp/bench-8200.db"
    assert servers.ServerSpec("app", 8451).database_url == "sqlite+aiosqlite:////tmp/bench-8451.db"
    given = "postgresql+asyncpg://postgres@127.0.0.1:5432/bench_arena"
    assert servers.ServerSpec("app", 8200, given).database_url == given


def test_a_taken_port_is_refused_before_any_database_is_touched(tmp_path) -> None:
    taken = socket.socket()
    taken.bind((servers.HOST, 0))
    taken.listen()
    port = taken.getsockname()[1]
    database = tmp_path / "other.db"
    database.write_bytes(b"another benchmark's rows")
    spec = servers.ServerSpec("app", port, f"sqlite+aiosqlite:///{database}")
    try:
        with pytest.raises(RuntimeError, match=f"port {port} is in use"):
            servers.start(spec)
    finally:
        taken.close()
    assert database.read_bytes() == b"another benchmark's rows"


def test_a_free_port_passes() -> None:
    probe = socket.socket()
    probe.bind((servers.HOST, 0))
    port = probe.getsockname()[1]
    probe.close()
    servers.refuse_taken_port(port)  # raises if the port were taken
