"""Replays: ``GET /api/matches/{id}/replay`` and the page ``/replay/{id}``."""

from __future__ import annotations

import json

from engine.registry import GAMES
from tests.app.conftest import SEED
from tests.app.rc import Replay
from tests.app.rc_play import match_id, play_out, seated_room
from tests.waiting import wait_until

HALF = {"regulation": "half", "monsters": False}


def plain(data):
    """``data`` as it comes back from JSON (tuples become lists)."""
    return json.loads(json.dumps(data))


async def test_replay_steps_through_the_match_and_ends_on_the_recorded_outcome(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code, clients = await seated_room(arena, [ann, bob], HALF)
    match = match_id(clients)
    running = await arena.http.get(f"/api/matches/{match}/replay")
    assert running.status_code == 409
    assert running.json()["detail"]["code"] == "match_not_finished"
    log = await play_out(clients)
    detail = (await arena.http.get(f"/api/matches/{match}")).json()
    answer = await arena.http.get(f"/api/matches/{match}/replay")
    assert answer.status_code == 200
    replay = answer.json()
    assert (replay["id"], replay["room_code"], replay["viewer"]) == (match, code, None)
    assert (replay["seed"], replay["outcome"]) == (SEED.hex(), detail["outcome"])
    steps = replay["steps"]
    assert len(steps) == len(log) + 1 == len(detail["actions"]) + 1
    reference = Replay(HALF, SEED)
    assert steps[0] == {"step": 0, "seat": None, "player_id": None, "action": None,
                        "timeout": False, "forfeit": None, "events": [],
                        "view": plain(reference.view(None))}
    players = [ann["id"], bob["id"]]
    for number, (seat, action) in enumerate(log, start=1):
        reference.apply(seat, action)
        assert steps[number] == {"step": number, "seat": seat, "player_id": players[seat],
                                 "action": action, "timeout": False, "forfeit": None,
                                 "events": plain(reference.events_for(None)),
                                 "view": plain(reference.view(None))}
    assert steps[-1]["view"]["outcome"] == detail["outcome"]
    assert all(step["view"]["hands"] == {} for step in steps)  # the spectator sees no hand


async def test_a_seat_view_shows_that_players_hand_at_every_step(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    code, clients = await seated_room(arena, [ann, bob], HALF)
    log = await play_out(clients, limit=500)
    match = match_id(clients)
    replay = (await arena.http.get(f"/api/matches/{match}/replay?viewer=1")).json()
    reference = Replay(HALF, SEED)
    assert replay["viewer"] == 1
    assert replay["steps"][0]["view"]["hands"] == plain(reference.view(1))["hands"]
    assert set(replay["steps"][0]["view"]["hands"]) == {"1"}
    for number, (seat, action) in enumerate(log, start=1):
        reference.apply(seat, action)
        assert replay["steps"][number]["view"] == plain(reference.view(1))
    missing = await arena.http.get(f"/api/matches/{match}/replay?viewer=2")
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "no_such_seat"


async def test_unknown_match_and_the_page(arena):
    missing = await arena.http.get("/api/matches/999/replay")
    assert missing.status_code == 404
    assert missing.json()["detail"]["code"] == "match_not_found"
    page = await arena.http.get("/replay/1?step=3")  # no match 1: the page says so, with 404
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert "/static/js/replay.js" in page.text


async def test_a_clock_played_action_is_told_as_such_to_every_viewer(arena):
    """The fixed seed's zipai hand (tests/app/test_leaks_clocks.py): seat 1's clock discards 大拾
    (a public timeout), then seat 2's clock passes in the claim window, which in play only seat 2
    was told; seat 0 resigns. The replay tells both timeouts to every viewer."""
    people = [await arena.player(name) for name in ("Ann", "Bob", "Cat")]
    _, clients = await seated_room(arena, people, {"hands": 1}, game="zipai")
    match = match_id(clients)

    async def logged(count: int) -> None:
        async def done() -> bool:
            return await arena.action_count(match) == count
        await wait_until(done, f"{count} logged actions")

    for count in (1, 2):
        arena.clock.advance(20)  # turn_seconds' default: the clock plays the seat's decision
        await logged(count)
    await clients[0].send({"type": "act", "prompt": None, "action": {"type": "resign"}})
    await logged(3)
    game = GAMES["zipai"]
    state = game.new_game(game.validate_options({"hands": 1}), 3, SEED)
    played = [(1, {"type": "discard", "card": "d10"}, True), (2, {"type": "pass"}, True),
              (0, {"type": "resign"}, False)]
    told = []
    for seat, action, _ in played:
        state, events = (game.resign(state, seat) if action == {"type": "resign"}
                         else game.apply(state, seat, action))
        told.append(events)
    for viewer in (None, 0, 2):
        query = "" if viewer is None else f"?viewer={viewer}"
        steps = (await arena.http.get(f"/api/matches/{match}/replay{query}")).json()["steps"]
        expected = [{"step": number, "seat": seat, "action": action, "timeout": timeout,
                     "events": [{"kind": "timeout", "data": {"seat": seat}}] * timeout
                     + [plain(e.to_json()) for e in events if e.visible(viewer)]}
                    for number, ((seat, action, timeout), events) in enumerate(zip(played, told), 1)]
        assert [{key: step[key] for key in expected[0]} for step in steps[1:]] == expected, viewer
