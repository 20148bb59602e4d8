"""Play vs computer on the server: bots seated by the room creator at a level (the seat's
``bot_level``), playing through the same room path as people (prompts, action log), matches
with bots not rated.

The bots answer at once here (``bot_delay_min = bot_delay_max = 0``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from sqlalchemy import func, select

from app.db import repositories as repo
from app.db.models import Player, Rating
from app.rooms.bots import BOT_NAMES, BotDelay, expected_answer, think_seconds
from app.rooms.clocks import ManualClock
from app.rooms.live import LiveMatch
from engine.bots import LEVELS
from engine.registry import GAMES
from tests.app.bot_fakes import HangingExecutor
from tests.app.conftest import Arena, auth, running_arena
from tests.waiting import wait_until

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
    room: dict = {}

    async def finished() -> bool:
        room.update((await arena.http.get(f"/api/rooms/{code}")).json())
        return room["status"] == "finished"

    await wait_until(finished, f"room {code}'s finish", timeout=20, every=0.05)
    return room


async def scalar(arena: Arena, query):
    async with arena.app.state.arena.sessions() as session:
        return await session.scalar(query)


async def test_bots_play_a_whole_match_logged_and_unrated(bot_arena):
    ann = await bot_arena.player("Ann")
    code = (await bot_arena.room(ann, NUMGR_FAST, game="numgr"))["code"]
    answer = await fill(bot_arena, code, ann, "normal")
    assert answer.status_code == 200, answer.text
    room = answer.json()
    assert [(s["name"], s["bot_level"]) for s in room["seats"]] == [("Normal bot", "normal")] * 2
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
    room = (await fill(bot_arena, code, ann, "easy")).json()
    assert room["status"] == "playing"
    assert [(s["name"], s["bot_level"]) for s in room["seats"]] == [("Ann", None),
                                                                     ("Easy bot", "easy")]
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
    refused = await fill(bot_arena, code, bob, "normal")
    assert refused.status_code == 403
    assert refused.json()["detail"]["code"] == "not_room_creator"
    before = (await bot_arena.http.get(f"/api/rooms/{code}")).json()
    for level in ("random", "greedy", "HARD", "", 3):
        bad = await fill(bot_arena, code, ann, level)
        assert bad.status_code == 422 and bad.json()["detail"]["code"] == "validation_error"
        assert bad.json()["detail"]["message"].startswith("body.level: ")
    assert (await bot_arena.http.get(f"/api/rooms/{code}")).json() == before  # nobody seated
    assert [s["player_id"] for s in before["seats"]] == [None, None]
    assert (await bot_arena.sit(code, 0, bob)).status_code == 200
    assert (await bot_arena.sit(code, 1, ann)).status_code == 200
    late = await fill(bot_arena, code, ann, "easy")
    assert late.status_code == 409 and late.json()["detail"]["code"] == "room_not_open"
    missing = await fill(bot_arena, "nope", ann, "easy")
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
    assert list(BOT_NAMES) == list(LEVELS) == ["easy", "normal", "hard", "expert"]


async def test_bots_resume_their_match_after_a_restart(db_path):
    clock = ManualClock()
    # Bots that never answer here (60 s), then a restart with bots that answer at once.
    async with running_arena(db_path, clock, bot_delay_min=60, bot_delay_max=60) as arena:
        ann = await arena.player("Ann")
        code = (await arena.room(ann, NUMGR_FAST, game="numgr"))["code"]
        room = (await fill(arena, code, ann, "normal")).json()
        assert room["status"] == "playing"
        assert await arena.action_count(room["match_id"]) == 0
    async with running_arena(db_path, clock, bot_delay_min=0, bot_delay_max=0) as arena:
        room = await finished_room(arena, code)
        assert await arena.action_count(room["match_id"]) > 0


@pytest.mark.parametrize("level", LEVELS)
async def test_each_level_seats_a_bot_of_that_level(db_path, level):
    # The bots never answer here (60 s): only the seats are looked at.
    async with running_arena(db_path, bot_delay_min=60, bot_delay_max=60,
                             bot_decide="tests.app.bot_fakes:first_legal") as arena:
        ann = await arena.player("Ann")
        code = (await arena.room(ann, NUMGR_FAST, game="numgr"))["code"]
        assert (await arena.sit(code, 0, ann)).status_code == 200
        answer = await fill(arena, code, ann, level)
        assert answer.status_code == 200, answer.text
        room = answer.json()
        assert [(s["name"], s["bot_level"]) for s in room["seats"]] == [
            ("Ann", None), (BOT_NAMES[level], level)]
        assert room["status"] == "playing"
        again = (await arena.http.get(f"/api/rooms/{code}")).json()
        assert [s["bot_level"] for s in again["seats"]] == [None, level]
        match = (await arena.http.get(f"/api/matches/{room['match_id']}")).json()
        assert [(s["name"], s["bot_level"]) for s in match["seats"]] == [
            ("Ann", None), (BOT_NAMES[level], level)]
        async with arena.app.state.arena.sessions() as session:
            bot = await session.get(Player, room["seats"][1]["player_id"])
        assert (bot.bot, bot.bot_level) == (True, level)


async def test_hard_bots_on_a_pool_that_hangs_play_greedy_to_the_end(db_path):
    pools: list[HangingExecutor] = []
    async with running_arena(db_path, bot_delay_min=0, bot_delay_max=0,
                             bot_budgets={"hard": 0.01},
                             bot_pool=lambda n: pools.append(HangingExecutor(n)) or pools[-1]
                             ) as arena:
        ann = await arena.player("Ann")
        code = (await arena.room(ann, NUMGR_FAST, game="numgr"))["code"]
        room = (await fill(arena, code, ann, "hard")).json()
        room = await finished_room(arena, code)
        logged = await arena.action_count(room["match_id"])
        thinker = arena.app.state.arena.thinker
        assert logged > 0 and thinker.counts["late"] == logged
        assert thinker.counts["searched"] == 0
        assert len(pools[0].futures) == logged
    assert pools[0].shut  # the lifespan closed the pool


async def test_a_bot_secret_makes_every_stored_answer_recomputable(db_path):
    """Keyed with ``bot_secret``, each stored bot answer is the one ``expected_answer`` gives
    for the decision it was stored under (replayed from the log)."""
    secret = "5a" * 32
    async with running_arena(db_path, bot_delay_min=0, bot_delay_max=0,
                             bot_secret=secret) as arena:
        ann = await arena.player("Ann")
        code = (await arena.room(ann, NUMGR_FAST, game="numgr"))["code"]
        await fill(arena, code, ann, "easy")
        room = await finished_room(arena, code)
        async with arena.app.state.arena.sessions() as session:
            match = await repo.get_match(session, room["match_id"])
            rows = await repo.match_actions(session, room["match_id"])
    live = LiveMatch.start(GAMES["numgr"], match.id, 0, code, match.options, 2,
                           bytes.fromhex(match.seed), match.started_at.timestamp())
    answered, other, elsewise = [], bytes.fromhex("a5" * 32), 0
    for row in rows:
        answered.append(expected_answer(bytes.fromhex(secret), live, row.seat, "easy") == row.action)
        elsewise += expected_answer(other, live, row.seat, "easy") != row.action
        live, _ = live.replay(row.seat, row.action, row.at.timestamp(), row.timeout)
    assert len(answered) > 0 and answered == [True] * len(answered)
    assert elsewise > 0  # another key gives other answers: the check can tell them apart


def test_a_matchs_opening_decision_waits_the_delays_upper_bound_more():
    delay, secret = BotDelay(0.6, 1.2), bytes(32)
    later = think_seconds(secret, delay, "ROOM", 1, "7.1.ab", opening=False)
    assert 0.6 <= later <= 1.2
    assert think_seconds(secret, delay, "ROOM", 1, "7.1.ab", opening=True) == later + 1.2
    assert think_seconds(secret, BotDelay(0, 0), "ROOM", 1, "7.1.ab", opening=True) == 0


async def test_bots_wait_longer_before_a_matchs_first_move_only(db_path):
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    async with running_arena(db_path, bot_delay_min=0.6, bot_delay_max=1.2) as arena:
        arena.app.state.arena.bots._sleep = no_wait
        ann = await arena.player("Ann")
        code = (await arena.room(ann, NUMGR_FAST, game="numgr"))["code"]
        room = (await fill(arena, code, ann, "easy")).json()
        room = await finished_room(arena, code)
        assert len(waits) == await arena.action_count(room["match_id"]) > 1
    assert 1.8 <= waits[0] <= 2.4  # the first decision: 0.6-1.2 s, and 1.2 s more
    assert [wait for wait in waits[1:] if not 0.6 <= wait <= 1.2] == []
