"""Reconnect, clock timeouts, resign, and a restart that loses nothing (with clock grace)."""

from __future__ import annotations

import httpx

from tests.app.conftest import SEED, Arena, make_app, serve, shutdown
from tests.app.rc import GAME, Replay
from tests.app.test_ws_errors import play_until_deployment, started

NO_MONSTERS = {"monsters": False}


async def test_reconnect_resumes_the_same_seat(arena):
    room, clients = await started(arena)
    ann = arena.players[0]
    before = clients[0].welcome
    await clients[0].socket.close()
    await clients[1].until_presence([1], 1)
    again = await arena.connect(room["code"], ann["token"])
    await clients[1].until_presence([0, 1], 1)
    assert again.welcome["seat"] == 0
    for key in ("version", "view", "prompt", "legal", "deadline", "clocks"):
        assert again.welcome[key] == before[key], key
    await again.act({"type": "mulligan", "card": None})
    assert (await again.next("update"))["version"] == 0  # a hidden answer: no public step
    assert await clients[2].settle() == []  # the spectator is not told of a hidden answer
    assert await arena.action_count(room["match_id"]) == 1


async def test_clock_timeout_plays_the_deadline_action(arena):
    room, clients = await started(arena)
    replay = Replay(NO_MONSTERS, SEED)
    assert clients[0].last["deadline"] == arena.clock.now() + 30
    arena.clock.advance(29)
    await arena.clock.looked()  # the clocks' timer saw 29 s: nothing due, nothing started
    assert [f for f in await clients[0].silent() if f["type"] == "update"] == []
    arena.clock.advance(1)
    # Both mulligan clocks run out at once: seat 0's fires first, then seat 1's (the frames
    # may cover both versions at once; together they carry every event once, in order).
    expected = []
    for seat in (0, 1):
        action = GAME.deadline_action(replay.state, seat)
        assert action == {"type": "mulligan", "card": None}
        replay.apply(seat, action)
        expected += [{"kind": "timeout", "data": {"seat": seat}}, *replay.events_for(None)]
    frames = await clients[2].until_version(2)
    assert [e for f in frames for e in f["events"]] == expected
    assert frames[-1]["view"] == replay.view(None)
    assert await arena.action_count(room["match_id"]) == 2
    seat = min(GAME.to_act(replay.state))
    await clients[seat].until_version(2)
    assert clients[seat].last["deadline"] == arena.clock.now() + 30


async def test_resign_ends_the_match(arena):
    room, clients = await started(arena)
    replay = Replay(NO_MONSTERS, SEED)
    await play_until_deployment(clients, replay)
    idle = 1 - min(GAME.to_act(replay.state))
    await clients[idle].send({"type": "act", "prompt": None, "action": {"type": "resign"}})
    replay.resign(idle)
    assert (replay.version, replay.public) == (3, 2)
    final = (await clients[2].until_version(2))[-1]
    assert final["view"] == replay.view(None)
    outcome = GAME.outcome(replay.state).to_json()
    assert final["view"]["outcome"] == outcome
    assert outcome["ranks"][idle] == 2 and outcome["ranks"][1 - idle] == 1
    assert final["room"]["status"] == "finished"
    detail = (await arena.http.get(f"/api/matches/{room['match_id']}")).json()
    assert detail["status"] == "finished" and detail["outcome"] == outcome
    assert detail["actions"][-1]["action"] == {"type": "resign"}
    assert detail["actions"][-1]["seat"] == idle
    await clients[1 - idle].act({"type": "resign"})
    assert (await clients[1 - idle].next("error"))["code"] == "game_over"


async def test_restart_replays_the_log_and_grants_clock_grace(db_path):
    from app.rooms.clocks import ManualClock
    clock = ManualClock()
    db = db_path
    server, task, base = await serve(make_app(db, clock))
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        arena = Arena(base, http, clock, None, db)
        ann, bob = await arena.player("Ann"), await arena.player("Bob")
        code = (await arena.room(ann, NO_MONSTERS))["code"]
        await arena.sit(code, 0, ann)
        await arena.sit(code, 1, bob)
        client = await arena.connect(code, ann["token"])
        await client.act({"type": "mulligan", "card": "+1"
                          if "+1" in client.last["view"]["hands"]["0"] else None})
        await client.next("update")
        await client.socket.close()
    await shutdown(server, task)

    clock.advance(600)  # the server was down long past the mulligan deadline
    app = make_app(db, clock)
    server, task, base = await serve(app)
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        arena = Arena(base, http, clock, app, db)
        replay = Replay(NO_MONSTERS, SEED)
        replay.apply(0, {"type": "mulligan", "card": "+1"
                         if "+1" in replay.view(0)["hands"]["0"] else None})
        bob_client = await arena.connect(code, bob["token"])
        assert bob_client.welcome["version"] == 0  # seat 0's hidden answer
        assert bob_client.welcome["view"] == replay.view(1)
        assert bob_client.welcome["deadline"] == clock.now() + 10  # the grace period
        clock.advance(10)
        replay.apply(1, GAME.deadline_action(replay.state, 1))
        frame = (await bob_client.until_version(1))[-1]
        assert frame["view"] == replay.view(1)
        assert frame["events"][0] == {"kind": "timeout", "data": {"seat": 1}}
        await bob_client.socket.close()
    await shutdown(server, task)
