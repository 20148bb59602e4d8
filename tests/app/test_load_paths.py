"""The server's hot paths after the issue 10 fixes (bench/RESULTS.md section 3): SQLite in WAL
mode, one SQLite writer at a time, the room served from memory, no log read before an act with
one process, one query per websocket greet."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.db import repositories as repo
from app.db.session import _sqlite_pragmas, is_sqlite, make_engine, make_sessionmaker
from app.realtime.fanout import Fanout, update_frame
from app.rooms import service as service_module
from app.rooms.lifecycle import RoomStatus
from tests.app.conftest import SEED
from tests.app.rc import Replay
from tests.app.test_ws_errors import NO_MONSTERS, play_until_deployment, started


@contextlib.contextmanager
def statements(arena):
    """Collect the SQL text of every statement the arena's engine runs inside the block."""
    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    engine = arena.app.state.arena.engine.sync_engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


async def test_sqlite_connections_use_the_write_ahead_log(tmp_path: Path):
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'wal.db'}")
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
            # SQLite numbers synchronous OFF=0, NORMAL=1, FULL=2 (its default), EXTRA=3
            assert (await conn.execute(text("PRAGMA synchronous"))).scalar() == 1
        assert is_sqlite(make_sessionmaker(engine))
    finally:
        await engine.dispose()


async def test_postgresql_engines_are_left_alone():
    engine = make_engine("postgresql+asyncpg://nobody@127.0.0.1:1/none")  # never connects
    try:
        assert not event.contains(engine.sync_engine, "connect", _sqlite_pragmas)
        assert not is_sqlite(make_sessionmaker(engine))
        assert not is_sqlite(async_sessionmaker())  # no engine bound: not SQLite either
    finally:
        await engine.dispose()


async def test_the_room_is_read_once_then_served_from_memory(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, NO_MONSTERS))["code"]
    await arena.sit(code, 0, ann)
    service = arena.app.state.arena.service
    first = await service.cached_room(code)
    with statements(arena) as seen:
        again = await service.cached_room(code)
        seat = await service.seat_of(code, ann["id"])
        other = await service.seat_of(code, bob["id"])
    assert seen == []
    assert again is first
    assert (seat, other) == (0, None)
    # a seat claimed through the service is seen at once (and the match starts)
    await arena.sit(code, 1, bob)
    now = await service.cached_room(code)
    assert [s["player_id"] for s in now["seats"]] == [ann["id"], bob["id"]]
    assert now["status"] == "playing" and now["match_id"] is not None
    assert await service.seat_of(code, bob["id"]) == 1


async def test_a_room_message_from_the_broker_drops_the_copy(arena):
    """A change made elsewhere (another process, the idle sweep) is announced by a ``room``
    message; the hub makes the service read the room again."""
    ann = await arena.player("Ann")
    code = (await arena.room(ann, NO_MONSTERS))["code"]
    service = arena.app.state.arena.service
    assert (await service.cached_room(code))["status"] == "open"
    async with arena.app.state.arena.sessions() as session, session.begin():
        room = await repo.room_by_code(session, code)
        await repo.set_room_status(session, room.id, RoomStatus.ABANDONED.value)
    assert (await service.cached_room(code))["status"] == "open"  # not told yet
    await arena.app.state.arena.broker.publish("arena.rooms", {"room": code, "kind": "room"})
    for _ in range(200):
        if (await service.cached_room(code))["status"] == "abandoned":
            break
        await asyncio.sleep(0.01)
    assert (await service.cached_room(code))["status"] == "abandoned"


async def test_one_process_acts_without_reading_the_log(arena):
    room, clients = await started(arena)
    service = arena.app.state.arena.service
    await service.cached_room(room["code"])
    with statements(arena) as seen:
        await clients[0].act({"type": "mulligan", "card": None})
        await clients[0].until_version(1)
    reads = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    # the insert of the action and the update of the match's deadlines; no SELECT at all
    # (neither the log before the act nor the room for the fan-out)
    assert reads == []
    assert [s.split()[0].upper() for s in seen] == ["INSERT", "UPDATE"]
    assert await arena.action_count(room["match_id"]) == 1


async def test_the_finish_shows_in_the_room_without_a_room_message(arena):
    room, clients = await started(arena)
    service = arena.app.state.arena.service
    assert (await service.cached_room(room["code"]))["status"] == "playing"
    await clients[0].send({"type": "act", "prompt": None, "action": {"type": "resign"}})
    frames = await clients[2].until_version(1)
    assert frames[-1]["room"]["status"] == "finished"
    assert (await service.cached_room(room["code"]))["status"] == "finished"


async def test_a_greet_asks_the_database_only_for_the_token(arena):
    room, clients = await started(arena)
    ann = arena.players[0]
    with statements(arena) as seen:
        again = await arena.connect(room["code"], ann["token"])
    assert again.welcome["seat"] == 0
    assert len(seen) == 1 and "player_tokens" in seen[0]


async def test_sqlite_stores_wait_for_the_one_writer(arena):
    room, clients = await started(arena)
    runner = arena.app.state.arena.service.matches
    lock = runner._write_lock
    await lock.acquire()  # another store of this process is writing
    try:
        await clients[0].act({"type": "mulligan", "card": None})
        await asyncio.sleep(0.2)
        assert await arena.action_count(room["match_id"]) == 0
        assert runner.version(room["code"]) == 0  # not applied before it is stored
    finally:
        lock.release()
    await clients[0].until_version(1)
    assert await arena.action_count(room["match_id"]) == 1


def test_a_fanout_renders_and_encodes_once_per_viewer_and_version():
    calls = []

    def render(viewer, since):
        calls.append((viewer, since))
        return {"version": 3, "view": {"seat": viewer}, "prompt": None, "legal": [],
                "deadline": 130, "clocks": {"0": 130}, "events": [{"kind": "k", "data": {}}]}

    room = {"code": "ABCDEFGH", "status": "playing"}
    fanout = Fanout(render, room)
    spectators = [fanout.update_text(None, 2) for _ in range(3)]
    assert spectators[0] is spectators[1] is spectators[2]
    fanout.update_text(0, 2)
    fanout.update_text(None, 1)  # a socket that missed a version gets its own events
    assert calls == [(None, 2), (0, 2), (None, 1)]
    assert spectators[0] == (
        '{"type":"update","version":3,"view":{"seat":null},"prompt":null,"legal":[],'
        '"deadline":130,"clocks":{"0":130},"events":[{"kind":"k","data":{}}],'
        '"room":{"code":"ABCDEFGH","status":"playing"}}')
    assert json.loads(spectators[0]) == update_frame(render(None, 2), room)


async def test_spectators_of_one_version_get_the_same_frame(arena):
    room, clients = await started(arena)
    other = await arena.connect(room["code"])
    replay = Replay(NO_MONSTERS, SEED)
    await play_until_deployment(clients, replay)
    await other.until_version(2)
    first, second = clients[2].last, other.last
    assert first == second
    assert first["type"] == "update" and first["version"] == 2
    assert first["view"] == replay.view(None)


async def test_the_room_copies_are_bounded(arena, monkeypatch):
    monkeypatch.setattr(service_module, "ROOM_CACHE_SIZE", 1)
    ann = await arena.player("Ann")
    first = (await arena.room(ann, NO_MONSTERS))["code"]
    second = (await arena.room(ann, NO_MONSTERS))["code"]
    service = arena.app.state.arena.service
    await service.cached_room(first)
    await service.cached_room(second)  # the only copy kept now
    with statements(arena) as seen:
        await service.cached_room(second)
    assert seen == []
    with statements(arena) as seen:
        await service.cached_room(first)  # read again: 3 queries (room, seats, match ids)
    assert len(seen) == 3
    service.forget_room(first)
    service.forget_room(second)  # past the bound: every room counts as forgotten here
    await service.cached_room(second)
    with statements(arena) as seen:
        assert (await service.cached_room(second))["code"] == second
    assert seen == []  # read after the forgets, so kept
