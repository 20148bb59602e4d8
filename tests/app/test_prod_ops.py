"""Operations: ``/healthz``, ``/readyz``, Prometheus ``/metrics`` and structured logs.

These run in-process (SQLite, in-memory broker, ``ManualClock``) except the Redis readiness
test, which stops its own private ``redis-server``.
"""

from __future__ import annotations

import json
import logging

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.logs import JsonFormatter, TextFormatter, formatter
from app.main import create_app
from app.rooms.clocks import ManualClock
from app.settings import Settings
from tests.app.conftest import auth, serve, shutdown
from tests.app.prod import redis_server  # noqa: F401

KEEP = {"type": "mulligan", "card": None}


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """Return ``{(sample name, sorted labels): value}`` of a Prometheus exposition."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def test_healthz_and_readyz_of_a_running_app(arena):
    assert (await arena.http.get("/healthz")).json() == {"status": "ok"}
    answer = await arena.http.get("/readyz")
    assert (answer.status_code, answer.json()) == (
        200, {"status": "ready", "checks": {"database": "ok"}})


async def test_readyz_is_503_until_the_app_has_started(tmp_path):
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'a.db'}"))
    transport = httpx.ASGITransport(app=app)  # no lifespan: never started
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        answer = await http.get("/readyz")
        assert (answer.status_code, answer.json()) == (
            503, {"status": "not_started", "checks": {}})
        assert (await http.get("/healthz")).status_code == 200


def test_each_app_has_its_own_metrics_registry(tmp_path):
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'a.db'}")
    first, second = create_app(settings), create_app(settings)  # no duplicate-metric error
    first.state.metrics.error("stale_prompt", "ws")
    assert samples(first.state.metrics.exposition().decode())[
        ("arena_errors_total", (("channel", "ws"), ("code", "stale_prompt")))] == 1
    assert ("arena_errors_total", (("channel", "ws"), ("code", "stale_prompt"))) not in \
        samples(second.state.metrics.exposition().decode())


async def test_metrics_count_rooms_connections_actions_latency_and_errors(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, {"monsters": False}))["code"]
    await arena.sit(code, 0, ann)
    await arena.sit(code, 1, bob)
    ann_ws, bob_ws = await arena.connect(code, ann["token"]), await arena.connect(code, bob["token"])
    await arena.connect(code)  # a spectator
    await ann_ws.act(KEEP)
    await ann_ws.next("update")
    await ann_ws.act(KEEP, prompt=ann_ws.welcome["prompt"])  # answered already
    assert (await ann_ws.next("error"))["code"] == "already_played"
    assert await bob_ws.settle() == []  # Ann's answer is hidden from Bob: no update
    await bob_ws.act(KEEP)
    await bob_ws.until_version(1)  # the window closed: public version 1
    assert (await arena.http.get("/api/rooms/NOPE", headers=auth(ann))).status_code == 404
    arena.clock.advance(31)  # the first player's turn clock (30 s) runs out
    await bob_ws.until_version(2)
    answer = await arena.http.get("/metrics")
    assert answer.headers["content-type"].startswith("text/plain")
    got = samples(answer.text)
    rc = (("game", "reverse_curse"),)
    assert got[("arena_actions_applied_total", (("by", "player"), *rc))] == 2
    assert got[("arena_actions_applied_total", (("by", "clock"), *rc))] == 1
    assert got[("arena_action_latency_seconds_count", rc)] == 2  # clocks have no latency
    assert got[("arena_errors_total", (("channel", "ws"), ("code", "already_played")))] == 1
    assert got[("arena_errors_total", (("channel", "http"), ("code", "room_not_found")))] == 1
    assert got[("arena_open_rooms", ())] == 1
    assert got[("arena_live_matches", ())] == 1
    assert got[("arena_connections", (("role", "player"),))] == 2
    assert got[("arena_connections", (("role", "spectator"),))] == 1


@pytest.mark.redis
async def test_readyz_is_503_while_redis_is_unreachable(tmp_path, redis_server):
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'a.db'}",
                        redis_url=redis_server.url)
    server, task, base = await serve(create_app(settings, clock=ManualClock()))
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as http:
            assert (await http.get("/readyz")).json() == {
                "status": "ready", "checks": {"database": "ok", "redis": "ok"}}
            redis_server.stop()
            answer = await http.get("/readyz")
            assert answer.status_code == 503
            assert answer.json()["status"] == "unavailable"
            assert answer.json()["checks"]["database"] == "ok"
            assert answer.json()["checks"]["redis"].startswith("ConnectionError")
            assert (await http.get("/healthz")).status_code == 200  # the process is up
    finally:
        redis_server.start()  # so the broker's subscription can end cleanly
        await shutdown(server, task)


def test_json_log_lines_carry_the_extra_fields():
    record = logging.makeLogRecord({
        "name": "app.rooms.play", "levelname": "INFO", "levelno": logging.INFO,
        "msg": "action applied to %s", "args": ("ABC",), "created": 0.0,
        "room": "ABC", "seq": 7})
    assert json.loads(JsonFormatter().format(record)) == {
        "ts": "1970-01-01T00:00:00+00:00", "level": "info", "logger": "app.rooms.play",
        "msg": "action applied to ABC", "room": "ABC", "seq": 7}
    assert TextFormatter().format(record).endswith(
        " INFO app.rooms.play: action applied to ABC room=ABC seq=7")
    with pytest.raises(ValueError):
        formatter("xml")
