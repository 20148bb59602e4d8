"""Alembic: upgrade an empty SQLite and an empty PostgreSQL database to head, use it, downgrade.

The PostgreSQL test creates and drops its own uniquely named database.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from app.db import repositories as repo
from app.db.session import alembic_config, make_engine, make_sessionmaker, migrate
from tests.conftest import fresh_postgres_database

TABLES = {"players", "rooms", "room_seats", "matches", "match_seats", "match_actions",
          "rc_sets", "ratings", "alembic_version",
          "player_tokens"}  # 0003_rooms_accounts: log-ins from other browsers
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def head_revision(url: str) -> str:
    """Return the one head revision of migrations/versions (several developers add some)."""
    from alembic.script import ScriptDirectory
    return ScriptDirectory.from_config(alembic_config(url)).get_current_head()


async def tables(engine) -> set[str]:
    async with engine.connect() as conn:
        return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))


async def round_trip(engine) -> None:
    """Store a player, room, match and actions; the log refuses a second action at one seq."""
    sessions = make_sessionmaker(engine)
    async with sessions() as session, session.begin():
        player = await repo.add_player(session, "Ann", "ab" * 32, NOW)
        room = await repo.add_room(session, "CODE1", "reverse_curse", {"format": "1v1"},
                                   player.id, NOW)
        match = await repo.add_match(session, room, "00" * 32, "cd" * 32, [(0, player.id)], NOW)
        await repo.add_action(session, match.id, 1, 0, {"type": "pass"}, False, NOW)
        await repo.add_rc_sets(session, match.id, [{"set": 1, "first_side": "UP", "field": [],
                                                    "result": -3, "position_after": -3}])
    async with sessions() as session:
        [action] = await repo.match_actions(session, match.id)
        assert (action.seq, action.action, action.at) == (1, {"type": "pass"}, NOW)
        [ladder_set] = await repo.rc_sets(session, match.id)
        assert (ladder_set.result, ladder_set.position_after) == (-3, -3)
    with pytest.raises(IntegrityError):
        async with sessions() as session, session.begin():
            await repo.add_action(session, match.id, 1, 0, {"type": "pass"}, False, NOW)


async def upgrade_use_downgrade(url: str) -> None:
    engine = make_engine(url)
    try:
        assert await tables(engine) == set()
        await migrate(engine)
        assert await tables(engine) == TABLES
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT version_num FROM alembic_version"))
                    ).scalar_one() == head_revision(url)
        await round_trip(engine)
        await migrate(engine, "base", down=True)
        assert await tables(engine) == {"alembic_version"}
        await migrate(engine)
        assert await tables(engine) == TABLES
    finally:
        await engine.dispose()


async def test_sqlite_upgrade_and_downgrade(tmp_path):
    await upgrade_use_downgrade(f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}")


async def test_processes_starting_together_on_a_new_sqlite_file_migrate_one_after_the_other(
        tmp_path):
    """Two servers started at once on one new SQLite file both upgrade it at start: one used
    to fail (``table players already exists``); the file lock makes the second find the
    database at head."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
    engines = [make_engine(url) for _ in range(2)]
    try:
        assert await asyncio.gather(*(migrate(engine) for engine in engines)) == [None, None]
        assert await tables(engines[1]) == TABLES
        async with engines[1].connect() as conn:
            assert (await conn.execute(text("SELECT version_num FROM alembic_version"))
                    ).scalar_one() == head_revision(url)
    finally:
        for engine in engines:
            await engine.dispose()
    assert (tmp_path / "shared.db.migrate-lock").exists()


@pytest.mark.postgres
async def test_postgresql_upgrade_and_downgrade(postgres_url):
    async with fresh_postgres_database(postgres_url, "arena_test") as url:
        await upgrade_use_downgrade(url)


async def test_the_bot_level_migration_gives_stored_bots_a_level_and_its_name(tmp_path):
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'bots.db'}")
    rows = [("Ann", None), ("Random bot", True), ("Greedy bot", True)]
    try:
        await migrate(engine, "0003_rooms_accounts")
        async with engine.begin() as conn:
            for index, (name, bot) in enumerate(rows):
                await conn.execute(text("INSERT INTO players (name, token_hash, created_at, bot) "
                                        "VALUES (:n, :t, :c, :b)"),
                                   {"n": name, "t": f"{index:064}", "c": NOW, "b": bot})
        await migrate(engine, "0004_bot_level")
        query = text("SELECT name, bot_level FROM players ORDER BY id")
        async with engine.connect() as conn:
            assert [tuple(r) for r in await conn.execute(query)] == [
                ("Ann", None), ("Easy bot", "easy"), ("Normal bot", "normal")]
        await migrate(engine, "0003_rooms_accounts", down=True)
        async with engine.connect() as conn:
            names = text("SELECT name FROM players ORDER BY id")
            assert [r[0] for r in await conn.execute(names)] == [name for name, _ in rows]
    finally:
        await engine.dispose()
