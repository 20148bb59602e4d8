"""Replays: ``GET /api/matches/{id}/replay`` and the page ``/replay/{id}``."""

from __future__ import annotations

import json

from tests.app.conftest import SEED
from tests.app.rc import Replay
from tests.app.rc_play import match_id, play_out, seated_room

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
    assert steps[0] == {"step": 0, "seat": None, "action": None, "timeout": False,
                        "events": [], "view": plain(reference.view(None))}
    for number, (seat, action) in enumerate(log, start=1):
        reference.apply(seat, action)
        assert steps[number] == {"step": number, "seat": seat, "action": action,
                                 "timeout": False, "events": plain(reference.events_for(None)),
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
    page = await arena.http.get("/replay/1?step=3")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "/static/js/replay.js" in page.text
