"""Fault tests: broker outages, a process killed at a named point, a process started while
Redis is down.

Every test runs real server processes (``tests.app.prod_server``) on its own PostgreSQL
database and its own ``redis-server`` (``TEST_REDIS_PORT``, else a free port), on one
``FileClock`` that the test moves (``ARENA_TEST_CLOCK_FILE``): no clock runs out unless the
test moves the time past it. The tests wait on events (frames, ``/readyz``, ``/_test/clocks``)
with timeouts, never for a fixed time.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from app.rooms.clocks import FileClock
from app.rooms.peers import HEARTBEAT_SECONDS, LOST_AFTER
from engine.registry import GAMES
from tests.app.conftest import Client, auth
from tests.app.expect import Expect
from tests.app.prod import (  # noqa: F401
    Cluster,
    RedisPath,
    ServerProcess,
    clock,
    clocked,
    cluster,
    database,
    fetch,
    redis_server,
    replay,
    seated,
    stored_actions,
    stored_match,
    template_database,
)
from tests.app.prod_server import CRASH_STATUS
from tests.waiting import wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

GAME = GAMES["reverse_curse"]
OPTIONS = {"monsters": False}
TURN = 30  # seconds on every decision's clock (whole seconds: deadlines add up exactly)
OUTAGE = 3 * TURN  # how far the clock moves while Redis is down
WAIT = 60.0  # seconds any awaited event may take (a process start on a loaded 2-core machine took 15 s)


async def until(condition: Callable[[], Awaitable[bool]], what: str) -> None:
    """``wait_until`` with this file's bound: asked every 50 ms, at most ``WAIT`` s."""
    await wait_until(condition, what, WAIT, every=0.05)


async def get(server: ServerProcess, path: str) -> httpx.Response | None:
    """GET ``path`` of ``server``; ``None`` while nothing answers."""
    async with httpx.AsyncClient(base_url=server.base, timeout=5) as http:
        try:
            return await http.get(path)
        except httpx.TransportError:
            return None


async def clocks_paused(server: ServerProcess) -> bool:
    """Whether ``server`` stopped its clocks for a broker outage."""
    return (await get(server, "/_test/clocks")).json()["paused"]


async def until_clocks(paused: bool, *servers: ServerProcess) -> None:
    """Wait until every one of ``servers`` has its clocks stopped (``paused``) or running."""
    async def all_there() -> bool:
        return all([await clocks_paused(server) == paused for server in servers])
    await until(all_there, f"clocks {'paused' if paused else 'running'} on every process")


async def readiness(server: ServerProcess) -> tuple[int, dict[str, Any]] | None:
    """Return ``/readyz``'s status code and body, ``None`` while nothing answers."""
    answer = await get(server, "/readyz")
    return None if answer is None else (answer.status_code, answer.json())


async def next_update(client: Client) -> dict[str, Any]:
    """Return the client's next ``update`` (at most ``WAIT`` s)."""
    return await client.next("update", timeout=WAIT)


def viewer_of(key: Any) -> int | None:
    """Return the seat a client key stands for (spectator keys: ``None``)."""
    return key if isinstance(key, int) else None


async def table(cluster: Cluster, clock: FileClock) -> tuple[dict[Any, Client], int, list]:
    """Start two processes on ``clock``; seat Ann (socket on process one) and Bob (on two) in
    a Reverse Curse room, with a spectator on each process; play the two mulligans (keep).
    Return the clients, the match id and the processes."""
    servers = await cluster.launch(2, **clocked(clock, TURN))
    a, b = (cluster.arena(server) for server in servers)
    code, (ann, bob) = await seated([a, b], OPTIONS)
    clients = {0: await a.connect(code, ann["token"]), 1: await b.connect(code, bob["token"]),
               "spectator on one": await a.connect(code),
               "spectator on two": await b.connect(code)}
    for seat in (0, 1):
        await clients[seat].act(clients[seat].last["legal"][0])
        await next_update(clients[seat])
    match_id = clients[0].welcome["room"]["match_id"]
    state = await engine_state(cluster, match_id)
    for key, client in clients.items():  # the second mulligan shows everyone the deal
        while client.last["view"] != GAME.view(state, viewer_of(key)):
            await next_update(client)
    return clients, match_id, servers


async def engine_state(cluster: Cluster, match_id: int) -> Any:
    """Return the engine state of the stored log."""
    return replay(await stored_match(cluster.database, match_id),
                  await stored_actions(cluster.database, match_id))


async def test_redis_stopped_mid_match_confirms_the_actor_at_once_and_no_clock_runs_out(
        cluster: Cluster, clock: FileClock):
    clients, match_id, (one, two) = await table(cluster, clock)
    state = await engine_state(cluster, match_id)
    seat = min(GAME.to_act(state))
    here = "spectator on one" if seat == 0 else "spectator on two"
    expect = Expect(GAME, state, (0, 1, None), 2, clients[0].last["version"])

    cluster.redis.stop()
    await until_clocks(True, one, two)
    action = GAME.legal_actions(state, seat)[0]
    await clients[seat].act(action)
    state, events = GAME.apply(state, seat, action)
    expect.step(state, events)
    # The actor and the spectator on its process hear of it while Redis is still down.
    for key in (seat, here):
        frame = await next_update(clients[key])
        assert (frame["version"], frame["view"]) == (expect.public,
                                                     GAME.view(state, viewer_of(key)))
    deadline = clients[seat].last["deadline"]
    assert deadline == clock.now() + TURN  # the next seat's clock, started at the action

    clock.advance(OUTAGE)  # far past that deadline: nothing fires while Redis is down
    status, body = await readiness(one)
    assert (status, body["status"], body["checks"]["database"]) == (503, "unavailable", "ok")
    assert body["checks"]["redis"] != "ok"
    cluster.redis.start()
    await until_clocks(False, one, two)
    # Every socket is brought to the stored log, with the clock extended by the outage.
    for key, client in clients.items():
        while client.last["deadline"] != deadline + OUTAGE:
            await next_update(client)
        assert client.last["view"] == GAME.view(state, viewer_of(key))
    stored = await stored_actions(cluster.database, match_id)
    assert [(row["seat"], row["timeout"]) for row in stored] == [(0, False), (1, False),
                                                                (seat, False)]

    # The clocks run again: past the extended deadline the asked seat times out, once.
    asked = min(GAME.to_act(state))
    clock.advance(TURN)
    frame = await next_update(clients[asked])
    assert frame["events"][0] == {"kind": "timeout", "data": {"seat": asked}}
    stored = await stored_actions(cluster.database, match_id)
    assert [(row["seat"], row["timeout"]) for row in stored][3:] == [(asked, True)]


async def test_a_process_started_while_redis_is_down_is_unready_then_subscribes_and_resyncs(
        cluster: Cluster, clock: FileClock):
    [one] = await cluster.launch(1, **clocked(clock, TURN))
    a = cluster.arena(one)
    code, (ann, bob) = await seated([a, a], OPTIONS)
    cluster.redis.stop()
    [two] = await cluster.launch(1, ready=False, **clocked(clock, TURN))

    async def answers() -> bool:  # started (migrated, matches resumed), Redis still down
        answer = await readiness(two)
        return answer is not None and answer[1]["status"] != "not_started"
    await until(answers, "the process started while Redis is down answering /readyz")
    status, body = await readiness(two)
    assert (status, body["status"], body["checks"]["database"]) == (503, "unavailable", "ok")
    assert body["checks"]["redis"] != "ok"
    assert await clocks_paused(two)

    b = cluster.arena(two)
    ann_one, bob_two = await a.connect(code, ann["token"]), await b.connect(code, bob["token"])
    await ann_one.act(ann_one.last["legal"][0])  # stored; nobody else hears of it yet
    await next_update(ann_one)
    cluster.redis.start()

    async def ready() -> bool:
        return (await readiness(two))[0] == 200
    await until(ready, "readiness once Redis answers")
    assert (await readiness(two))[1] == {"status": "ready",
                                         "checks": {"database": "ok", "redis": "ok"}}
    assert not await clocks_paused(two)
    # Subscribed, it resynced its socket: Bob's seat now shows that Ann answered.
    match_id = ann_one.welcome["room"]["match_id"]
    while bob_two.last["view"] != GAME.view(await engine_state(cluster, match_id), 1):
        await next_update(bob_two)
    assert len(await stored_actions(cluster.database, match_id)) == 1


async def test_actions_stored_while_only_one_process_lost_redis_reach_the_others_once_it_is_back(
        cluster: Cluster, clock: FileClock):
    [one] = await cluster.launch(1, **clocked(clock, TURN))
    path = RedisPath(cluster.redis)
    await path.open()
    [two] = await cluster.launch(1, **clocked(clock, TURN, REDIS_URL=path.url))
    a, b = cluster.arena(one), cluster.arena(two)
    code, (ann, bob) = await seated([a, b], OPTIONS)
    ann_one, bob_two = await a.connect(code, ann["token"]), await b.connect(code, bob["token"])
    watching_one = await a.connect(code)
    match_id = ann_one.welcome["room"]["match_id"]
    await path.cut()  # process two alone loses Redis; process one keeps it

    async def unready() -> bool:
        return (await readiness(two))[0] == 503
    await until(unready, "process two unready without Redis")
    await until_clocks(True, two)  # it knows: its messages are dropped from now on
    assert (await readiness(one))[0] == 200
    def drops() -> int:
        return two.log.read_text(errors="replace").count('"msg": "redis publish dropped"')
    dropped = drops()
    for client in (ann_one, bob_two):  # both mulligans (keep), Bob's stored on two
        await client.act(client.last["legal"][0])
        await next_update(client)

    async def bobs_dropped() -> bool:
        return drops() > dropped
    await until(bobs_dropped, "process two dropping the version message of Bob's mulligan")
    await path.open()

    async def ready() -> bool:
        return (await readiness(two))[0] == 200
    await until(ready, "process two ready once Redis answers it again")
    # Process one's sockets are shown Bob's mulligan with nothing else happening there (no
    # socket opens, nobody acts, no clock runs out).
    state = await engine_state(cluster, match_id)
    assert len(await stored_actions(cluster.database, match_id)) == 2
    for client, viewer in ((ann_one, 0), (watching_one, None)):
        while client.last["view"] != GAME.view(state, viewer):
            await next_update(client)
    await path.close()


async def test_a_process_killed_right_after_a_commit_loses_nothing_acknowledged_or_stored(
        cluster: Cluster, clock: FileClock):
    [one] = await cluster.launch(1, **clocked(clock, TURN, ARENA_TEST_CRASH_AT="after_commit"))
    [two] = await cluster.launch(1, **clocked(clock, TURN))
    a, b = cluster.arena(one), cluster.arena(two)
    code, (ann, bob) = await seated([b, b], OPTIONS)
    ann_one, bob_two = await a.connect(code, ann["token"]), await b.connect(code, bob["token"])
    await ann_one.act(ann_one.last["legal"][0])
    assert one.process.wait(WAIT) == CRASH_STATUS  # died after the COMMIT, before telling
    match_id = bob_two.welcome["room"]["match_id"]
    stored = await stored_actions(cluster.database, match_id)
    assert [(row["seat"], row["action"]) for row in stored] == [
        (0, ann_one.last["legal"][0])]
    # Ann reconnects to the other process: her welcome is as new as the stored log, and Bob
    # answers on it as usual.
    again = await b.connect(code, ann["token"])
    state = await engine_state(cluster, match_id)
    assert again.welcome["view"] == GAME.view(state, 0)
    await bob_two.act(bob_two.last["legal"][0])
    state = GAME.apply(state, 1, bob_two.last["legal"][0])[0]
    while again.last["view"] != GAME.view(state, 0):
        await next_update(again)
    assert len(await stored_actions(cluster.database, match_id)) == 2


class AnnsTurn:
    """Process one (dying at a ``ARENA_TEST_CRASH_AT`` point) and process two on ``clock``;
    Ann and Bob seated through two, with Ann's, Bob's and a spectator's socket on two, both
    mulligans kept and Bob's first legal actions played there until Ann is asked; then Ann's
    socket on process one and her first legal action (``act``)."""

    async def start(self, cluster: Cluster, clock: FileClock, crash_at: str) -> None:
        [self.one] = await cluster.launch(1, **clocked(clock, TURN, ARENA_TEST_CRASH_AT=crash_at))
        [two] = await cluster.launch(1, **clocked(clock, TURN))
        a, b = cluster.arena(self.one), cluster.arena(two)
        code, (ann, bob) = await seated([b, b], OPTIONS)
        ann_two, bob_two = await b.connect(code, ann["token"]), await b.connect(code, bob["token"])
        #: Process two's sockets and the viewer each stands for.
        self.on_two = {bob_two: 1, ann_two: 0, await b.connect(code): None}
        self.match_id = bob_two.welcome["room"]["match_id"]
        for client in (ann_two, bob_two):  # both mulligans (keep)
            await client.act(client.last["legal"][0])
            await next_update(client)
        state = await engine_state(cluster, match_id=self.match_id)
        while 0 not in GAME.to_act(state):
            while bob_two.last["view"] != GAME.view(state, 1):
                await next_update(bob_two)
            action = GAME.legal_actions(state, 1)[0]
            await bob_two.act(action)
            state = GAME.apply(state, 1, action)[0]
        self.before = state
        self.ann_one = await a.connect(code, ann["token"])
        assert self.ann_one.welcome["view"] == GAME.view(state, 0)
        self.action = GAME.legal_actions(state, 0)[0]
        self.after = GAME.apply(state, 0, self.action)[0]

    async def act(self) -> None:
        """Ann plays her first legal action on process one."""
        await self.ann_one.act(self.action)


async def test_a_process_killed_between_its_commit_and_its_message_is_caught_up_by_the_others(
        cluster: Cluster, clock: FileClock):
    turn = AnnsTurn()
    await turn.start(cluster, clock, "after_commit")
    await turn.act()
    assert turn.one.process.wait(WAIT) == CRASH_STATUS  # died after the COMMIT, before telling
    stored = await stored_actions(cluster.database, turn.match_id)
    assert (stored[-1]["seat"], stored[-1]["action"]) == (0, turn.action)
    # Process two heard nothing of it. Its sockets are shown the stored action once process one
    # missed LOST_AFTER of process two's heartbeats, with nothing else happening there (no
    # socket opens, nobody acts, no turn clock runs out: 5 s of a 30 s turn).
    for beat in range(LOST_AFTER):
        for client, viewer in turn.on_two.items():
            await client.silent()
            assert client.last["view"] == GAME.view(turn.before, viewer), beat
            assert client.last["view"] != GAME.view(turn.after, viewer)
        clock.advance(HEARTBEAT_SECONDS)
        await asyncio.sleep(0.2)  # every process has seen the time (polled each 5 ms)
    for client, viewer in turn.on_two.items():
        while client.last["view"] != GAME.view(turn.after, viewer):
            await next_update(client)
    assert len(await stored_actions(cluster.database, turn.match_id)) == len(stored)


async def test_a_streak_left_unapplied_by_a_killed_process_is_applied_by_another_at_once(
        cluster: Cluster, clock: FileClock):
    """Process one holds the match (nobody has a socket on two) and dies right after storing
    a seat's third clock-played decision in a row, before its check applies the room's rule.
    Process two applies it once it finds one lost (``LOST_AFTER`` heartbeats), not one of the
    seat's turns later: its clock would not even run here, as two does not hold the match."""
    [one] = await cluster.launch(1, **clocked(clock, TURN, ARENA_TEST_CRASH_AT="after_streak"))
    [two] = await cluster.launch(1, **clocked(clock, TURN))
    a = cluster.arena(one)
    ann, bob = await a.player("Ann"), await a.player("Bob")
    created = await a.http.post("/api/rooms", headers=auth(ann),
                                json={"game": "reverse_curse", "options": OPTIONS,
                                      "on_timeouts": "forfeit"})
    code = created.json()["code"]
    for seat, player in enumerate((ann, bob)):
        assert (await a.sit(code, seat, player)).status_code == 200
    match_id = (await a.http.get(f"/api/rooms/{code}")).json()["match_id"]

    async def forfeits() -> list[tuple[int, int, dict, bool, dict | None]]:
        rows = await fetch(cluster.database, "SELECT seq, seat, action, timeout, forfeit FROM "
                                             "match_actions WHERE match_id = $1 ORDER BY seq",
                           match_id)
        return [(row["seq"], row["seat"], json.loads(row["action"]), row["timeout"],
                 json.loads(row["forfeit"]) if row["forfeit"] else None) for row in rows]

    while one.process.poll() is None:  # nobody acts: the clocks play every decision
        played = len(await forfeits())
        clock.advance(TURN)

        async def moved(played: int = played) -> bool:
            return one.process.poll() is not None or len(await forfeits()) > played
        await until(moved, "a clock played on process one, or it died")
    assert one.process.wait(WAIT) == CRASH_STATUS
    stored = await forfeits()
    seat = stored[-1][1]
    assert [row[3:] for row in stored if row[1] == seat][-3:] == [(True, None)] * 3
    for _ in range(LOST_AFTER):
        clock.advance(HEARTBEAT_SECONDS)
        await asyncio.sleep(0.2)  # every process has seen the time (polled each 5 ms)

    async def forfeited() -> bool:
        return len(await forfeits()) > len(stored)
    await until(forfeited, "process two stored the forfeit")
    assert await forfeits() == [*stored, (len(stored) + 1, seat, {"type": "resign"}, False,
                                          {"reason": "timeouts", "timeouts": 3})]
    match = await stored_match(cluster.database, match_id)
    assert (match["status"], match["outcome"]["winners"]) == ("finished", [1 - seat])
    assert two.process.poll() is None


async def test_a_seat_claimed_by_a_process_killed_before_its_room_message_reaches_the_others(
        cluster: Cluster, clock: FileClock):
    [one] = await cluster.launch(1, **clocked(clock, TURN,
                                              ARENA_TEST_CRASH_AT="before_room_message"))
    [two] = await cluster.launch(1, **clocked(clock, TURN))
    a, b = cluster.arena(one), cluster.arena(two)
    ann = await b.player("Ann")
    code = (await b.room(ann, OPTIONS))["code"]
    watching, spectator = await b.connect(code, ann["token"]), await b.connect(code)
    assert watching.welcome["seat"] is None
    with pytest.raises(httpx.TransportError):  # the claim is stored, its answer never comes
        await a.sit(code, 0, ann)
    assert one.process.wait(WAIT) == CRASH_STATUS  # died after the COMMIT, before telling
    # The first seat: no match starts, so no version message either. Process two holds the
    # room as before the claim until process one missed LOST_AFTER of its heartbeats.
    for _ in range(LOST_AFTER):
        assert [f["type"] for f in await spectator.silent() if f["type"] != "presence"] == []
        clock.advance(HEARTBEAT_SECONDS)
        await asyncio.sleep(0.2)  # every process has seen the time (polled each 5 ms)
    welcome = await watching.next("welcome")
    assert (welcome["seat"], welcome["room"]["seats"][0]["player_id"]) == (0, ann["id"])
    room = (await spectator.next("room"))["room"]
    assert room["seats"][0]["player_id"] == ann["id"]


async def test_a_process_killed_right_after_acknowledging_an_action_leaves_it_shown_by_the_others(
        cluster: Cluster, clock: FileClock):
    turn = AnnsTurn()
    await turn.start(cluster, clock, "after_tell")
    await turn.act()
    assert (await next_update(turn.ann_one))["view"] == GAME.view(turn.after, 0)
    assert turn.one.process.wait(WAIT) == CRASH_STATUS  # died once its sockets were told
    stored = await stored_actions(cluster.database, turn.match_id)
    assert (stored[-1]["seat"], stored[-1]["action"]) == (0, turn.action)
    # Process two's sockets are shown the acknowledged action with nothing else happening
    # there (no socket opens, nobody acts, no clock runs out).
    for client, viewer in turn.on_two.items():
        while client.last["view"] != GAME.view(turn.after, viewer):
            await next_update(client)
    assert len(await stored_actions(cluster.database, turn.match_id)) == len(stored)


LEASE = 5  # seconds a process keeps a room's bots after its last answer there


async def answer_when_asked(client: Client) -> None:
    """Wait until ``client``'s seat is asked, answer its first legal action, and wait for the
    ``update`` that shows the answer."""
    while not client.last["legal"]:
        await next_update(client)
    await client.act(client.last["legal"][0])
    await next_update(client)


async def player_actions(server: ServerProcess, cluster: Cluster) -> float:
    """Return how many actions of players (people or bots) ``server`` stored."""
    return await cluster.metric(server, "arena_actions_applied_total", game="reverse_curse",
                                by="player")


async def test_one_process_drives_a_rooms_bots_and_another_takes_over_once_its_lease_lapses(
        cluster: Cluster, clock: FileClock):
    servers = await cluster.launch(2, **clocked(
        clock, TURN, ARENA_BOT_DELAY_MIN="0", ARENA_BOT_DELAY_MAX="0",
        ARENA_BOT_LEASE_SECONDS=str(LEASE)))
    arenas = [cluster.arena(server) for server in servers]
    ann = await arenas[0].player("Ann")
    code = (await arenas[0].room(ann, OPTIONS))["code"]
    assert (await arenas[0].sit(code, 0, ann)).status_code == 200
    answer = await arenas[0].http.post(f"/api/rooms/{code}/bots", json={"level": "easy"},
                                       headers={"Authorization": f"Bearer {ann['token']}"})
    assert answer.status_code == 200, answer.text
    match_id = answer.json()["match_id"]
    ann_on_one = await arenas[0].connect(code, ann["token"])
    await arenas[1].connect(code)  # process two follows the room too

    async def bot_rows() -> int:
        return sum(1 for row in await stored_actions(cluster.database, match_id)
                   if row["seat"] == 1)

    while await bot_rows() < 3:
        await answer_when_asked(ann_on_one)
    while not ann_on_one.last["legal"]:  # the bot answered: Ann is asked
        await next_update(ann_on_one)
    rows = await stored_actions(cluster.database, match_id)
    bots, people = await bot_rows(), len(rows) - await bot_rows()
    # Ann's answers were stored by process one (her socket); the bot's by one process only.
    driven = (await player_actions(servers[0], cluster) - people,
              await player_actions(servers[1], cluster))
    assert driven in ((bots, 0), (0, bots))
    driver = servers[0] if driven[0] else servers[1]
    survivor = servers[1] if driver is servers[0] else servers[0]
    held = subprocess.run(["redis-cli", "-p", str(cluster.redis.port), "GET",
                           f"arena.bots.{code}"], capture_output=True, text=True).stdout
    assert float(held.strip().split("|")[1]) == clock.now() + LEASE  # renewed at each answer
    before = await player_actions(survivor, cluster)

    driver.kill()  # its lease stays in Redis until it lapses
    ann_socket = ann_on_one if survivor is servers[0] else \
        await cluster.arena(survivor).connect(code, ann["token"])
    seen = len(await stored_actions(cluster.database, match_id))
    await answer_when_asked(ann_socket)
    clock.advance(LEASE + 1)  # the dead driver's lease lapses: the survivor answers the bot
    while not ann_socket.last["legal"]:
        await next_update(ann_socket)
    rows = (await stored_actions(cluster.database, match_id))[seen:]
    assert rows[0]["seat"] == 0 and len(rows) > 1
    # Every bot answer since came from the survivor, after the lapse (its clock time then).
    assert {(row["seat"], row["at"].timestamp()) for row in rows[1:]} == {(1, clock.now())}
    assert await player_actions(survivor, cluster) - before == len(rows)  # Ann's + the bot's


PRESENCE = 9  # seconds a process's presence entry counts unless renewed


async def test_a_killed_processs_sockets_stop_counting_once_its_presence_lapses(
        cluster: Cluster, clock: FileClock):
    one, two = await cluster.launch(2, **clocked(clock, TURN,
                                                 ARENA_PRESENCE_SECONDS=str(PRESENCE)))
    a, b = cluster.arena(one), cluster.arena(two)
    code, (ann, bob) = await seated([a, a], OPTIONS)
    watcher = await a.connect(code)
    await a.connect(code, ann["token"])
    await b.connect(code, bob["token"])
    await b.connect(code)
    await watcher.until_presence([0, 1], 2)
    two.kill()  # its sockets never say goodbye
    clock.advance(PRESENCE + 1)
    await watcher.until_presence([0], 1)
