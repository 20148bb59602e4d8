"""When a held match is current (docs/server.md): two apps on one database stand for two server
processes, joined by a ``Switchboard`` (a room channel that is not single-process, whose
deliveries to one app a test can hold back), so a process that has not heard of the newest
actions is made deterministically.

Checked: a greet on a process whose copy is N actions behind the stored log (it follows no
socket of the room, or it does but has heard nothing) shows the stored head; its other sockets
are brought there too; a refused act from a socket that is behind gets the current state
(``already_played``, ``stale_prompt``); no socket's ``version`` ever goes down.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.db import repositories as repo
from app.rooms.clocks import ManualClock
from tests.app.conftest import Arena, Client, auth, running_arena
from tests.app.expect import legal_for, shows_spectator
from tests.app.numgr_play import GAME, play
from tests.app.switchboard import Switchboard
from tests.conftest import fresh_postgres_database


@contextlib.asynccontextmanager
async def two_processes(db_path: Path) -> AsyncIterator[tuple[Switchboard, Arena, Arena]]:
    """Yield ``(board, one, two)``: two apps on the SQLite file ``db_path`` whose brokers are
    lines of ``board`` (``board.lines[0]`` is one's, ``[1]`` two's)."""
    board = Switchboard()
    async with running_arena(db_path, broker=board.line()) as one:
        async with running_arena(db_path, one.clock, broker=board.line()) as two:
            yield board, one, two


async def numgr_room(arena: Arena, seat_on: Arena | None = None
                     ) -> tuple[str, list[dict[str, Any]]]:
    """Create a numgr room on ``arena``, seat Ann (0) there and Bob (1) through ``seat_on``
    (whose process then starts the match); return the code and the players."""
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code = (await arena.room(ann, {}, game="numgr"))["code"]
    assert (await arena.sit(code, 0, ann)).status_code == 200
    assert (await (seat_on or arena).sit(code, 1, bob)).status_code == 200
    return code, [ann, bob]


async def stored(arena: Arena, code: str) -> tuple[Any, int, int]:
    """Return the engine state the stored log of room ``code``'s match gives, its public
    version (``shows_spectator``) and the number of stored actions."""
    async with arena.app.state.arena.sessions() as session:
        room = await repo.room_by_code(session, code)
        match_id = (await repo.latest_match_ids(session, [room.id]))[room.id]
        match = await repo.get_match(session, match_id)
        rows = await repo.match_actions(session, match_id)
    state = GAME.new_game(match.options, 2, bytes.fromhex(match.seed))
    public = 0
    for row in rows:
        before = state
        state, events = GAME.apply(state, row.seat, row.action)
        public += shows_spectator(GAME, before, state, events)
    return state, public, len(rows)


def assert_current(frame: dict[str, Any], state: Any, public: int, viewer: int | None) -> None:
    """Assert ``frame`` (a welcome or an update) shows what the stored log gives ``viewer``."""
    assert frame["version"] == public
    assert frame["view"] == GAME.view(state, viewer)
    assert frame["legal"] == legal_for(GAME, state, viewer)


async def frames_until_chat(client: Client) -> list[dict[str, Any]]:
    """Return the welcome/update/error frames that arrive before the next chat line (a chat
    line sent after some messages reaches every socket after what those messages brought)."""
    frames = []
    while (frame := await client.next("update", "error", "chat"))["type"] != "chat":
        frames.append(frame)
    return frames


def versions_never_decrease(*clients: Client, seen: dict[int, list[int]]) -> None:
    """Record each client's newest version in ``seen`` and assert none went down."""
    for client in clients:
        versions = seen.setdefault(id(client), [])
        versions.append(client.last["version"])
        assert versions == sorted(versions), versions


async def test_a_process_that_started_the_match_and_follows_nothing_greets_with_the_log(
        db_path):
    async with two_processes(db_path) as (_, one, two):
        code, (ann, bob) = await numgr_room(one, seat_on=two)  # two starts it: holds version 0
        players = {0: await one.connect(code, ann["token"]),
                   1: await one.connect(code, bob["token"])}
        state, public, _ = await stored(one, code)
        state = await play(players, 6, state)
        state, public, count = await stored(one, code)
        assert (count, public) == (6, 6)
        assert two.app.state.arena.service.port(code).match().version == 0  # heard, ignored
        for token, viewer in ((None, None), (ann["token"], 0), (bob["token"], 1)):
            late = await two.connect(code, token)
            assert late.welcome["seat"] == viewer
            assert_current(late.welcome, state, public, viewer)
        assert [len(area) for area in late.welcome["view"]["areas"]] == [3, 0]


async def test_a_greet_on_a_process_that_last_saw_the_room_six_actions_ago(db_path):
    async with two_processes(db_path) as (board, one, two):
        code, (ann, bob) = await numgr_room(one)
        watcher = await two.connect(code)  # two follows the room
        players = {0: await one.connect(code, ann["token"]),
                   1: await one.connect(code, bob["token"])}
        state, _, _ = await stored(one, code)
        board.lines[1].hold()  # two hears nothing from now on
        state = await play(players, 6, state)
        state, public, _ = await stored(one, code)
        assert two.app.state.arena.service.port(code).match().version == 0
        seen: dict[int, list[int]] = {}
        late = await two.connect(code, bob["token"])
        assert_current(late.welcome, state, public, 1)
        # The greet made two's copy current: its watcher is brought there at once.
        assert_current(await watcher.next("update"), state, public, None)
        versions_never_decrease(watcher, late, seen=seen)
        # The six messages two missed arrive now: they show nothing new.
        board.lines[1].release()
        await late.send({"type": "chat", "text": "after the late messages"})
        assert await frames_until_chat(watcher) == []
        assert await frames_until_chat(late) == []
        versions_never_decrease(watcher, late, seen=seen)


async def test_a_refused_act_from_a_behind_socket_brings_it_the_current_state(db_path):
    async with two_processes(db_path) as (board, one, two):
        code, (ann, bob) = await numgr_room(one)
        players = {0: await one.connect(code, ann["token"]),
                   1: await one.connect(code, bob["token"])}
        behind = await two.connect(code, ann["token"])  # Ann's second tab, on two
        state, _, _ = await stored(one, code)
        board.lines[1].hold()
        state = await play(players, 1, state)
        # Ann's tab on two still shows version 0 and answers its prompt: taken already.
        await behind.act(behind.last["legal"][0])
        state, public, _ = await stored(one, code)
        assert 0 in GAME.to_act(state)  # still Ann's turn: a new decision
        frames = [await behind.next("update", "error") for _ in range(3)]
        assert [f["type"] for f in frames] == ["update", "error", "update"]
        assert frames[1]["code"] == "stale_prompt"
        assert_current(frames[0], state, public, 0)
        assert frames[2]["events"] == [] and frames[2]["version"] == public
        assert frames[2]["view"] == frames[0]["view"]  # the repeat after stale_prompt
        # Five more actions on one: Ann's turn ends (Bob's now); her old prompt, a decision her
        # first tab took several decisions ago, is refused as already played.
        state = await play(players, 5, state)
        state, public, count = await stored(one, code)
        assert (count, sorted(GAME.to_act(state))) == (6, [1])
        await behind.act(frames[2]["legal"][0], prompt=frames[2]["prompt"])
        frames = [await behind.next("update", "error") for _ in range(2)]
        assert [f["type"] for f in frames] == ["update", "error"]
        assert frames[1]["code"] == "already_played"
        assert_current(frames[0], state, public, 0)
        board.lines[1].release()
        await behind.send({"type": "chat", "text": "after the late messages"})
        assert await frames_until_chat(behind) == []
        assert await one.action_count(behind.welcome["room"]["match_id"]) == 6


async def locks_waited_on(lock: Any, database: str) -> int:
    """Return how many sessions of ``database`` wait for a lock now (``pg_stat_activity``)."""
    return await lock.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
        database)


@pytest.mark.postgres
async def test_a_version_heard_while_a_greet_reads_the_room_is_in_its_welcome(postgres_url):
    import asyncpg

    async with fresh_postgres_database(postgres_url, "arena_greet") as url:
        board, clock = Switchboard(), ManualClock()
        async with running_arena(None, clock, board.line(), database_url=url) as one, \
                running_arena(None, clock, board.line(), database_url=url) as two:
            code, (ann, bob) = await numgr_room(one)
            players = {0: await one.connect(code, ann["token"]),
                       1: await one.connect(code, bob["token"])}
            state, public, _ = await stored(one, code)
            other = (await one.room(ann, {}, game="numgr"))["code"]
            speaker, listener = await one.connect(other), await two.connect(other)
            # Two follows nothing of ``code``; its greet of a spectator there reads the head,
            # then waits on the room's seats (locked here) while one stores the next action.
            lock = await asyncpg.connect(url.replace("+asyncpg", ""))
            transaction = lock.transaction()
            await transaction.start()
            await lock.execute("LOCK TABLE room_seats IN ACCESS EXCLUSIVE MODE")
            late = await two.connect(code, hello=False)
            await late.send({"type": "hello", "token": None})
            for _ in range(500):
                if await locks_waited_on(lock, url.rsplit("/", 1)[1]):
                    break
                await asyncio.sleep(0.01)
            assert await locks_waited_on(lock, url.rsplit("/", 1)[1]) == 1
            state = await play(players, 1, state)
            state, after, count = await stored(one, code)
            assert (count, after) == (1, public + 1)
            # A chat line sent after the action reaches two after its version message.
            await speaker.send({"type": "chat", "text": "after the action"})
            assert (await listener.next("chat"))["text"] == "after the action"
            await transaction.rollback()
            await lock.close()
            welcome = await late.next("welcome")
            assert_current(welcome, state, after, None)
            assert await late.settle() == []  # no update after it


async def test_the_last_frame_of_a_match_names_it_when_a_rematch_began_unheard(db_path):
    async with two_processes(db_path) as (board, one, two):
        ann, bob = await one.player("Ann"), await one.player("Bob")
        code = (await one.room(ann, {"regulation": "half", "monsters": False}))["code"]
        assert (await one.sit(code, 0, ann)).status_code == 200
        assert (await one.sit(code, 1, bob)).status_code == 200
        players = [await one.connect(code, p["token"]) for p in (ann, bob)]
        watcher = await two.connect(code)
        first = watcher.welcome["room"]["match_id"]
        board.lines[1].hold()  # two hears of the end and of the rematch only afterwards
        await players[0].act({"type": "resign"}, prompt=players[0].last["prompt"] or "-")
        await players[1].until_version(1)
        for player in (ann, bob):
            answer = await one.http.post(f"/api/rooms/{code}/rematch", headers=auth(player))
            assert answer.status_code == 200, answer.text
        assert answer.json()["match_id"] == first + 1
        board.lines[1].release()
        end, deal = await watcher.next("update"), await watcher.next("update")
        assert (end["room"]["match_id"], end["room"]["status"]) == (first, "finished")
        assert (end["version"], end["view"]["outcome"]["winners"]) == (1, [1])
        assert (deal["room"]["match_id"], deal["room"]["status"]) == (first + 1, "playing")
        assert (deal["version"], deal["view"]["outcome"]) == (0, None)
