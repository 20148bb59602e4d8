"""Two server processes (here: two apps) on one PostgreSQL database and one Redis serve one
room: each renders the other's actions for its own sockets (ARCHITECTURE.md "Scale-out")."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.main import create_app
from app.rooms.clocks import ManualClock
from app.settings import Settings
from tests.app.conftest import SEED, Arena, auth, serve, shutdown
from tests.app.expect import assert_caught_up, catch_up
from tests.app.rc import Replay, assert_private
from tests.app.test_rest import RETRY_WORK
from tests.app.test_round_trips import database_work, heard_so_far
from tests.conftest import fresh_postgres_database

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
async def database(postgres_url):
    """A fresh, uniquely named PostgreSQL database, dropped afterwards."""
    async with fresh_postgres_database(postgres_url, "arena_scale") as url:
        yield url


@pytest.fixture
async def two(database, redis_url):
    """Two apps on ``database`` and Redis, started at once (one migrates, the other waits for
    it), sharing one ``ManualClock``: ``(Arena of the first, Arena of the second)``, both
    speaking REST through the first (``Arena.base`` is each one's own address)."""
    clock = ManualClock()
    settings = Settings(database_url=database, redis_url=redis_url)
    apps = [create_app(settings, clock=clock, seed_source=lambda: SEED) for _ in range(2)]
    servers = await asyncio.gather(*(serve(app) for app in apps))
    try:
        async with httpx.AsyncClient(base_url=servers[0][2], timeout=10) as http:
            yield (Arena(servers[0][2], http, clock, apps[0], None),
                   Arena(servers[1][2], http, clock, apps[1], None))
    finally:
        for server, task, _ in servers:
            await shutdown(server, task)


async def test_two_processes_serve_one_room(two):
    one, two = two
    ann, bob = await one.player("Ann"), await one.player("Bob")
    code = (await one.room(ann, {"monsters": False}))["code"]
    await one.sit(code, 0, ann)
    await one.sit(code, 1, bob)
    players = {0: await one.connect(code, ann["token"]),
               1: await two.connect(code, bob["token"])}
    viewers = {**players, None: await two.connect(code)}
    await players[0].until_presence([0, 1], 1)  # summed over both processes
    replay = Replay({"monsters": False}, SEED)
    for _ in range(6):
        seat, action = replay.policy()
        await players[seat].act(action)
        replay.apply(seat, action)
        # The sockets are on two processes: wait only for the frames that must come.
        heard = await catch_up(viewers, replay.expect, local=False)
        assert_caught_up(viewers, heard, replay.expect)
        for viewer, client in viewers.items():
            for frame in heard[viewer]:
                assert_private(frame, viewer)
            assert client.last["view"] == replay.view(viewer)
    for client in viewers.values():
        await client.socket.close()


async def test_a_seat_claimed_through_one_process_seats_the_players_socket_on_the_other(two):
    one, two = two
    ann, bob = await one.player("Ann"), await one.player("Bob")
    code = (await one.room(ann, {"monsters": False}))["code"]
    await one.sit(code, 0, ann)
    watching = await two.connect(code, bob["token"])  # Bob watches through process two
    assert watching.welcome["seat"] is None
    assert (await one.sit(code, 1, bob)).status_code == 200  # and sits through process one
    welcome = await watching.next("welcome")
    replay = Replay({"monsters": False}, SEED)
    assert (welcome["seat"], welcome["version"]) == (1, 0)
    assert welcome["view"] == replay.view(1)
    await watching.socket.close()


async def test_a_claim_retried_through_the_other_process_answers_the_room(two):
    """The claim that started the match went through process one; its retry reaching process
    two (behind a proxy) answers the room as process two serves it, and writes nothing."""
    one, two = two
    ann, bob = await one.player("Ann"), await one.player("Bob")
    code = (await one.room(ann, {"monsters": False}))["code"]
    await one.sit(code, 0, ann)
    started = (await one.sit(code, 1, bob)).json()
    assert (started["status"], started["match_id"]) == ("playing", 1)
    await heard_so_far([one.app, two.app])  # process two is done with the claim's message
    with database_work(two.app) as work:
        again = await one.http.post(f"{two.base}/api/rooms/{code}/seats/1", headers=auth(bob))
    assert (again.status_code, work) == (200, RETRY_WORK)
    assert again.json() == (await one.http.get(f"{two.base}/api/rooms/{code}")).json()
    assert {key: again.json()[key] for key in ("status", "match_id")} == {
        "status": "playing", "match_id": 1}
    taken = await one.http.post(f"{two.base}/api/rooms/{code}/seats/1", headers=auth(ann))
    assert (taken.status_code, taken.json()["detail"]["code"]) == (409, "room_not_open")


async def test_a_socket_greeted_on_one_process_gets_the_lines_said_through_the_other(two):
    one, two = two
    ann, bob = await one.player("Ann"), await one.player("Bob")
    code = (await one.room(ann, {"format": "2v2", "monsters": False}))["code"]
    await one.sit(code, 0, ann)
    await one.sit(code, 1, bob)
    talker = await one.connect(code, ann["token"])
    lines = []
    for text, team in (("hello", False), ("our plan", True)):
        await talker.send({"type": "chat", "text": text, "team": team})
        lines.append(await talker.next("chat"))
    assert [(entry["seat"], entry["text"], entry["team"]) for entry in lines] == [
        (0, "hello", False), (0, "our plan", True)]
    # Process two holds nothing of the room: its first socket's lines come from Redis.
    watcher = await two.connect(code)
    assert await watcher.next("chat_history") == {"type": "chat_history", "lines": lines[:1]}
    # With that socket open, process two follows the room's lines on the channel.
    await talker.send({"type": "chat", "text": "bye", "team": False})
    lines.append(await watcher.next("chat"))
    bobs = await two.connect(code, bob["token"])  # seat 1: the other side
    assert await bobs.next("chat_history") == {"type": "chat_history",
                                               "lines": [lines[0], lines[2]]}
    anns = await two.connect(code, ann["token"])  # Ann's reload reaching process two
    assert await anns.next("chat_history") == {"type": "chat_history", "lines": lines}
    for client in (talker, watcher, bobs, anns):
        await client.socket.close()
