"""Production mode: crashes and restarts of a server process and of Redis.

- SIGKILL mid-match, then restart: every action a client saw acknowledged is stored, the match
  rebuilt by replaying its log equals (engine ``dump``) the state before the crash, a clock that
  expired during the outage gets the restart grace, and reconnected clients finish the match;
- SIGTERM with an action in flight: the action is stored, clients are told to reconnect (1012);
- a Redis restart loses no action, and every client is brought to the current state.

Each test starts real server processes (``tests.app.prod_server``) on its own PostgreSQL
database and its own ``redis-server``. Clocks run on a ``FileClock`` the test moves, and an
action is held in flight at a ``StoreGate``: the tests wait on events (frames, log lines,
``/readyz``) with timeouts, never for a fixed time.
"""

from __future__ import annotations

import asyncio
import json
import math
import signal
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import websockets

from engine.registry import GAMES
from tests.app.conftest import Client
from tests.app.expect import Expect, assert_caught_up, catch_up
from tests.app.prod import (  # noqa: F401
    Cluster,
    StoreGate,
    clock,
    clocked,
    cluster,
    database,
    fetch,
    reach,
    redis_server,
    replay,
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
TURN, GRACE = 30, 3  # seconds: the clock of every decision, the restart grace


def viewer_of(key: Any) -> int | None:
    """Return the seat a client key stands for (``"spectator"`` watches: ``None``)."""
    return key if isinstance(key, int) else None


async def connect_all(arena, code: str, players: list[dict]) -> dict[Any, Client]:
    """Connect both players and a spectator to ``arena``'s process."""
    return {0: await arena.connect(code, players[0]["token"]),
            1: await arena.connect(code, players[1]["token"]),
            "spectator": await arena.connect(code)}


@dataclass
class Table:
    """A room's clients (keys 0, 1, ``"spectator"``) with the engine replayed next to them.

    ``expect`` says which clients must get an ``update`` after each action (a hidden mulligan
    answer sends the others nothing, docs/security.md §2); ``local``: every socket is on one
    server process (so the others can be checked to have got nothing, ``catch_up``).
    """

    clients: dict[Any, Client]
    state: Any
    expect: Expect
    local: bool


async def table_of(cluster: Cluster, clients: dict[Any, Client], match_id: int,
                   local: bool) -> Table:
    """Return the ``Table`` of ``clients``, at the stored log's end (which they were shown)."""
    match = await stored_match(cluster.database, match_id)
    stored = await stored_actions(cluster.database, match_id)
    state, public = replay_public(match, stored)
    return Table(clients, state, Expect(GAME, state, (0, 1, None), len(stored), public), local)


async def send_next(table: Table) -> None:
    """Send the lowest asked seat's first legal action and apply it to the engine (the
    clients are not waited for)."""
    seat = min(GAME.to_act(table.state))
    action = GAME.legal_actions(table.state, seat)[0]
    assert table.clients[seat].last["legal"][0] == action
    await table.clients[seat].act(action)
    table.state, events = GAME.apply(table.state, seat, action)
    table.expect.step(table.state, events)


async def catch_all_up(table: Table) -> dict[Any, list[dict]]:
    """Wait for the frames the newest version must bring; check them; return them by key."""
    frames = await catch_up(table.clients, table.expect, viewer_of, table.local)
    assert_caught_up(table.clients, frames, table.expect, viewer_of)
    return frames


async def play(table: Table, count: int,
               acked: list[tuple[Any, int, dict]] | None = None) -> None:
    """Play ``count`` actions (the lowest asked seat's first legal one), each brought to every
    client that must see it; record ``(client key, actions applied, view)`` of every update in
    ``acked``."""
    for _ in range(count):
        await send_next(table)
        for key, frames in (await catch_all_up(table)).items():
            if acked is not None:
                acked += [(key, table.expect.version, frame["view"]) for frame in frames]


async def play_out(table: Table) -> int:
    """Play until no seat is asked; return the final version."""
    while GAME.to_act(table.state):
        await play(table, 1)
    return table.expect.version


async def dump(server, code: str) -> dict[str, Any]:
    """Return ``{"version", "state"}`` of the room's match as ``server`` holds it."""
    async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
        answer = await http.get(f"/_test/rooms/{code}/dump")
        assert answer.status_code == 200, answer.text
        return answer.json()


async def test_sigkill_mid_match_then_restart(cluster: Cluster, clock):
    [server] = await cluster.launch(1, **clocked(clock, TURN,
                                                 ARENA_CLOCK_GRACE_SECONDS=str(GRACE)))
    arena = cluster.arena(server)
    code, players = await seated([arena], OPTIONS)
    clients = await connect_all(arena, code, players)
    match_id = clients[0].welcome["room"]["match_id"]
    acked: list[tuple[Any, int, dict]] = []
    await play(await table_of(cluster, clients, match_id, local=True), 6, acked)
    before = await dump(server, code)
    assert before["version"] == 6
    seat = min(s for s in (0, 1) if clients[s].last["legal"])
    await clients[seat].act(clients[seat].last["legal"][0])  # in flight when the process dies
    server.kill()
    [row] = await fetch(cluster.database, "SELECT deadlines FROM matches WHERE id = $1",
                        match_id)
    clock.set(max(json.loads(row["deadlines"]).values()) + 1)  # every stored clock runs out
    restarted = clock.now()  # the clock stands still from here until the test moves it
    server.start()
    await server.ready()
    match = await stored_match(cluster.database, match_id)
    stored = await stored_actions(cluster.database, match_id)
    assert len(stored) in (6, 7)  # the action in flight was stored, or not at all
    assert not any(row["timeout"] for row in stored)
    for key, actions, view in acked:  # everything acknowledged is in the log, as shown
        assert GAME.view(replay(match, stored[:actions]), viewer_of(key)) == view
    assert GAME.dump(replay(match, stored[:6])) == before["state"]
    after = await dump(server, code)
    assert after == {"version": len(stored), "state": GAME.dump(replay(match, stored))}

    clients = await connect_all(arena, code, players)
    welcome = clients["spectator"].welcome
    public = replay_public(match, stored)[1]
    assert (len(stored), public) in ((6, 5), (7, 6))  # one hidden (first mulligan) answer
    assert welcome["version"] == public
    assert set(welcome["clocks"].values()) == {restarted + GRACE}  # grace from the restart
    clock.advance(GRACE)
    frames = await clients["spectator"].until_version(public + 1)
    assert [e for f in frames for e in f["events"] if e["kind"] == "timeout"] == \
        [{"kind": "timeout", "data": {"seat": int(min(welcome["clocks"],
                                                      key=welcome["clocks"].get))}}]
    await reach(clients, public + 1)  # a timeout: public, every viewer is shown it
    # The clock stands still: no later decision runs out while the match is played out.
    final = await play_out(await table_of(cluster, clients, match_id, local=True))
    match = await stored_match(cluster.database, match_id)
    stored = await stored_actions(cluster.database, match_id)
    assert len(stored) == final and match["status"] == "finished"
    assert match["outcome"] == GAME.outcome(replay(match, stored)).to_json()


async def test_sigterm_finishes_the_action_in_flight_and_tells_clients_to_reconnect(
        cluster: Cluster, clock, tmp_path):
    gate = StoreGate(tmp_path / "stores")
    [server] = await cluster.launch(1, **clocked(clock, TURN, **gate.env()))
    arena = cluster.arena(server)
    code, players = await seated([arena], OPTIONS)
    clients = await connect_all(arena, code, players)
    match_id = clients[0].welcome["room"]["match_id"]
    await clients[0].act({"type": "mulligan", "card": None})
    await gate.waiting(server, 1)  # the action is in flight, held before its transaction
    server.process.send_signal(signal.SIGTERM)
    for client in clients.values():  # the shutdown began with the action still held
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await client.next()
        assert closed.value.rcvd.code == 1012  # service restart: reconnect
    assert server.process.poll() is None  # it waits for the action in flight
    gate.allow(math.inf)
    # uvicorn re-raises the signal once its graceful shutdown is done: "killed by SIGTERM".
    assert await asyncio.to_thread(server.process.wait, 20) == -signal.SIGTERM
    stored = await stored_actions(cluster.database, match_id)
    assert [(row["seat"], row["action"]) for row in stored] == \
        [(0, {"type": "mulligan", "card": None})]
    server.start()
    await server.ready()
    again = await arena.connect(code, players[1]["token"])
    # The stored answer is the mulligan's first: hidden, public version 0.
    assert again.welcome["version"] == 0 and again.welcome["prompt"] is not None


async def test_redis_restart_loses_no_action_and_clients_resync(cluster: Cluster):
    one, two = await cluster.launch(2)
    a, b = cluster.arena(one), cluster.arena(two)
    code, players = await seated([a, b], OPTIONS)
    clients = {0: await a.connect(code, players[0]["token"]),
               1: await b.connect(code, players[1]["token"]), "spectator": await b.connect(code)}
    match_id = clients[0].welcome["room"]["match_id"]
    table = await table_of(cluster, clients, match_id, local=False)
    await play(table, 2)
    cluster.redis.stop()
    await send_next(table)  # stored while Redis is down
    async with httpx.AsyncClient(timeout=10) as http:
        answer = await http.get(f"{one.base}/readyz")
        assert answer.status_code == 503 and answer.json()["checks"]["database"] == "ok"
        assert answer.json()["checks"]["redis"] != "ok"
        cluster.redis.start()
        await catch_all_up(table)  # each process resynced its sockets

        async def ready() -> bool:  # a process is ready once its resync was handled
            answers = [await http.get(f"{server.base}/readyz") for server in (one, two)]
            return all(answer.status_code == 200 for answer in answers)

        # Both: on a slow host the second process resubscribed later, and its resync's update
        # (clocks extended by the outage) reached its socket after the settle below.
        await wait_until(ready, "both processes ready once Redis answers", timeout=10,
                         every=0.1)
        for server in (one, two):
            answer = await http.get(f"{server.base}/readyz")
            assert answer.json() == {"status": "ready",
                                     "checks": {"database": "ok", "redis": "ok"}}
    for client in clients.values():  # the resync's updates (clocks extended by the outage)
        for frame in await client.settle():
            assert frame["version"] == table.expect.public
    match = await stored_match(cluster.database, match_id)
    stored = await stored_actions(cluster.database, match_id)
    assert len(stored) == 3
    for key, client in clients.items():
        assert client.last["view"] == GAME.view(replay(match, stored), viewer_of(key))
    await play(table, 2)  # and play goes on across both processes
    assert len(await stored_actions(cluster.database, match_id)) == 5
