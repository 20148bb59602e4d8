"""Database work per move with PostgreSQL + Redis and two server processes
(bench/HISTORY.md §5): the acting process stores the action without reading the log first (the
unique ``(match_id, seq)`` refuses it if another process stored that seq: then it reads the log
and tries again), and the other replays the step its version message carries without reading
the log either (unless a message was missed)."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from app.bus.base import Broker
from app.bus.memory import MemoryBroker
from app.db import repositories as repo
from app.db.session import make_engine, make_sessionmaker
from app.db.writer import GroupWriter
from app.main import create_app
from app.rooms.clocks import ManualClock
from app.rooms.errors import RoomError
from app.rooms.live_rooms import Follower, LiveRooms
from app.rooms.publisher import Publisher
from app.rooms.store import MatchStore
from app.settings import Settings
from tests.app.conftest import SEED, Arena, serve, shutdown
from tests.app.expect import assert_caught_up, catch_up
from tests.app.rc import Replay
from tests.conftest import fresh_postgres_database
from tests.waiting import wait_until

OPTIONS = {"monsters": False}
#: What one move costs the process that stored it: one transaction, one statement per table.
STORE = ["BEGIN", "INSERT match_actions", "UPDATE matches", "COMMIT"]


@pytest.fixture
async def database(postgres_url):
    """A fresh, uniquely named PostgreSQL database, dropped afterwards."""
    async with fresh_postgres_database(postgres_url, "arena_trips") as url:
        yield url


def kind(sql: str) -> str:
    """Return ``"<VERB> <table>"`` of a SQL statement (``"SELECT match_actions"``…)."""
    verb = sql.split(None, 1)[0].upper()
    table = re.search(r"\b(?:INTO|UPDATE|FROM)\s+(\w+)", sql, re.IGNORECASE)
    return f"{verb} {table.group(1) if table else '?'}"


@contextlib.contextmanager
def listening(engine: Engine, listeners: list[tuple[str, Callable[..., None]]],
              *writers: GroupWriter) -> Iterator[None]:
    """Attach the SQLAlchemy event ``listeners`` (``[(event name, fn)]``) to ``engine`` and to
    the own engines of ``writers`` (an SQLite file's group writer: ``app.db.writer``) for the
    block."""
    engines = [engine, *(w.threaded.engine() for w in writers if w.threaded is not None)]
    for made in engines:
        for name, fn in listeners:
            event.listen(made, name, fn)
    try:
        yield
    finally:
        for made in engines:
            for name, fn in listeners:
                event.remove(made, name, fn)


@contextlib.contextmanager
def database_work(app: Any) -> Iterator[list[str]]:
    """Record the transactions (``BEGIN``/``COMMIT``/``ROLLBACK``) and statements (``kind``)
    the app's database engines run inside the block (its async engine, and on an SQLite file
    the group writer's own: ``app.db.writer``), in order."""
    seen: list[str] = []
    listeners = [("before_cursor_execute", lambda _c, _k, sql, *_a: seen.append(kind(sql))),
                 *((name, lambda *_a, name=name: seen.append(name.upper()))
                   for name in ("begin", "commit", "rollback"))]
    arena = app.state.arena
    with listening(arena.engine.sync_engine, listeners, arena.service.store.writer):
        yield seen


async def reached(apps: list[Any], code: str, version: int) -> None:
    """Return once every app's match of room ``code`` is at ``version`` (a hidden answer sends
    the other process's sockets nothing, so the frames alone cannot tell)."""
    def there() -> bool:
        held = [app.state.arena.service.port(code).match() for app in apps]
        return all(match is not None and match.version == version for match in held)

    await wait_until(there, f"every process at version {version}")


async def heard_so_far(apps: list[Any]) -> None:
    """Return once every app has handled every room-channel message the apps posted before the
    call (a claim's ``room`` message heard late would read the room inside a measured move):
    each app posts a marker, and a subscriber gets one process's messages in the order it
    posted them, each handled before the next."""
    heard: list[set[int]] = [set() for _ in apps]
    for index, app in enumerate(apps):
        async def note(message: dict[str, Any], index: int = index) -> None:
            heard[index].add(message["from"])
        app.state.arena.service.publisher.on("test_marker", note)
    for index, app in enumerate(apps):
        app.state.arena.service.publisher.post({"room": None, "kind": "test_marker",
                                                "from": index})
    everyone = set(range(len(apps)))
    await wait_until(lambda: all(got == everyone for got in heard),
                     "every app heard every app's marker")


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_move_is_one_transaction_where_it_is_played_and_none_elsewhere(database,
                                                                              redis_url):
    clock = ManualClock()
    settings = Settings(database_url=database, redis_url=redis_url)
    apps = [create_app(settings, clock=clock, seed_source=lambda: SEED) for _ in range(2)]
    servers = [await serve(app) for app in apps]
    try:
        async with httpx.AsyncClient(base_url=servers[0][2], timeout=10) as http:
            one = Arena(servers[0][2], http, clock, None, None)
            two = Arena(servers[1][2], http, clock, None, None)
            ann, bob = await one.player("Ann"), await one.player("Bob")
            code = (await one.room(ann, OPTIONS))["code"]
            await one.sit(code, 0, ann)
            await one.sit(code, 1, bob)
            players = {0: await one.connect(code, ann["token"]),
                       1: await two.connect(code, bob["token"])}
            viewers = {**players, None: await two.connect(code)}
            await players[0].until_presence([0, 1], 1)
            await heard_so_far(apps)
            for app in apps:  # a room message heard after the greets left the Room JSON to
                await app.state.arena.service.port(code).room()  # read at its next use
            replay = Replay(OPTIONS, SEED)
            work = []
            for _ in range(6):  # both mulligans (simultaneous), then turns on both processes
                seat, action = replay.policy()
                with database_work(apps[0]) as on_one, database_work(apps[1]) as on_two:
                    await players[seat].act(action)
                    replay.apply(seat, action)
                    heard = await catch_up(viewers, replay.expect, local=False)
                    await reached(apps, code, replay.version)
                assert_caught_up(viewers, heard, replay.expect)
                work.append((on_one, on_two) if seat == 0 else (on_two, on_one))
            for client in viewers.values():
                await client.socket.close()
    finally:
        for server, task, _ in servers:
            await shutdown(server, task)
    assert work == [(STORE, [])] * 6


# --------------------------------------------------------------------------- the logic, on SQLite
# Two ``LiveRooms`` on one database stand for two processes; their broker only records what
# they publish (not the in-memory twin: with it a process is the only writer and never reads).

KEEP = {"type": "mulligan", "card": None}


class Recorder(Broker):
    """A broker that keeps what is published and delivers nothing."""

    def __init__(self) -> None:
        self.published: list[dict[str, Any]] = []

    def post(self, channel: str, message: dict[str, Any]) -> None:
        self.published.append(json.loads(json.dumps(message)))  # as Redis would carry it

    async def _add(self, channel: str, subscriber) -> None:
        raise NotImplementedError

    async def _remove(self, channel: str, subscriber) -> None:
        raise NotImplementedError


async def unread_room(code: str) -> dict[str, Any]:
    raise AssertionError("these processes have no socket: no Room JSON is read")


@contextlib.asynccontextmanager
async def processes(arena, count: int = 2, broker: type[Broker] = Recorder):
    """Yield ``(code, match_id, [(rooms, broker)…], sql)``: a started match, ``count``
    ``LiveRooms`` holding it at version 0 and ``sql``, which records (``kind``) every statement
    they run inside its block. They share an engine of their own on the arena's database, so
    the arena's own work (its bot driver reading the new room…) is not recorded."""
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    room = await arena.room(ann, OPTIONS)
    code = room["code"]
    await arena.sit(code, 0, ann)
    await arena.sit(code, 1, bob)
    engine = make_engine(f"sqlite+aiosqlite:///{arena.db_path}")
    sessions, catalog = make_sessionmaker(engine), arena.app.state.arena.service.catalog
    made = [(LiveRooms(MatchStore(sessions, catalog, arena.clock, 30.0), Publisher(made),
                       arena.clock, unread_room), made)
            for made in (broker() for _ in range(count))]

    @contextlib.contextmanager
    def sql() -> Iterator[list[str]]:
        seen: list[str] = []
        with listening(engine.sync_engine, [("before_cursor_execute", lambda _c, _k, statement,
                                             *_a: seen.append(kind(statement)))],
                       *(rooms._store.writer for rooms, _ in made)):
            yield seen

    try:
        for rooms, _ in made:
            await rooms.sync(code, None, None, hold=True)
        yield code, rooms.held(code).match_id, made, sql
    finally:
        for rooms, _ in made:
            await rooms.stop()
            await rooms._store.writer.close()
        await engine.dispose()


def prompt(rooms: LiveRooms, code: str, seat: int) -> str:
    return rooms.held(code).prompt_id(seat)


async def log_of(arena, code: str, match_id: int) -> list[tuple[int, int, dict, float]]:
    """Return ``(seq, seat, action, at)`` of every stored action of the room's match."""
    async with arena.app.state.arena.sessions() as session:
        rows = await repo.match_actions(session, match_id)
    return [(row.seq, row.seat, row.action, row.at.timestamp()) for row in rows]


def held(rooms: LiveRooms, code: str) -> tuple:
    """Return what is held of the room's match: version, public version, dump, prompts,
    deadlines."""
    live = rooms.held(code)
    return (live.version, live.public_version, live.game.dump(live.state), live.prompts,
            live.deadlines)


async def test_the_version_message_carries_the_step_and_the_other_replays_it_unread(arena):
    arena.clock.advance(0.1234567)  # not a whole microsecond: the log keeps microseconds
    async with processes(arena, 3) as (code, match_id, [(one, sent), (two, _), (three, _)],
                                       sql):
        await one.act(code, 0, prompt(one, code, 0), KEEP)
        [(seq, seat, action, at)] = await log_of(arena, code, match_id)
        assert sent.published == [{"room": code, "kind": "version", "match": match_id,
                                   "version": 1, "step": {"match": match_id, "seat": 0,
                                                          "action": KEEP, "at": at,
                                                          "timeout": False}}]
        assert at != arena.clock.now() and at == round(arena.clock.now(), 6)
        message = sent.published[0]
        with sql() as seen:
            await two.sync(code, match_id, 1, message["step"])
            await two.sync(code, match_id, 1, message["step"])  # a second subscriber: nothing
        assert seen == []
        await three.sync(code, match_id, 1)  # no step in the message: read from the log
        assert held(two, code) == held(three, code)
        assert held(two, code)[0] == 1


async def test_a_forfeit_reaches_the_other_processes_as_a_forfeit(arena):
    """The room resigns seat 0 on one process: the version message's step carries the forfeit
    (a plain step has no such key), the process replaying that step and the one reading the log
    hold the same forfeit, and the match summary tells it."""
    timeouts = {"reason": "timeouts", "timeouts": 3}
    async with processes(arena, 3) as (code, match_id, [(one, sent), (two, _), (three, _)],
                                       _sql):
        for rooms in (one, two, three):  # followed: a finished match is kept
            rooms.enter(code).followers.add(Follower(None))
        await one.act(code, 0, prompt(one, code, 0), KEEP)
        assert await one.forfeit(code, 0, timeouts) is not None
        assert await one.forfeit(code, 0, timeouts) is None  # over: nothing more is stored
        plain, forfeited = (message["step"] for message in sent.published)
        assert "forfeit" not in plain
        assert (forfeited["seat"], forfeited["action"], forfeited["forfeit"]) == (
            0, {"type": "resign"}, timeouts)
        await two.sync(code, match_id, 1, plain)
        await two.sync(code, match_id, 2, forfeited)
        await three.sync(code, match_id, 2)  # no step in the message: read from the log
        for rooms in (one, two, three):
            assert rooms.held(code).over
            assert rooms.held(code).forfeit == {"seat": 0, **timeouts}
        assert held(two, code) == held(three, code) == held(one, code)
    detail = (await arena.http.get(f"/api/matches/{match_id}")).json()
    assert detail["forfeit"] == {"seat": 0, "step": 2, **timeouts}


async def test_a_gap_another_match_or_no_step_reads_the_log(arena):
    async with processes(arena, 4) as (code, match_id,
                                       [(one, sent), (two, _), (three, _), (four, _)], sql):
        await one.act(code, 0, prompt(one, code, 0), KEEP)
        await one.act(code, 1, prompt(one, code, 1), KEEP)
        first, second = (message["step"] for message in sent.published)
        with sql() as seen:
            await two.sync(code, match_id, 2, second)  # version 1 was not heard (yet): a gap
        assert seen == ["SELECT match_actions"] and held(two, code)[0] == 2
        with sql() as seen:
            await two.sync(code, match_id, 1, first)  # heard late: already applied
        assert seen == []
        with sql() as seen:
            await three.sync(code, match_id, 1, {**first, "match": first["match"] + 1})
            await four.sync(code, match_id, 1)
        assert seen == ["SELECT match_actions"] * 2
        assert held(three, code) == held(four, code) == held(two, code)  # the log has both


async def test_an_act_on_a_stale_match_is_refused_by_the_log_and_stored_next(arena):
    """The simultaneous mulligan on two processes: the second store finds seq 1 taken, its
    process reads the log, checks again and stores seq 2 (no read before the first try)."""
    async with processes(arena) as (code, match_id, [(one, _), (two, sent)], sql):
        bob = prompt(two, code, 1)
        await one.act(code, 0, prompt(one, code, 0), KEEP)
        with sql() as seen:
            await two.act(code, 1, bob, KEEP)
        assert seen == ["INSERT match_actions", "SELECT match_actions", "INSERT match_actions",
                        "UPDATE matches"]
        assert [(seq, seat, action) for seq, seat, action, _ in
                await log_of(arena, code, match_id)] == [(1, 0, KEEP), (2, 1, KEEP)]
        assert [m["version"] for m in sent.published] == [2]
        assert sent.published[0]["step"]["seat"] == 1


#: The stored head of a room (``repositories.room_head``): one statement, which ``kind`` names
#: after the first table it reads (its sub-query's).
HEAD = "SELECT match_actions"


async def test_a_refusal_on_a_stale_match_is_checked_again_on_the_log(arena):
    async with processes(arena) as (code, match_id, [(one, _), (two, _)], sql):
        await one.act(code, 0, prompt(one, code, 0), KEEP)
        await one.act(code, 1, prompt(one, code, 1), KEEP)
        live = one.held(code)
        seat = min(live.prompts)
        action = live.legal[seat][0]
        with sql() as seen:  # two holds version 0: that prompt is not current there yet
            await two.act(code, seat, live.prompt_id(seat), action)
        assert seen == [HEAD, "SELECT match_actions", "INSERT match_actions", "UPDATE matches"]
        assert [(seq, s) for seq, s, _, _ in await log_of(arena, code, match_id)] == [
            (1, 0), (2, 1), (3, seat)]
        with sql() as seen:  # nothing newer in the log: the refusal stands
            with pytest.raises(RoomError) as refused:
                await two.act(code, seat, live.prompt_id(seat), action)
        assert (refused.value.code, seen) == ("already_played", [HEAD])


async def test_the_only_writer_refuses_without_reading_the_log(arena):
    async with processes(arena, 1, MemoryBroker) as (code, _, [(rooms, _)], sql):
        with sql() as seen:
            with pytest.raises(RoomError) as refused:
                await rooms.act(code, 0, "1.0.0000000000000000", KEEP)
    assert (refused.value.code, seen) == ("stale_prompt", [])


class Remembering(MemoryBroker):
    """The in-memory broker, keeping what is published (nobody else subscribes here)."""

    def __init__(self) -> None:
        super().__init__()
        self.published: list[dict[str, Any]] = []

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.published.append(message)
        await super().publish(channel, message)


async def test_the_only_process_publishes_no_version_message(arena):
    """A single-process broker reaches nobody the room core has not told already."""
    async with processes(arena, 1, Remembering) as (code, _, [(rooms, sent)], _):
        await rooms.act(code, 0, prompt(rooms, code, 0), KEEP)
        assert rooms.held(code).version == 1
    assert sent.published == []
