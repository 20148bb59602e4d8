"""Group commit (``app.db.writer``, bench/HISTORY.md §3): the stores queued while a transaction
runs share the next one; nobody hears of a store before its COMMIT; a failed batch is retried
job by job, so only the bad job fails."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError

from app.db import repositories as repo
from app.db.session import make_engine, make_sessionmaker
from app.db.writer import BUSY_JOBS, GroupWriter, Job
from tests.app.test_round_trips import listening
from tests.conftest import fresh_postgres_database
from tests.waiting import wait_until

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@contextlib.asynccontextmanager
async def database(url: str, matches: int = 2):
    """Yield ``(sessions, [match ids])`` of a migrated database holding ``matches`` matches."""
    from app.db.session import migrate

    engine = make_engine(url)
    await migrate(engine)
    sessions = make_sessionmaker(engine)
    async with sessions() as session, session.begin():
        player = await repo.add_player(session, "Ann", "ab" * 32, NOW)
        ids = []
        for n in range(matches):
            room = await repo.add_room(session, f"CODE{n}", "reverse_curse", {}, player.id, NOW)
            ids.append((await repo.add_match(session, room, "00" * 32, "cd" * 32,
                                             [(0, player.id)], NOW)).id)
    try:
        yield sessions, ids
    finally:
        await engine.dispose()


@pytest.fixture
async def sqlite(tmp_path: Path):
    async with database(f"sqlite+aiosqlite:///{tmp_path / 'writer.db'}") as made:
        yield made


def engines(sessions, writer: GroupWriter | None = None) -> list:
    """Return the engine behind ``sessions`` and, on an SQLite file, ``writer``'s own."""
    made = [sessions.kw["bind"].sync_engine]
    if writer is not None and writer.threaded is not None:
        made.append(writer.threaded.engine())
    return made


@contextlib.contextmanager
def transactions(sessions, writer: GroupWriter | None = None):
    """Record ``"begin"``, ``"commit"`` and ``"rollback"`` of the engines of ``engines``."""
    seen: list[str] = []
    listeners = [(name, lambda *_a, name=name: seen.append(name))
                 for name in ("begin", "commit", "rollback")]
    with contextlib.ExitStack() as stack:
        for engine in engines(sessions, writer):
            stack.enter_context(listening(engine, listeners))
        yield seen


def action(match_id: int, seq: int, done: list | None = None) -> Job:
    """A job storing action ``seq`` of the match; it appends ``(match_id, seq)`` to ``done``
    when committed."""
    write = repo.action_write(match_id, seq, 0, {"type": "pass", "n": seq}, False, NOW)
    deadlines = repo.match_write(match_id, deadlines={"0": float(seq)})
    committed = None if done is None else (lambda: done.append((match_id, seq)))
    return Job([write, deadlines], None, committed)


async def stored(sessions, match_id: int) -> list[int]:
    async with sessions() as session:
        return [row.seq for row in await repo.match_actions(session, match_id)]


async def deadlines(sessions, match_id: int) -> dict:
    async with sessions() as session:
        return (await repo.get_match(session, match_id)).deadlines


class Gate:
    """A ``then`` that holds its transaction open until ``release``."""

    def __init__(self) -> None:
        self.entered, self.open = asyncio.Event(), asyncio.Event()

    async def __call__(self, session) -> None:
        await session.execute(text("SELECT 1"))  # the transaction has begun
        self.entered.set()
        await self.open.wait()


async def test_the_stores_queued_meanwhile_share_one_transaction(sqlite):
    sessions, (match, _) = sqlite
    writer, gate, done = GroupWriter(sessions), Gate(), []
    with transactions(sessions, writer) as seen:
        first = asyncio.create_task(writer.write(Job([], gate)))
        await gate.entered.wait()
        rest = [asyncio.create_task(writer.write(action(match, seq, done)))
                for seq in range(1, 6)]
        # each task queues its job at its first step
        await wait_until(lambda: writer.queued() == 5, "five jobs queued", every=0)
        assert done == [] and not any(task.done() for task in rest)
        gate.open.set()
        await asyncio.gather(first, *rest)
    assert seen == ["begin", "commit", "begin", "commit"]
    assert done == [(match, 1), (match, 2), (match, 3), (match, 4), (match, 5)]
    assert await stored(sessions, match) == [1, 2, 3, 4, 5]
    assert await deadlines(sessions, match) == {"0": 5.0}


async def test_an_idle_writer_never_delays_a_store(sqlite):
    """A commit delay applies to a writer in steady use only: a store that finds it idle
    commits at once (here the delay is a minute)."""
    sessions, (match, _) = sqlite
    writer, done = GroupWriter(sessions, delay=60.0), []
    for seq in (1, 2):
        await asyncio.wait_for(writer.write(action(match, seq, done)), 10)
    assert done == [(match, 1), (match, 2)]


async def test_a_busy_writer_waits_its_delay_and_commits_the_stores_of_it_together(sqlite):
    """After a second that brought ``BUSY_JOBS`` stores, a store waits ``delay`` before its
    transaction begins, and those written meanwhile share that transaction."""
    sessions, (match, _) = sqlite
    writer, done, steady = GroupWriter(sessions, delay=0.2), [], BUSY_JOBS + 10
    for seq in range(1, steady + 1):  # one second's worth of steady use
        await writer.write(action(match, seq, done))
    await asyncio.sleep(1.0)
    with transactions(sessions, writer) as seen:
        tasks = [asyncio.create_task(writer.write(action(match, steady + 1, done)))]
        await wait_until(lambda: writer.queued() == 1, "the first store queued", every=0)
        tasks += [asyncio.create_task(writer.write(action(match, seq, done)))
                  for seq in (steady + 2, steady + 3)]
        await asyncio.gather(*tasks)
    assert seen == ["begin", "commit"]
    assert done[-3:] == [(match, steady + n) for n in (1, 2, 3)]
    assert await stored(sessions, match) == list(range(1, steady + 4))


async def test_nobody_hears_of_a_store_before_its_commit(sqlite):
    sessions, (match, _) = sqlite
    writer, gate, done = GroupWriter(sessions), Gate(), []
    tasks = [asyncio.create_task(writer.write(action(match, 1, done))),
             asyncio.create_task(writer.write(Job([], gate)))]
    await gate.entered.wait()  # the insert of seq 1 ran; its transaction is still open
    assert done == [] and not tasks[0].done()
    gate.open.set()
    await asyncio.gather(*tasks)
    assert done == [(match, 1)]


async def test_a_crash_before_the_commit_acknowledges_nothing(sqlite):
    sessions, (match, other) = sqlite
    writer, gate, done = GroupWriter(sessions), Gate(), []
    tasks = [asyncio.create_task(writer.write(action(match, 1, done))),
             asyncio.create_task(writer.write(Job([], gate))),
             asyncio.create_task(writer.write(action(other, 1, done)))]
    await gate.entered.wait()
    queued = asyncio.create_task(writer.write(action(match, 2, done)))  # for the next batch
    await wait_until(lambda: writer.queued() == 1, "the next batch's job queued", every=0)
    writer._task.cancel()  # the process dies in the middle of the transaction
    results = await asyncio.gather(*tasks, queued, return_exceptions=True)
    assert [type(r) for r in results] == [asyncio.CancelledError] * 4
    assert done == []
    assert (await stored(sessions, match), await stored(sessions, other)) == ([], [])
    assert await deadlines(sessions, match) == {}
    await writer.write(action(match, 1, done))  # the writer starts again on the next store
    assert done == [(match, 1)]


async def test_a_clash_in_a_batch_fails_only_its_own_store(sqlite):
    sessions, (match, _) = sqlite
    async with sessions() as session, session.begin():  # another process stored seq 2
        await repo.add_action(session, match, 2, 1, {"type": "theirs"}, False, NOW)
    writer, gate, done = GroupWriter(sessions), Gate(), []
    first = asyncio.create_task(writer.write(Job([], gate)))
    await gate.entered.wait()
    with transactions(sessions, writer) as seen:
        batch = [asyncio.create_task(writer.write(action(match, seq, done))) for seq in (1, 2, 3)]
        await wait_until(lambda: writer.queued() == 3, "the batch queued", every=0)
        gate.open.set()
        results = await asyncio.gather(first, *batch, return_exceptions=True)
    assert results[:2] == [None, None] and results[3] is None
    assert isinstance(results[2], IntegrityError)
    # gate's commit; the batch of three rolled back; then each alone: 1 ok, 2 refused, 3 ok
    assert seen == ["commit", "begin", "rollback", "begin", "commit", "begin", "rollback",
                    "begin", "commit"]
    assert done == [(match, 1), (match, 3)]
    async with sessions() as session:
        rows = await repo.match_actions(session, match)
    assert [(r.seq, r.action) for r in rows] == [
        (1, {"type": "pass", "n": 1}), (2, {"type": "theirs"}), (3, {"type": "pass", "n": 3})]
    assert await deadlines(sessions, match) == {"0": 3.0}


async def test_a_failing_finish_fails_only_its_store(sqlite):
    sessions, (match, other) = sqlite

    async def broken(session) -> None:
        await session.execute(text("SELECT * FROM no_such_table"))

    writer, gate, done = GroupWriter(sessions), Gate(), []
    first = asyncio.create_task(writer.write(Job([], gate)))
    await gate.entered.wait()
    bad = Job(action(other, 1).writes, broken, lambda: done.append("bad"))
    tasks = [asyncio.create_task(writer.write(job))
             for job in (action(match, 1, done), bad, action(match, 2, done))]
    await wait_until(lambda: writer.queued() == 3, "the batch queued", every=0)
    gate.open.set()
    results = await asyncio.gather(first, *tasks, return_exceptions=True)
    assert [type(r).__name__ for r in results] == ["NoneType", "NoneType", "OperationalError",
                                                   "NoneType"]
    assert done == [(match, 1), (match, 2)]
    assert (await stored(sessions, match), await stored(sessions, other)) == ([1, 2], [])


async def test_on_sqlite_a_batch_is_one_statement_per_table(sqlite):
    """The sqlite3 module hands the GIL over at every row of an ``executemany``: a batch of
    stores is one multi-row INSERT per table and one UPDATE of the deadlines."""
    sessions, (one, two) = sqlite
    writer, done, seen = GroupWriter(sessions), [], []
    sets = repo.rc_set_writes(one, [{"set": n, "first_side": "UP", "field": [{"card": n}],
                                     "result": n, "position_after": -n} for n in (1, 2)])
    engine = writer.threaded.engine()

    def record(_conn, _cursor, statement, params, *_args) -> None:
        seen.append((statement.split()[0], len(params)))

    event.listen(engine, "before_cursor_execute", record)
    try:
        await asyncio.gather(writer.write(action(one, 1, done)), writer.write(action(two, 1, done)),
                             writer.write(Job(action(one, 2).writes[:1] + sets)))
    finally:
        event.remove(engine, "before_cursor_execute", record)
    # 3 actions x 7 columns (forfeit NULL); 2 sets x 6 columns; one JSON object of both deadlines
    assert seen == [("INSERT", 21), ("UPDATE", 1), ("INSERT", 12)]
    assert (await stored(sessions, one), await stored(sessions, two)) == ([1, 2], [1])
    assert (await deadlines(sessions, one), await deadlines(sessions, two)) == (
        {"0": 1.0}, {"0": 1.0})
    async with sessions() as session:
        rows = await repo.rc_sets(session, one)
    assert [(r.set_no, r.field, r.position_after) for r in rows] == [
        (1, [{"card": 1}], -1), (2, [{"card": 2}], -2)]


async def test_stores_of_different_rooms_interleave(sqlite):
    sessions, (one, two) = sqlite
    writer, done = GroupWriter(sessions), []

    async def play(match: int, moves: int) -> None:
        for seq in range(1, moves + 1):  # each room stores its next move after the last one
            await writer.write(action(match, seq, done))

    with transactions(sessions, writer) as seen:
        await asyncio.gather(play(one, 6), play(two, 4))
    assert await stored(sessions, one) == [1, 2, 3, 4, 5, 6]
    assert await stored(sessions, two) == [1, 2, 3, 4]
    assert [seq for m, seq in done if m == one] == [1, 2, 3, 4, 5, 6]
    assert [seq for m, seq in done if m == two] == [1, 2, 3, 4]
    # both rooms' first moves in the first transaction, then one batch per round
    assert done[:2] == [(one, 1), (two, 1)]
    assert seen.count("commit") == 6 and "rollback" not in seen
    assert (await deadlines(sessions, one), await deadlines(sessions, two)) == (
        {"0": 6.0}, {"0": 4.0})


async def test_the_batches_are_bounded(sqlite):
    sessions, (match, _) = sqlite
    writer, done = GroupWriter(sessions, max_batch=2), []
    with transactions(sessions, writer) as seen:
        await asyncio.gather(*(writer.write(action(match, seq, done)) for seq in range(1, 6)))
    assert seen.count("commit") == 3  # 2 + 2 + 1
    assert await stored(sessions, match) == [1, 2, 3, 4, 5]


async def test_postgresql_batches_and_retries_alike(postgres_url):
    async with fresh_postgres_database(postgres_url, "writer") as url, \
            database(url) as (sessions, (match, other)):
        async with sessions() as session, session.begin():
            await repo.add_action(session, match, 2, 1, {"type": "theirs"}, False, NOW)
        writer, gate, done = GroupWriter(sessions), Gate(), []
        first = asyncio.create_task(writer.write(Job([], gate)))
        await gate.entered.wait()
        with transactions(sessions, writer) as seen:
            batch = [asyncio.create_task(writer.write(job)) for job in (
                action(match, 1, done), action(other, 1, done), action(match, 2, done))]
            await wait_until(lambda: writer.queued() == 3, "the batch queued", every=0)
            gate.open.set()
            results = await asyncio.gather(first, *batch, return_exceptions=True)
        assert results[:3] == [None, None, None] and isinstance(results[3], IntegrityError)
        assert seen.count("commit") == 3 and seen.count("rollback") == 2
        assert done == [(match, 1), (other, 1)]
        assert (await stored(sessions, match), await stored(sessions, other)) == ([1, 2], [1])
        # no clash: one transaction for the whole batch
        with transactions(sessions, writer) as seen:
            await asyncio.gather(*(writer.write(action(other, seq, done)) for seq in (2, 3, 4)))
        assert seen == ["begin", "commit"]
        assert await stored(sessions, other) == [1, 2, 3, 4]


async def test_on_an_sqlite_file_a_cancel_before_the_commit_stores_nothing(sqlite, tmp_path):
    """The batch runs in the writer's own thread: a cancel that comes while the thread waits
    for the database rolls its transaction back, and nothing is acknowledged."""
    sessions, (match, _) = sqlite
    writer, done = GroupWriter(sessions), []
    assert writer.threaded is not None
    other = sqlite3.connect(tmp_path / "writer.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the database
    try:
        task = asyncio.create_task(writer.write(action(match, 1, done)))
        await wait_until(lambda: writer.threaded._thread is not None,
                         "the batch sent to the writer's thread")
        writer._task.cancel()
        for _ in range(5):  # the writer hears of the cancel
            await asyncio.sleep(0)
    finally:
        other.execute("ROLLBACK")
        other.close()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert done == [] and await stored(sessions, match) == []
    await writer.write(action(match, 1, done))
    assert done == [(match, 1)] and await stored(sessions, match) == [1]
    await writer.close()


async def test_a_cancel_before_the_writer_began_fails_the_queued_stores(sqlite):
    sessions, (match, _) = sqlite
    writer, done = GroupWriter(sessions), []
    task = asyncio.create_task(writer.write(action(match, 1, done)))
    # the write's first step starts the writer: seen one loop step later, before it ran
    await wait_until(lambda: writer._task is not None, "the writer started", every=0)
    writer._task.cancel()  # before its first step
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(task, 10)
    assert done == [] and await stored(sessions, match) == []


async def test_in_memory_sqlite_has_no_thread_of_its_own():
    engine = make_engine("sqlite+aiosqlite:///:memory:")
    try:
        assert GroupWriter(make_sessionmaker(engine)).threaded is None
    finally:
        await engine.dispose()


async def test_on_an_sqlite_file_close_ends_the_thread_and_a_later_store_starts_it_again(sqlite):
    sessions, (match, _) = sqlite
    writer, done = GroupWriter(sessions), []
    await writer.write(action(match, 1, done))
    thread = writer.threaded._thread
    assert thread is not None and thread.is_alive()
    await writer.close()
    thread.join(10)  # it ended right after answering the close
    assert not thread.is_alive() and writer.threaded._thread is None
    await writer.write(action(match, 2, done))
    assert done == [(match, 1), (match, 2)] and await stored(sessions, match) == [1, 2]
    assert writer.threaded._thread is not thread
    await writer.close()
