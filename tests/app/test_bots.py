"""Play vs computer on the server: bots seated by the room creator, playing
through the same room path as people (prompts, action log), matches with bots not rated.

The bots answer at once here (``bot_delay_min = bot_delay_max = 0``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from sqlalchemy import func, select

from app.db import repositories as repo
from app.db.models import Player, Rating
from app.rooms.bots import BOT_NAMES, BotDelay, level_of
from app.rooms.clocks import ManualClock
from tests.app.conftest import Arena, auth, running_arena

NUMGR_FAST = {"hp": 1}


@pytest.fixture
async def bot_arena(db_path) -> AsyncIterator[Arena]:
    """A running server whose bots answer without delay."""
    async with running_arena(db_path, bot_delay_min=0, bot_delay_max=0) as arena:
        yield arena


async def fill(arena: Arena, code: str, player: dict, level: str) -> httpx.Response:
    return await arena.http.post(f"/api/rooms/{code}/bots", json={"level": level},
                                 headers=auth(player))


async def finished_room(arena: Arena, code: str) -> dict:
    """Wait (at most 20 s) until room ``code`` is finished; return its JSON."""
    for _ in range(400):
        room = (await arena.http.get(f"/api/rooms/{code}")).json()
        if room["status"] == "finished":
            return room
        await asyncio.sleep(0.05)
    raise AssertionError(f"room {code} did not finish: {room}")


async def scalar(arena: Arena, query):
    async with arena.app.state.arena.sessions() as session:
        return await session.scalar(query)


async def test_bots_play_a_whole_match_logged_and_unrated(bot_arena):
    ann = await bot_arena.player("Ann")
    code = (await bot_arena.room(ann, NUMGR_FAST, game="numgr"))["code"]
    answer = await fill(bot_arena, code, ann, "greedy")
    assert answer.status_code == 200, answer.text
    room = answer.json()
    assert [s["name"] for s in room["seats"]] == ["Greedy bot", "Greedy bot"]
    assert room["seats"][0]["player_id"] != room["seats"][1]["player_id"]
    room = await finished_room(bot_arena, code)
    match = (await bot_arena.http.get(f"/api/matches/{room['match_id']}")).json()
    assert match["outcome"] is not None
    logged = await bot_arena.action_count(room["match_id"])
    async with bot_arena.app.state.arena.sessions() as session:
        rows = await repo.match_actions(session, room["match_id"])
    assert logged == len(rows) > 0
    assert [row.seq for row in rows] == list(range(1, logged + 1))
    assert not any(row.timeout for row in rows)  # the bots answered, not the clock
    bots = await scalar(bot_arena, select(func.count()).select_from(Player)
                        .where(Player.bot.is_(True)))
    assert bots == 2
    assert await scalar(bot_arena, select(func.count()).select_from(Rating)) == 0


async def test_a_person_plays_a_random_bot_to_the_end(bot_arena):
    ann = await bot_arena.player("Ann")
    code = (await bot_arena.room(ann, NUMGR_FAST, game="numgr"))["code"]
    assert (await bot_arena.sit(code, 0, ann)).status_code == 200
    room = (await fill(bot_arena, code, ann, "random")).json()
    assert room["status"] == "playing"
    assert room["seats"][1]["name"] == "Random bot" and room["seats"][0]["name"] == "Ann"
    client = await bot_arena.connect(code, ann["token"])
    versions = set()
    for _ in range(500):
        frame = client.last
        if frame["view"] is not None and frame["view"]["outcome"] is not None:
            break
        if frame["prompt"] is not None and frame["legal"]:
            await client.act(frame["legal"][0])  # end the step / discard nothing
        await client.next("update", timeout=5)
        versions.add(client.last["version"])
    assert client.last["view"]["outcome"] is not None
    room = await finished_room(bot_arena, code)
    async with bot_arena.app.state.arena.sessions() as session:
        rows = await repo.match_actions(session, room["match_id"])
    assert {row.seat for row in rows} == {0, 1}  # both the person and the bot played
    assert client.last["version"] == len(rows)


async def test_only_the_creator_fills_free_seats_of_an_open_room(bot_arena):
    ann, bob = await bot_arena.player("Ann"), await bot_arena.player("Bob")
    code = (await bot_arena.room(ann, NUMGR_FAST, game="numgr"))["code"]
    refused = await fill(bot_arena, code, bob, "greedy")
    assert refused.status_code == 403
    assert refused.json()["detail"]["code"] == "not_room_creator"
    bad = await fill(bot_arena, code, ann, "expert")
    assert bad.status_code == 422
    assert (await bot_arena.sit(code, 0, bob)).status_code == 200
    assert (await bot_arena.sit(code, 1, ann)).status_code == 200
    late = await fill(bot_arena, code, ann, "random")
    assert late.status_code == 409 and late.json()["detail"]["code"] == "room_not_open"
    missing = await fill(bot_arena, "nope", ann, "random")
    assert missing.status_code == 404


class FixedRng:
    """Stands in for ``Rng``: ``randbelow`` returns a fixed value."""

    def __init__(self, value: int) -> None:
        self.value = value

    def randbelow(self, n: int) -> int:
        assert n == 1001
        return self.value


def test_bot_delay_and_levels():
    delay = BotDelay(0.6, 1.2)
    assert delay.seconds(FixedRng(0)) == pytest.approx(0.6)
    assert delay.seconds(FixedRng(500)) == pytest.approx(0.9)
    assert delay.seconds(FixedRng(1000)) == pytest.approx(1.2)
    assert BotDelay(0, 0).seconds(FixedRng(7)) == 0
    assert [level_of(BOT_NAMES[level]) for level in ("random", "greedy")] == ["random", "greedy"]


async def test_bots_resume_their_match_after_a_restart(db_path):
    clock = ManualClock()
    # Bots that never answer here (60 s), then a restart with bots that answer at once.
    async with running_arena(db_path, clock, bot_delay_min=60, bot_delay_max=60) as arena:
        ann = await arena.player("Ann")
        code = (await arena.room(ann, NUMGR_FAST, game="numgr"))["code"]
        room = (await fill(arena, code, ann, "greedy")).json()
        assert room["status"] == "playing"
        assert await arena.action_count(room["match_id"]) == 0
    async with running_arena(db_path, clock, bot_delay_min=0, bot_delay_max=0) as arena:
        room = await finished_room(arena, code)
        assert await arena.action_count(room["match_id"]) > 0
