"""A hidden simultaneous answer sends the others nothing (docs/security.md §2; ARCHITECTURE.md:
"who is being waited for … must not be visible to the others").

Reverse Curse mulligan: after one side answers, the other side and the spectator get no frame at
all (not even a probe with a stale prompt learns a new version); when the second answer closes
the window, everyone gets one update. Zipai claim window (the fixed seed's hand): when one of two
asked seats passes, the seat not asked, the other asked seat and the spectator get nothing; the
closing answer brings each of them one update whose version jumps over the pass.
"""

from __future__ import annotations

from engine.registry import GAMES
from tests.app.conftest import SEED
from tests.app.expect import Expect, assert_shown, catch_up
from tests.app.rc import Replay

KEEP = {"type": "mulligan", "card": None}
ZIPAI = GAMES["zipai"]
ZIPAI_OPTIONS = {"hands": 1}
#: The policy that brings the fixed seed's zipai hand to a two-seat claim window: the lowest
#: asked seat wins, else makes a 开舵/碰/吃 (the first listed), else plays its clock's choice.
PREFERENCE = ("hu", "kaiduo", "peng", "chi")
#: With that policy, action 7 is seat 2's draw of 陆 (d6): seat 0 may 吃 it (seat 2 is the
#: drawer, seat 0 the next seat: rulings "Deal and turn flow", 吃 on a draw by the drawer and
#: the next seat) and seat 2 may 吃 it too; seat 1 can neither 胡, 碰 nor 吃 it: not asked.
WINDOW_VERSION = 7
PASS = {"type": "pass"}


async def test_first_mulligan_answer_is_silent_for_the_others(arena):
    alice, bob = await arena.player("Alice"), await arena.player("Bob")
    code = (await arena.room(alice, {"monsters": False}))["code"]
    await arena.sit(code, 0, alice)
    await arena.sit(code, 1, bob)
    first, second = await arena.connect(code, alice["token"]), await arena.connect(code, bob["token"])
    spectator = await arena.connect(code)
    assert first.last["view"]["phase"] == second.last["view"]["phase"] == "mulligan"

    await first.act(KEEP)
    [answered] = await first.until_version(1)
    assert answered["legal"] == [] and answered["view"]["mulligan"] == {"mine": "kept"}
    assert [e["kind"] for e in answered["events"]] == ["mulligan_chosen"]
    assert await second.settle() == [] and await spectator.settle() == []

    # A probe with a made-up prompt gets stale_prompt and the resync, still at version 0.
    await second.send({"type": "act", "prompt": "1.1.99", "action": KEEP})
    assert (await second.next("error"))["code"] == "stale_prompt"
    resync = await second.next("update")
    assert (resync["version"], resync["events"]) == (0, [])
    assert resync["view"] == second.welcome["view"] and resync["prompt"] == second.welcome["prompt"]

    await second.act(KEEP)
    replay = Replay({"monsters": False}, SEED)
    replay.apply(0, KEEP)
    replay.apply(1, KEEP)
    for viewer, client in ((0, first), (1, second), (None, spectator)):
        [update] = await client.until_version(2)
        assert update["version"] == 2
        assert update["view"] == replay.view(viewer) and update["view"]["phase"] != "mulligan"
        # Version 1 sent the other side and the spectator nothing: their update carries only
        # version 2's events (the reveal), so the jump from 0 to 2 is all they learn.
        assert update["events"] == replay.events_for(viewer)
        assert await client.settle() == []


def _policy(state) -> tuple[int, dict]:
    """Return the lowest asked seat and its ``PREFERENCE`` answer (else its clock's choice)."""
    seat = min(ZIPAI.to_act(state))
    legal = ZIPAI.legal_actions(state, seat)
    for kind in PREFERENCE:
        for action in legal:
            if action["type"] == kind:
                return seat, action
    return seat, ZIPAI.deadline_action(state, seat)


async def _zipai_room(arena) -> dict:
    """Seat three new players in a one-hand zipai room; return ``{seat or None: client}``."""
    people = [await arena.player(name) for name in ("Ann", "Bob", "Cid")]
    code = (await arena.room(people[0], ZIPAI_OPTIONS, game="zipai"))["code"]
    for seat, person in enumerate(people):
        assert (await arena.sit(code, seat, person)).status_code == 200
    clients = {seat: await arena.connect(code, p["token"]) for seat, p in enumerate(people)}
    return {**clients, None: await arena.connect(code)}


async def _play(clients: dict, expect: Expect, state, seat: int, action: dict):
    """Play ``action`` for ``seat`` over its socket; catch every client up; return the state."""
    await clients[seat].act(action)
    state, events = ZIPAI.apply(state, seat, action)
    expect.step(state, events)
    await catch_up(clients, expect)
    for viewer, client in clients.items():
        assert_shown(client, expect, viewer)
    return state


async def test_a_seat_not_asked_hears_nothing_when_an_asked_seat_passes(arena):
    clients = await _zipai_room(arena)
    state = ZIPAI.new_game(ZIPAI.validate_options(ZIPAI_OPTIONS), 3, SEED)
    expect = Expect(ZIPAI, state, clients)
    while expect.version < WINDOW_VERSION:
        state = await _play(clients, expect, state, *_policy(state))
    assert ZIPAI.to_act(state) == {0, 2}
    assert clients[1].last["legal"] == [] and clients[1].last["view"]["me"]["claim"] is None
    for seat in (0, 2):
        assert clients[seat].last["view"]["me"]["claim"] == "asked"
        assert PASS in clients[seat].last["legal"]
    assert clients[None].last["view"]["exposed"] == {"card": "d6", "seat": 2, "source": "draw"}

    await clients[0].act(PASS)
    [answered] = await clients[0].until_version(WINDOW_VERSION + 1)
    assert answered["legal"] == [] and answered["events"] == []
    assert answered["view"]["me"]["claim"] == "answered"
    assert answered["view"]["claims_pending"] is True
    for viewer in (1, 2, None):  # not asked, still asked, spectator: no frame at all
        assert await clients[viewer].settle() == []
        assert clients[viewer].last["version"] == WINDOW_VERSION
    state, _ = ZIPAI.apply(state, 0, PASS)
    expect.step(state, [])
    assert expect.heard == {0}

    chi = {"type": "chi", "cards": ["d4", "d5"], "bi": []}  # 肆伍 + the drawn 陆
    assert chi in clients[2].last["legal"]
    await clients[2].act(chi)
    for viewer in (1, 2, None):  # one update each, jumping from version 7 to 9
        [update] = await clients[viewer].until_version(WINDOW_VERSION + 2)
        assert update["version"] == WINDOW_VERSION + 2
        assert update["view"]["claims_pending"] is False
        assert update["events"] == [{"kind": "claimed", "data": {
            "seat": 2, "kind": "chi", "cards": ["d4", "d5", "d6"], "bi": []}}]
    [closed] = await clients[0].until_version(WINDOW_VERSION + 2)
    assert closed["view"]["claims_pending"] is False
