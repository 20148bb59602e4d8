"""Requests leave no SQLAlchemy statement in a garbage cycle: a statement built per call with an
``IN`` list leaves its ``BindParameter`` in one (its memoized ``_cloned_set`` holds itself), and
every 2,000 requests that leave cycles start a full collection (``app.runtime.Collector``), so
``app.db.repositories`` builds such statements once, with expanding ``bindparam``s."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from app.db import ratings_repo
from app.db import repositories as repo
from app.db.session import make_engine, make_sessionmaker, migrate
from tests.app.conftest import auth, running_arena
from tests.app.rc_play import match_id


def statement_cycles() -> dict[str, int]:
    """Collect; return ``{type name: count}`` of the SQLAlchemy objects found in cycles (the
    test's httpx and websockets clients leave garbage of their own: not counted)."""
    gc.collect()
    found = Counter(type(o).__name__ for o in gc.garbage
                    if type(o).__module__.startswith("sqlalchemy"))
    gc.garbage.clear()
    return dict(found)


async def cycles_of(step: Callable[[], Awaitable[Any]]) -> dict[str, int]:
    """Run ``step`` with the collector stopped; return ``statement_cycles`` of what it left."""
    gc.collect()
    gc.disable()  # only the test's own collections: a cycle cannot be freed unseen
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        await step()
        return statement_cycles()
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.fixture
async def arena(db_path):
    """A running server whose collector never freezes during the test (a frozen cycle would
    not be found by the test's collections)."""
    async with running_arena(db_path, gc_freeze_seconds=3600) as running:
        yield running


async def test_lobby_seats_matches_and_rematch_leave_no_statement_in_a_cycle(arena):
    alice, bob = await arena.player("Alice"), await arena.player("Bob")
    code = (await arena.room(alice))["code"]
    assert (await arena.sit(code, 0, alice)).status_code == 200
    for _ in range(2):  # warm: the first of each statement compiles it once (cached, kept)
        await arena.http.get("/api/rooms", params={"status": "open"})
        await arena.http.get("/api/matches")

    async def ok(answer: Any) -> None:
        assert (await answer).status_code == 200

    async def resign() -> None:
        clients = {0: await arena.connect(code, alice["token"])}
        client = clients[0]
        await client.act({"type": "resign"}, prompt=client.last["prompt"] or "-")
        await client.until_version(client.last["version"] + 1)
        found["match"] = match_id(clients)

    found: dict[str, Any] = {}
    left = {
        "lobby": await cycles_of(lambda: ok(arena.http.get("/api/rooms",
                                                           params={"status": "open"}))),
        "seat that starts the match": await cycles_of(lambda: ok(arena.sit(code, 1, bob))),
        "matches": await cycles_of(lambda: ok(arena.http.get("/api/matches"))),
        "resign": await cycles_of(resign),
        "match": await cycles_of(lambda: ok(arena.http.get(f"/api/matches/{found['match']}"))),
        "player": await cycles_of(lambda: ok(arena.http.get(f"/api/players/{alice['id']}"))),
        "my rooms": await cycles_of(lambda: ok(arena.http.get("/api/account/rooms",
                                                              headers=auth(alice)))),
        "rematch asked": await cycles_of(lambda: ok(arena.http.post(
            f"/api/rooms/{code}/rematch", headers=auth(alice)))),
        "rematch started": await cycles_of(lambda: ok(arena.http.post(
            f"/api/rooms/{code}/rematch", headers=auth(bob)))),
    }
    assert left == dict.fromkeys(left, {})
    assert (await arena.http.get(f"/api/rooms/{code}")).json()["match_id"] != found["match"]


async def test_statements_built_once_answer_an_empty_list_with_nothing(database_url):
    engine = make_engine(database_url)
    try:
        await migrate(engine)
        async with make_sessionmaker(engine)() as session:
            assert await repo.rooms_by_codes(session, []) == []
            assert await repo.list_rooms(session, []) == []
            assert await repo.list_rooms(session, [], before_id=5) == []
            assert await repo.room_seats(session, []) == {}
            assert await repo.latest_match_ids(session, []) == {}
            assert await repo.matches_by_id(session, []) == {}
            assert await repo.match_seats(session, []) == {}
            assert await repo.match_takeovers(session, []) == {}
            assert await repo.match_forfeits(session, []) == {}
            assert await repo.room_codes(session, []) == {}
            assert await repo.actions_of(session, []) == {}
            assert await repo.public_room_codes(session, []) == {}
            assert await repo.seated_rooms(session, 1, []) == []
            assert await repo.bot_player_ids(session, []) == set()
            assert await ratings_repo.ratings_of(session, "reverse_curse", []) == {}
    finally:
        await engine.dispose()
