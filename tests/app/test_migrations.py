"""Alembic: upgrade an empty SQLite and an empty PostgreSQL database to head, use it, downgrade.

The PostgreSQL tests create and drop their own uniquely named database (``database_url``).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from app.db import bots_repo
from app.db import repositories as repo
from app.db.session import alembic_config, make_engine, make_sessionmaker, migrate

TABLES = {"players", "rooms", "room_seats", "matches", "match_seats", "match_actions",
          "rc_sets", "ratings", "alembic_version",
          "player_tokens",  # 0003_rooms_accounts: log-ins from other browsers
          "match_takeovers"}  # 0005_match_takeovers: seats taken over mid-match
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
#: A resign the room played for a seat whose clock played three decisions in a row.
FORFEIT = {"reason": "timeouts", "timeouts": 3}


def head_revision(url: str) -> str:
    """Return the one head revision of migrations/versions (several developers add some)."""
    from alembic.script import ScriptDirectory
    return ScriptDirectory.from_config(alembic_config(url)).get_current_head()


async def tables(engine) -> set[str]:
    async with engine.connect() as conn:
        return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))


async def round_trip(engine) -> None:
    """Store a player, room, match and actions, and a bot taking seat 0 over after the first
    action; the log refuses a second action at one seq, a seat refuses a second takeover."""
    sessions = make_sessionmaker(engine)
    async with sessions() as session, session.begin():
        player = await repo.add_player(session, "Ann", "ab" * 32, NOW)
        room = await repo.add_room(session, "CODE1", "reverse_curse", {"format": "1v1"},
                                   player.id, NOW)
        await repo.add_room_seat(session, room.id, 0, player.id)
        match = await repo.add_match(session, room, "00" * 32, "cd" * 32, [(0, player.id)], NOW)
        await repo.add_action(session, match.id, 1, 0, {"type": "pass"}, False, NOW)
        await repo.add_rc_sets(session, match.id, [{"set": 1, "first_side": "UP", "field": [],
                                                    "result": -3, "position_after": -3}])
        bot = await bots_repo.add_bot_player(session, "Normal bot", "normal", "ef" * 32, NOW)
        assert await repo.take_over_seat(session, room.id, match.id, 0, bot.id) == 2
        await repo.add_action(session, match.id, 2, 0, {"type": "resign"}, False, NOW, FORFEIT)
    async with sessions() as session:
        first, resign = await repo.match_actions(session, match.id)
        assert (first.seq, first.action, first.at, first.forfeit) == (
            1, {"type": "pass"}, NOW, None)
        assert (resign.action, resign.forfeit) == ({"type": "resign"}, FORFEIT)
        assert {match_id: row.to_json() for match_id, row in
                (await repo.match_forfeits(session, [match.id, match.id + 1])).items()} == {
            match.id: {"seat": 0, "step": 2, **FORFEIT}}
        [ladder_set] = await repo.rc_sets(session, match.id)
        assert (ladder_set.result, ladder_set.position_after) == (-3, -3)
        assert [row.player_id for row in (await repo.match_seats(session, [match.id]))[match.id]
                ] == [player.id]
        assert await repo.seat_holders(session, match.id) == {0: bot.id}
        assert [row.player_id for row in (await repo.room_seats(session, [room.id]))[room.id]
                ] == [bot.id]
    with pytest.raises(IntegrityError):
        async with sessions() as session, session.begin():
            await repo.add_action(session, match.id, 1, 0, {"type": "pass"}, False, NOW)
    with pytest.raises(IntegrityError):
        async with sessions() as session, session.begin():
            await repo.take_over_seat(session, room.id, match.id, 0, player.id)


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


async def test_upgrade_use_and_downgrade(database_url):
    await upgrade_use_downgrade(database_url)


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


async def test_the_takeover_migration_downgrades_a_takeover_into_match_seats(database_url):
    await downgrade_takeovers(database_url)


async def downgrade_takeovers(url: str) -> None:
    """Revision 0004's code reads the holder of a seat from ``match_seats``: downgrading 0005
    gives a seat taken over to the player who took it over (the bot), the others keep theirs."""
    engine = make_engine(url)
    seats = text("SELECT match_id, seat, player_id FROM match_seats ORDER BY match_id, seat")
    try:
        await migrate(engine)
        sessions = make_sessionmaker(engine)
        async with sessions() as session, session.begin():
            ann = await repo.add_player(session, "Ann", "ab" * 32, NOW)
            bob = await repo.add_player(session, "Bob", "cd" * 32, NOW)
            room = await repo.add_room(session, "CODE1", "numgr", {}, ann.id, NOW)
            first = await repo.add_match(session, room, "00" * 32, "cd" * 32,
                                         [(0, ann.id), (1, bob.id)], NOW)
            second = await repo.add_match(session, room, "11" * 32, "ef" * 32,
                                          [(0, ann.id), (1, bob.id)], NOW)
            for seq in (1, 2, 3):
                await repo.add_action(session, second.id, seq, seq % 2, {"type": "x"}, True, NOW)
            bot = await bots_repo.add_bot_player(session, "Normal bot", "normal", "ef" * 32,
                                                 NOW)
            assert await repo.take_over_seat(session, room.id, second.id, 1, bot.id) == 4
        async with engine.connect() as conn:
            assert [tuple(r) for r in await conn.execute(seats)] == [
                (first.id, 0, ann.id), (first.id, 1, bob.id),
                (second.id, 0, ann.id), (second.id, 1, bob.id)]
        await migrate(engine, "0004_bot_level", down=True)
        assert "match_takeovers" not in await tables(engine)
        async with engine.connect() as conn:
            assert [tuple(r) for r in await conn.execute(seats)] == [
                (first.id, 0, ann.id), (first.id, 1, bob.id),
                (second.id, 0, ann.id), (second.id, 1, bot.id)]
    finally:
        await engine.dispose()


async def test_the_forfeit_migration_keeps_the_log_both_ways(database_url):
    await forfeit_both_ways(database_url)


async def forfeit_both_ways(url: str) -> None:
    """0006 adds ``match_actions.forfeit`` (``NULL`` on the actions stored before: a resign
    stored then stays a resign) and its partial index; downgrading drops both and keeps every
    action, still one per ``(match_id, seq)``."""
    engine = make_engine(url)
    log = text("SELECT match_id, seq, seat, action, timeout FROM match_actions ORDER BY seq")
    try:
        await migrate(engine, "0005_match_takeovers")
        sessions = make_sessionmaker(engine)
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO players (id, name, token_hash, created_at) VALUES (1, 'Ann', :t, :n)"),
                {"t": "ab" * 32, "n": NOW})
            await conn.execute(text(
                "INSERT INTO rooms (id, code, game, options, status, creator_id, created_at) "
                "VALUES (1, 'CODE1', 'numgr', '{}', 'finished', 1, :n)"), {"n": NOW})
            await conn.execute(text(
                "INSERT INTO matches (id, room_id, game, options, seed_commitment, seed, status, "
                "deadlines, started_at) VALUES (1, 1, 'numgr', '{}', :c, :s, 'finished', '{}', :n)"),
                {"c": "cd" * 32, "s": "00" * 32, "n": NOW})
            for seq, action, timeout in ((1, '{"type": "x"}', True), (2, '{"type": "resign"}', False)):
                await conn.execute(text(
                    "INSERT INTO match_actions (match_id, seq, seat, action, timeout, at) "
                    "VALUES (1, :q, 0, :a, :o, :n)"), {"q": seq, "a": action, "o": timeout, "n": NOW})
        async with engine.connect() as conn:
            before = [tuple(row) for row in await conn.execute(log)]
        await migrate(engine)
        async with engine.connect() as conn:
            indexes = await conn.run_sync(lambda c: inspect(c).get_indexes("match_actions"))
        assert "ix_match_actions_forfeit" in {index["name"] for index in indexes}
        async with sessions() as session:
            assert [row.forfeit for row in await repo.match_actions(session, 1)] == [None, None]
            assert await repo.match_forfeits(session, [1]) == {}
        async with sessions() as session, session.begin():
            await repo.add_action(session, 1, 3, 1, {"type": "resign"}, False, NOW, FORFEIT)
        async with sessions() as session:
            assert {k: v.to_json() for k, v in (await repo.match_forfeits(session, [1])).items()
                    } == {1: {"seat": 1, "step": 3, **FORFEIT}}
        await migrate(engine, "0005_match_takeovers", down=True)
        async with engine.connect() as conn:
            columns = await conn.run_sync(lambda c: inspect(c).get_columns("match_actions"))
            after = [tuple(row) for row in await conn.execute(log)]
        assert "forfeit" not in {column["name"] for column in columns}
        assert after[:2] == before and after[2][:3] == (1, 3, 1)
        with pytest.raises(IntegrityError):
            async with engine.begin() as conn:
                await conn.execute(text(
                    "INSERT INTO match_actions (match_id, seq, seat, action, timeout, at) "
                    "VALUES (1, 3, 0, '{}', false, :n)"), {"n": NOW})
    finally:
        await engine.dispose()
