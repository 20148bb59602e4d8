"""Production mode: several uvicorn processes on one PostgreSQL database and one Redis
serve the same rooms, with no sticky routing.

Every test starts real server processes (``tests.app.prod_server``), its own database and its
own ``redis-server``; clients connect to different processes. Expected states come from the
engine replayed by the test from the seed stored in the database. Clocks run on a ``FileClock``
the test moves; races are made by holding both processes' stores at a ``StoreGate``.
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import pytest

from engine.registry import GAMES
from tests.app.conftest import Client
from tests.app.expect import Expect, assert_caught_up, catch_up
from tests.app.prod import (  # noqa: F401
    StoreGate,
    clock,
    clocked,
    cluster,
    database,
    redis_server,
    replay_public,
    seated,
    stored_actions,
    stored_match,
    template_database,
)
from tests.waiting import wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

GAME = GAMES["reverse_curse"]
OPTIONS = {"monsters": False}
KEEP = {"type": "mulligan", "card": None}  # keep the whole hand (the mulligan decision)
TURN = 30  # seconds on every decision's clock


def viewer_of(key: Any) -> int | None:
    """Return the seat a client key stands for (``"spectator…"`` keys watch: ``None``)."""
    return key if isinstance(key, int) else None


async def frames_until(client: Client, version: int) -> list[dict]:
    """Return every frame until ``client`` got an ``update`` showing (public) ``version`` or a
    later one (a hidden answer does not advance the version: at least one new ``update`` is
    waited for), plus the frames up to the answer to a ``ping`` sent then: the socket's frames
    are served in order, so the pong follows whatever its own ``act`` brought (an ``error``)."""
    frames: list[dict] = []
    while not any(f["type"] == "update" for f in frames) or client.last["version"] < version:
        try:
            frames.append(await client.next("update", "error"))
        except TimeoutError:
            raise AssertionError(f"version {version} never came; heard {frames}") from None
    return frames + await client.silent()


def seq_races(cluster) -> int:
    """Return how many times a process found its seq taken (from the servers' JSON logs)."""
    lines = [line for server in cluster.servers
             for line in server.log.read_text().splitlines() if line.startswith("{")]
    return sum(1 for line in lines if json.loads(line)["msg"] == "seq taken by another process")


async def test_a_match_split_across_two_processes_is_played_to_its_end(cluster):
    one, two = await cluster.launch(2)
    a, b = cluster.arena(one), cluster.arena(two)
    code, (ann, bob) = await seated([a, b], OPTIONS)
    clients = {0: await a.connect(code, ann["token"]), 1: await b.connect(code, bob["token"]),
               "spectator on one": await a.connect(code),
               "spectator on two": await b.connect(code)}
    match_id = clients[0].welcome["room"]["match_id"]
    match = await stored_match(cluster.database, match_id)
    state = GAME.new_game(match["options"], 2, bytes.fromhex(match["seed"]))
    expect = Expect(GAME, state, (0, 1, None))
    played: list[tuple[int, dict]] = []
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        action = GAME.legal_actions(state, seat)[0]
        assert clients[seat].last["legal"] == GAME.legal_actions(state, seat)
        await clients[seat].act(action)
        state, events = GAME.apply(state, seat, action)
        expect.step(state, events)
        played.append((seat, action))
        # Each viewer that can see a change gets exactly one update (every version but a
        # first mulligan answer, which only its own seat hears: docs/security.md §2).
        frames = await catch_up(clients, expect, viewer_of, local=False)
        assert_caught_up(clients, frames, expect, viewer_of)
        for key, client in clients.items():
            assert client.last["view"] == GAME.view(state, viewer_of(key))
    stored = await stored_actions(cluster.database, match_id)
    assert [(row["seat"], row["action"], row["timeout"]) for row in stored] == \
        [(seat, action, False) for seat, action in played]
    match = await stored_match(cluster.database, match_id)
    assert (match["status"], match["outcome"]) == ("finished", GAME.outcome(state).to_json())
    # Each process counted the actions of its own player (Ann on one, Bob on two).
    labels = {"game": "reverse_curse", "by": "player"}
    assert await cluster.metric(one, "arena_actions_applied_total", **labels) == \
        sum(1 for seat, _ in played if seat == 0)
    assert await cluster.metric(two, "arena_actions_applied_total", **labels) == \
        sum(1 for seat, _ in played if seat == 1)


async def test_two_answers_to_one_decision_from_two_processes_apply_once(cluster, clock,
                                                                         tmp_path):
    # Both stores are held until each process has begun its own, so both processes propose
    # the same seq before either stores it: the database refuses the second, whose process
    # catches up and refuses.
    gate = StoreGate(tmp_path / "stores")
    one, two = await cluster.launch(2, **clocked(clock, TURN, **gate.env()))
    a, b = cluster.arena(one), cluster.arena(two)
    code, (ann, bob) = await seated([a, b], OPTIONS)
    sockets = {seat: (await a.connect(code, p["token"]), await b.connect(code, p["token"]))
               for seat, p in enumerate((ann, bob))}
    match_id = sockets[0][0].welcome["room"]["match_id"]
    match = await stored_match(cluster.database, match_id)
    state = GAME.new_game(match["options"], 2, bytes.fromhex(match["seed"]))
    expect = Expect(GAME, state, (0, 1))
    for version in range(1, 5):
        seat = min(GAME.to_act(state))
        action = GAME.legal_actions(state, seat)[0]
        pair = sockets[seat]
        await asyncio.gather(*(client.act(action) for client in pair))
        await asyncio.gather(*(gate.waiting(server, version) for server in (one, two)))
        gate.allow(version)
        state, events = GAME.apply(state, seat, action)
        expect.step(state, events)
        heard = await asyncio.gather(*(frames_until(client, expect.public) for client in pair))
        errors = [f["code"] for frames in heard for f in frames if f["type"] == "error"]
        assert len(errors) == 1 and errors[0] in {"stale_prompt", "already_played"}, heard
        for client in pair:  # both show the state after the one applied answer
            assert client.last["version"] == expect.public  # 0 after the hidden first answer
            assert client.last["view"] == GAME.view(state, seat)
        # The other seat's sockets (one per process; the pair above had this version on
        # both) get the update only if it can see a change: not for a first mulligan answer.
        others, other = dict(enumerate(sockets[1 - seat])), 1 - seat
        frames = await catch_up(others, expect, lambda _, other=other: other)
        assert_caught_up(others, frames, expect, lambda _, other=other: other)
        assert len(await stored_actions(cluster.database, match_id)) == version
    assert seq_races(cluster) == 4  # each version a race, settled by the database, not a lock


async def test_simultaneous_mulligans_on_two_processes_are_both_applied(cluster, clock,
                                                                        tmp_path):
    gate = StoreGate(tmp_path / "stores")
    one, two = await cluster.launch(2, **clocked(clock, TURN, **gate.env()))
    a, b = cluster.arena(one), cluster.arena(two)
    code, (ann, bob) = await seated([a, b], OPTIONS)
    clients = {0: await a.connect(code, ann["token"]), 1: await b.connect(code, bob["token"])}
    assert all(client.last["prompt"] for client in clients.values())  # both asked at once
    await asyncio.gather(*(client.act(KEEP) for client in clients.values()))
    await asyncio.gather(*(gate.waiting(server, 1) for server in (one, two)))  # both proposed
    gate.allow(math.inf)  # seq 1 for both: one stores it, the other catches up, then stores
    heard = await asyncio.gather(*(frames_until(client, 1) for client in clients.values()))
    assert [f for frames in heard for f in frames if f["type"] == "error"] == []
    match_id = clients[0].welcome["room"]["match_id"]
    stored = await stored_actions(cluster.database, match_id)
    assert sorted((row["seat"], row["action"]) for row in stored) == [(0, KEEP), (1, KEEP)]
    assert seq_races(cluster) == 1  # one process lost seq 1, caught up and stored seq 2
    match = await stored_match(cluster.database, match_id)
    state = GAME.new_game(match["options"], 2, bytes.fromhex(match["seed"]))
    for row in stored:
        state, _ = GAME.apply(state, row["seat"], row["action"])
    for seat, client in clients.items():
        assert client.last["view"] == GAME.view(state, seat)


async def test_a_clock_fires_once_with_two_processes(cluster, clock):
    one, two = await cluster.launch(2, **clocked(clock, TURN))
    a, b = cluster.arena(one), cluster.arena(two)
    code, (ann, bob) = await seated([a, b], OPTIONS)
    clients = {0: await a.connect(code, ann["token"]), 1: await b.connect(code, bob["token"]),
               "spectator on one": await a.connect(code),
               "spectator on two": await b.connect(code)}
    match_id = clients[0].welcome["room"]["match_id"]

    async def stored(count: int) -> bool:
        return len(await stored_actions(cluster.database, match_id)) == count

    clock.advance(TURN)  # both mulligan clocks run out
    await wait_until(lambda: stored(2), "both mulligan timeouts stored", timeout=15, every=0.05)
    clock.advance(TURN)  # then the first turn's
    await wait_until(lambda: stored(3), "the first turn's timeout stored", timeout=15,
                     every=0.05)
    rows = await stored_actions(cluster.database, match_id)
    match = await stored_match(cluster.database, match_id)
    state = GAME.new_game(match["options"], 2, bytes.fromhex(match["seed"]))
    expected = []
    for _ in range(3):  # the earliest deadline first, the lower seat on a tie
        seat = min(GAME.to_act(state))
        action = GAME.deadline_action(state, seat)
        expected.append((seat, action, True))
        state, _ = GAME.apply(state, seat, action)
    assert [(row["seat"], row["action"], row["timeout"]) for row in rows] == expected
    assert expected[:2] == [(0, KEEP, True), (1, KEEP, True)]
    public = replay_public(match, rows)[1]
    heard = await asyncio.gather(*(client.until_version(public) for client in clients.values()))
    for frames in heard:  # every viewer heard each timeout exactly once
        timeouts = [e["data"]["seat"] for f in frames for e in f["events"]
                    if e["kind"] == "timeout"]
        assert timeouts == [seat for seat, _, _ in expected]
    clock = {"game": "reverse_curse", "by": "clock"}
    fired = [await cluster.metric(server, "arena_actions_applied_total", **clock)
             for server in (one, two)]
    assert sum(fired) == 3  # each timeout stored by exactly one process
