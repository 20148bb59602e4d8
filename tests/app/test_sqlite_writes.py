"""The group writer's statements on the sqlite3 cursor (``app.db.sqlite_writes``) store exactly
what the same Core writes store through SQLAlchemy (``repositories.execute_writes``): the same
rows, byte for byte, read back the same through the ORM."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import bindparam, event, inspect, make_url, select
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError

from app.db import repositories as repo
from app.db.models import Match, MatchAction, RcSet
from app.db.session import make_sync_sqlite_engine
from app.db.sqlite_writes import SqliteWrites
from tests.app.test_group_commit import NOW, database

AT = datetime(2026, 12, 6, 3, 4, 5, 678901, tzinfo=UTC)


def writes(one: int, two: int) -> list[repo.Write]:
    """Writes of every shape the server stores: actions (JSON with text, numbers, nesting,
    ``None``; a timeout; a naive and an aware time), resolved sets, deadlines of two matches
    (one ``UPDATE … FROM json_each``), and a match's end (status, outcome, time)."""
    return [
        repo.action_write(one, 1, 0, {"type": "play", "card": "+2", "to": [1, 2.5, None],
                                      "note": "é ✓ \"q\""}, False, AT),
        repo.action_write(two, 1, 1, {"type": "pass"}, True, AT + timedelta(microseconds=1)),
        repo.action_write(one, 2, 1, {}, False, datetime(2026, 12, 6, 3, 4, 5)),
        *repo.rc_set_writes(one, [{"set": n, "first_side": "UP", "field": [{"card": n, "x": None}],
                                   "result": -n, "position_after": n * 10} for n in (1, 2, 3)]),
        repo.match_write(one, deadlines={"0": 1765000040.5, "1": 1e-7}),
        repo.match_write(two, deadlines={}),
    ]


def ending(match_id: int) -> list[repo.Write]:
    """A match's last action, a resign the room played for the seat (a forfeit), and its end
    (one statement per row: a lone match update)."""
    return [repo.action_write(match_id, 3, 0, {"type": "resign"}, False, AT,
                              {"reason": "timeouts", "timeouts": 3}),
            repo.match_write(match_id, deadlines={}, status="finished",
                             outcome={"winners": [0], "reason": "resign"}, finished_at=AT)]


def raw_rows(path: Path) -> dict[str, list[tuple]]:
    """Return every row of the written tables as SQLite holds them (no SQLAlchemy)."""
    connection = sqlite3.connect(path)
    try:
        return {table: connection.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
                for table in ("match_actions", "rc_sets", "matches")}
    finally:
        connection.close()


async def orm_rows(sessions) -> dict[str, list[dict]]:
    """Return every row of the written tables read through the ORM, as column dicts."""
    out = {}
    async with sessions() as session:
        for model in (MatchAction, RcSet, Match):
            rows = (await session.scalars(select(model).order_by(model.id))).all()
            out[model.__tablename__] = [
                {c.key: getattr(row, c.key) for c in inspect(model).column_attrs} for row in rows]
    return out


def fast(path: Path, batches: list[list[repo.Write]], page: int | None = None) -> list[str]:
    """Run each batch in its own transaction through ``SqliteWrites`` on the file at ``path``;
    return the SQL of the statements run (``page``: rows per multi-row insert)."""
    engine = make_sync_sqlite_engine(make_url(f"sqlite+aiosqlite:///{path}"))
    if page is not None:
        engine.dialect.insertmanyvalues_page_size = page
    statements, seen = SqliteWrites(engine.dialect), []
    event.listen(engine, "before_cursor_execute",
                 lambda _c, _k, sql, *_a: seen.append(sql))
    try:
        with engine.connect() as connection:
            for batch in batches:
                with connection.begin():
                    statements.execute(connection, batch)
    finally:
        engine.dispose()
    return seen


async def slow(sessions, batches: list[list[repo.Write]]) -> None:
    """Run each batch in its own transaction through SQLAlchemy (``execute_writes``)."""
    for batch in batches:
        async with sessions() as session, session.begin():
            await repo.execute_writes(session, batch)


async def test_the_driver_statements_store_what_sqlalchemy_stores(tmp_path: Path):
    async with database(f"sqlite+aiosqlite:///{tmp_path / 'slow.db'}") as (sessions, ids), \
            database(f"sqlite+aiosqlite:///{tmp_path / 'fast.db'}") as (fast_sessions, same):
        assert ids == same
        batches = [writes(*ids), ending(ids[1])]
        await slow(sessions, batches)
        seen = fast(tmp_path / "fast.db", batches)
        assert raw_rows(tmp_path / "fast.db") == raw_rows(tmp_path / "slow.db")
        assert await orm_rows(fast_sessions) == await orm_rows(sessions)
        read = await orm_rows(fast_sessions)
        # No forfeit is SQL NULL (not JSON null: the partial index leaves those rows out).
        assert [row[-1] for row in raw_rows(tmp_path / "fast.db")["match_actions"]] == [
            None, None, None, '{"reason": "timeouts", "timeouts": 3}']
    assert [sql.split()[:3] for sql in seen] == [
        ["INSERT", "INTO", "match_actions"], ["INSERT", "INTO", "rc_sets"],
        ["UPDATE", "matches", "SET"], ["INSERT", "INTO", "match_actions"],
        ["UPDATE", "matches", "SET"]]
    assert [sql.count("), (") + 1 for sql in seen[:2]] == [3, 3]
    first, _, naive = read["match_actions"][:3]
    assert (first["action"], first["at"], first["timeout"]) == (
        {"type": "play", "card": "+2", "to": [1, 2.5, None], "note": "é ✓ \"q\""}, AT, False)
    assert naive["at"] == datetime(2026, 12, 6, 3, 4, 5, tzinfo=UTC)
    assert [a["forfeit"] for a in read["match_actions"]] == [
        None, None, None, {"reason": "timeouts", "timeouts": 3}]
    assert [m["deadlines"] for m in read["matches"]] == [
        {"0": 1765000040.5, "1": 1e-7}, {}]
    assert (read["matches"][1]["status"], read["matches"][1]["outcome"],
            read["matches"][1]["finished_at"]) == (
        "finished", {"winners": [0], "reason": "resign"}, AT)
    assert [(s["set_no"], s["field"], s["result"]) for s in read["rc_sets"]] == [
        (1, [{"card": 1, "x": None}], -1), (2, [{"card": 2, "x": None}], -2),
        (3, [{"card": 3, "x": None}], -3)]


async def test_a_long_insert_is_split_into_pages_of_rows(tmp_path: Path):
    async with database(f"sqlite+aiosqlite:///{tmp_path / 'slow.db'}", 1) as (sessions, [one]), \
            database(f"sqlite+aiosqlite:///{tmp_path / 'fast.db'}", 1):
        batch = [repo.action_write(one, seq, seq % 2, {"n": seq}, False, NOW)
                 for seq in range(1, 8)]
        await slow(sessions, [batch])
        seen = fast(tmp_path / "fast.db", [batch], page=3)
        assert raw_rows(tmp_path / "fast.db") == raw_rows(tmp_path / "slow.db")
    assert [sql.count("), (") + 1 for sql in seen] == [3, 3, 1]


async def test_a_statement_needing_a_default_runs_through_sqlalchemy(tmp_path: Path):
    """A row without ``timeout`` (a column with a Python default) is not the driver's to fill
    in: that statement goes through ``Connection.execute``, in the same transaction."""
    async with database(f"sqlite+aiosqlite:///{tmp_path / 'slow.db'}", 1) as (sessions, [one]), \
            database(f"sqlite+aiosqlite:///{tmp_path / 'fast.db'}", 1):
        insert, row = repo.action_write(one, 1, 0, {"n": 1}, False, AT)
        batch = [(insert, {k: v for k, v in row.items() if k != "timeout"}),
                 repo.match_write(one, deadlines={"0": 2.0})]
        await slow(sessions, [batch])
        seen = fast(tmp_path / "fast.db", [batch])
        assert raw_rows(tmp_path / "fast.db") == raw_rows(tmp_path / "slow.db")
    assert [sql.split()[0] for sql in seen] == ["INSERT", "UPDATE"]
    assert raw_rows(tmp_path / "fast.db")["match_actions"][0][5] == 0  # timeout: the default


async def test_a_taken_seq_raises_sqlalchemys_integrity_error(tmp_path: Path):
    async with database(f"sqlite+aiosqlite:///{tmp_path / 'fast.db'}", 1) as (sessions, [one]):
        fast(tmp_path / "fast.db", [[repo.action_write(one, 1, 0, {"n": 1}, False, AT)]])
        with pytest.raises(IntegrityError, match="UNIQUE constraint failed"):
            fast(tmp_path / "fast.db", [[repo.action_write(one, 2, 0, {"n": 2}, False, AT),
                                         repo.action_write(one, 1, 0, {"n": 3}, False, AT)]])
        async with sessions() as session:
            assert [(r.seq, r.action) for r in await repo.match_actions(session, one)] == [
                (1, {"n": 1})]


@pytest.mark.parametrize("rows", [2, 5, 17])
async def test_an_insert_of_n_rows_is_the_sql_sqlalchemy_compiles_for_n_rows(tmp_path: Path, rows):
    async with database(f"sqlite+aiosqlite:///{tmp_path / 'fast.db'}", 1) as (sessions, [one]):
        batch = [repo.action_write(one, seq, 0, {"n": seq}, False, AT)
                 for seq in range(1, rows + 1)]
        seen = fast(tmp_path / "fast.db", [batch])
        insert, first = batch[0]
        several = insert.values([{key: bindparam(f"{key}_{n}") for key in first}
                                 for n in range(rows)])
        expected = several.compile(dialect=sqlite.dialect()).string
        async with sessions() as session:
            assert [r.seq for r in await repo.match_actions(session, one)] == list(
                range(1, rows + 1))
    assert seen == [expected]
