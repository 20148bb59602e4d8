"""A whole seeded Reverse Curse 1v1 match over real websockets, watched by a spectator.

Both players play the first legal action of the lowest seat to act; the test replays the same
actions on the engine directly and checks that each viewer gets exactly the frames it must (an
``update`` only when it can see a change), that every frame equals the engine's per-viewer view
and events, that no frame shows a viewer a hand or a face-down card it may not see, and that
the stored history and ladder are exact.
"""

from __future__ import annotations

import hashlib

from engine.reverse_curse import ladder
from tests.app.conftest import SEED, auth
from tests.app.expect import assert_caught_up, catch_up
from tests.app.rc import GAME, Replay, assert_private
from tests.waiting import wait_until

# Checked by hand from the engine's trace (set 1 field resolved LIFO, T12 first:
# +3, -2, +1, +1, +1 → 4; ECHO → factor 2; -1 → 2; FLIP → -2; SIREN silences -2; -3×2 → -8;
# DOUBLE → -16). Sets 2–4 move +1, -1, -10: position -26 ≤ -24 is a K.O. for DOWN (seat 0).
SET_1_FIELD = ["DOUBLE_BUBBLE", "-3", "-2", "SILENCE_SIREN", "FLIP_TRAP", "-1", "ECHO_FLOW",
               "+1", "+1", "+1", "-2", "+3"]
RESULTS = [(1, -16, -16), (2, 1, -15), (3, -1, -16), (4, -10, -26)]
FINAL_OUTCOME = {"ranks": [1, 2], "reason": "ko", "winners": [0], "draw": False,
                 "detail": {"position": -26}}
ACTIONS = 70
#: The public version at the end: every action but the 4 hidden first mulligan answers.
PUBLIC = 66


async def test_whole_match_with_a_spectator(arena):
    ann, bob = await arena.player("Ann"), await arena.player("Bob")
    room = await arena.room(ann, {})
    code = room["code"]
    spectator = await arena.connect(code)
    assert (await arena.sit(code, 0, ann)).status_code == 200
    assert (await arena.sit(code, 1, bob)).status_code == 200
    players = {0: await arena.connect(code, ann["token"]),
               1: await arena.connect(code, bob["token"])}
    viewers = {0: players[0], 1: players[1], None: spectator}
    assert players[0].welcome["seat"] == 0 and players[1].welcome["seat"] == 1
    assert spectator.welcome["seat"] is None and spectator.welcome["view"] is None
    await spectator.until_version(0)

    replay = Replay({}, SEED)
    played, hidden = [], []
    for viewer, client in viewers.items():
        assert client.last["view"] == replay.view(viewer)
    while not replay.over:
        seat, action = replay.policy()
        assert players[seat].last["legal"] == GAME.legal_actions(replay.state, seat)
        await players[seat].act(action)
        replay.apply(seat, action)
        played.append({"seq": replay.version, "seat": seat, "action": action})
        heard = await catch_up(viewers, replay.expect)
        assert_caught_up(viewers, heard, replay.expect)
        for viewer, client in viewers.items():
            for frame in heard[viewer]:
                assert_private(frame, viewer)
            assert client.last["view"] == replay.view(viewer)
        if replay.heard != {0, 1, None}:
            hidden.append((replay.version, replay.heard))

    assert (replay.version, replay.public) == (ACTIONS, PUBLIC)
    # Only the first answer of each set's mulligan (seat 0, the lowest asked seat, answers
    # first) is hidden from the others: they got no frame for it (docs/security.md §2).
    assert hidden == [(p["seq"], {0}) for p in played
                      if p["action"]["type"] == "mulligan" and p["seat"] == 0]
    assert len(hidden) == len(RESULTS)
    final = spectator.last
    assert final["view"]["position"] == -26
    assert final["view"]["outcome"] == FINAL_OUTCOME
    assert final["room"]["status"] == "finished"
    assert final["legal"] == [] and final["prompt"] is None and final["clocks"] == {}
    assert GAME.outcome(replay.state).to_json() == FINAL_OUTCOME

    match_id = room_match = final["room"]["match_id"]
    page = (await arena.http.get("/api/matches", params={"player": bob["id"]})).json()
    assert page["next_cursor"] is None
    [summary] = page["items"]
    assert summary["id"] == room_match and summary["room_code"] == code
    assert summary["status"] == "finished" and summary["outcome"] == FINAL_OUTCOME
    ann_seat = {"player_id": ann["id"], "name": "Ann", "bot_level": None}
    bob_seat = {"player_id": bob["id"], "name": "Bob", "bot_level": None}
    assert summary["seats"] == [
        {"seat": 0, **ann_seat, "occupants": [{**ann_seat, "from_step": 1}]},
        {"seat": 1, **bob_seat, "occupants": [{**bob_seat, "from_step": 1}]}]

    detail = (await arena.http.get(f"/api/matches/{match_id}")).json()
    assert detail["seed"] == SEED.hex()
    assert detail["seed_commitment"] == hashlib.sha256(SEED).hexdigest()
    assert [{k: a[k] for k in ("seq", "seat", "action")} for a in detail["actions"]] == played
    assert detail["actions"][:2] == [
        {"seq": 1, "seat": 0, "player_id": ann["id"], "action": {"type": "mulligan", "card": None},
         "at": "2027-01-15T08:00:00+00:00"},
        {"seq": 2, "seat": 1, "player_id": bob["id"], "action": {"type": "mulligan", "card": None},
         "at": "2027-01-15T08:00:00+00:00"}]

    board = (await arena.http.get(f"/api/matches/{match_id}/ladder")).json()
    assert board["match_id"] == match_id
    assert [(s["set"], s["result"], s["position_after"]) for s in board["sets"]] == RESULTS
    assert [c["card"] for c in board["sets"][0]["field"]] == SET_1_FIELD
    assert [c["seat"] for c in board["sets"][0]["field"]] == [1, 0] * 6
    assert board["sets"][0]["first_side"] == "UP"
    assert board["sets"] == ladder(replay.state)

    # Once every socket left, the finished match leaves memory; a newcomer gets it replayed.
    for client in viewers.values():
        await client.socket.close()
    service = arena.app.state.arena.service
    await wait_until(lambda: service.port(code).match() is None, "the match let go")
    assert service.retained() == {"rooms": 0, "followed": 0, "clocks": 0, "seat_locks": 0}
    late = await arena.connect(code, bob["token"])
    assert (late.welcome["version"], late.welcome["seat"]) == (PUBLIC, 1)
    assert late.welcome["view"] == replay.view(1)


async def test_a_seat_cannot_be_claimed_once_the_match_runs(arena):
    ann, bob, cat = [await arena.player(n) for n in ("Ann", "Bob", "Cat")]
    room = await arena.room(ann, {})
    await arena.sit(room["code"], 0, ann)
    await arena.sit(room["code"], 1, bob)
    answer = await arena.http.post(f"/api/rooms/{room['code']}/seats/1", headers=auth(cat))
    assert answer.status_code == 409
    assert answer.json() == {"detail": {"code": "room_not_open",
                                        "message": "The room is not open any more."}}
