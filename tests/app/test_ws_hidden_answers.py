"""A hidden simultaneous answer sends the others nothing (docs/security.md §2; ARCHITECTURE.md:
"who is being waited for … must not be visible to the others").

Reverse Curse mulligan: after one side answers, the other side and the spectator get no frame at
all (not even a probe with a stale prompt learns a new version); when the second answer closes
the window, everyone gets one update, one public version later. Zipai claim window (the fixed
seed's hand): when one of two asked seats passes, the seat not asked, the other asked seat and
the spectator get nothing; the closing answer brings each of them one update at the next public
version — the same +1 as a window with one asked seat, so the version does not tell how many
seats were asked (docs/security.md §2 "Version jumps"); a socket opened mid-window is welcomed
at the public version, and prompt ids do not tell the action count.
"""

from __future__ import annotations

from app.rooms.live import prompt_token
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
#: With that policy every action before it showed a spectator something: public version 7 too.
WINDOW_PUBLIC = 7
#: Action 1 (the same policy): seat 1 discarded 大拾 (d10); only seat 2 may claim it (碰): a
#: window with ONE asked seat (tests/app/test_leaks_clocks.py).
ONE_SEAT_VERSION = 1
PASS = {"type": "pass"}
#: The opaque part of two prompt ids (``prompt_token(SEED, seat, action count)``): seat 0's
#: decision in the window (began at action 7), seat 2's discard after its 吃 (began at action 9).
TOKEN_0_AT_7 = "ebdc718eb0a2361e"
TOKEN_2_AT_9 = "17e03d28632693df"


async def test_first_mulligan_answer_is_silent_for_the_others(arena):
    alice, bob = await arena.player("Alice"), await arena.player("Bob")
    code = (await arena.room(alice, {"monsters": False}))["code"]
    await arena.sit(code, 0, alice)
    await arena.sit(code, 1, bob)
    first, second = await arena.connect(code, alice["token"]), await arena.connect(code, bob["token"])
    spectator = await arena.connect(code)
    assert first.last["view"]["phase"] == second.last["view"]["phase"] == "mulligan"

    await first.act(KEEP)
    answered = await first.next("update")
    assert answered["version"] == 0  # a hidden answer does not advance the public version
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
    assert (replay.version, replay.public) == (2, 1)
    for viewer, client in ((0, first), (1, second), (None, spectator)):
        [update] = await client.until_version(1)
        assert update["version"] == 1  # +1 at the close, for both answers
        assert update["view"] == replay.view(viewer) and update["view"]["phase"] != "mulligan"
        # Action 1 sent the other side and the spectator nothing: their update carries only
        # action 2's events (the reveal).
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


async def _reach(clients: dict, version: int) -> tuple[Expect, object]:
    """Play the policy up to ``version`` actions; return the ``Expect`` and the state."""
    state = ZIPAI.new_game(ZIPAI.validate_options(ZIPAI_OPTIONS), 3, SEED)
    expect = Expect(ZIPAI, state, clients)
    while expect.version < version:
        state = await _play(clients, expect, state, *_policy(state))
    return expect, state


async def test_a_seat_not_asked_hears_nothing_when_an_asked_seat_passes(arena):
    clients = await _zipai_room(arena)
    expect, state = await _reach(clients, WINDOW_VERSION)
    assert ZIPAI.to_act(state) == {0, 2}
    assert expect.public == WINDOW_PUBLIC
    assert clients[1].last["legal"] == [] and clients[1].last["view"]["me"]["claim"] is None
    for seat in (0, 2):
        assert clients[seat].last["view"]["me"]["claim"] == "asked"
        assert PASS in clients[seat].last["legal"]
    assert clients[None].last["view"]["exposed"] == {"card": "d6", "seat": 2, "source": "draw",
                                                     "dihu": False}
    for viewer, client in clients.items():
        assert client.last["version"] == WINDOW_PUBLIC, viewer

    await clients[0].act(PASS)
    answered = await clients[0].next("update")
    assert answered["version"] == WINDOW_PUBLIC  # the pass shows a spectator nothing
    assert answered["legal"] == [] and answered["events"] == []
    assert answered["view"]["me"]["claim"] == "answered"
    assert answered["view"]["claims_pending"] is True
    for viewer in (1, 2, None):  # not asked, still asked, spectator: no frame at all
        assert await clients[viewer].settle() == []
        assert clients[viewer].last["version"] == WINDOW_PUBLIC
    state, _ = ZIPAI.apply(state, 0, PASS)
    expect.step(state, [])
    assert (expect.heard, expect.version, expect.public) == ({0}, WINDOW_VERSION + 1,
                                                            WINDOW_PUBLIC)
    # A probe by the seat still asked (a made-up prompt) gets the resync at version 7 too.
    await clients[2].send({"type": "act", "prompt": "1.2.8", "action": PASS})
    assert (await clients[2].next("error"))["code"] == "stale_prompt"
    resync = await clients[2].next("update")
    assert (resync["version"], resync["events"]) == (WINDOW_PUBLIC, [])

    chi = {"type": "chi", "cards": ["d4", "d5"], "bi": []}  # 肆伍 + the drawn 陆
    assert chi in clients[2].last["legal"]
    await clients[2].act(chi)
    for viewer in (0, 1, 2, None):  # one update each, from public version 7 to 8
        [update] = await clients[viewer].until_version(WINDOW_PUBLIC + 1)
        assert update["version"] == WINDOW_PUBLIC + 1
        assert update["view"]["claims_pending"] is False
    for viewer in (1, 2, None):
        assert clients[viewer].last["events"] == [{"kind": "claimed", "data": {
            "seat": 2, "kind": "chi", "cards": ["d4", "d5", "d6"], "bi": []}}]


async def _unasked_versions(clients: dict, expect: Expect, state, asked: set[int]) -> list:
    """Let the asked seats answer the window as the policy does (the lowest seat first);
    return the versions the unasked seats and the spectator were shown: ``[opened, closed]``
    per viewer (each gets exactly one ``update``, at the close)."""
    unasked = [v for v in clients if v not in asked]
    opened = [clients[v].last["version"] for v in unasked]
    while ZIPAI.to_act(state) & asked and ZIPAI.view(state, None)["phase"] == "claim":
        state = await _play(clients, expect, state, *_policy(state))
    return [[before, clients[v].last["version"]] for before, v in zip(opened, unasked)]


async def test_a_window_adds_one_to_the_version_however_many_seats_were_asked(arena):
    clients = await _zipai_room(arena)
    expect, state = await _reach(clients, ONE_SEAT_VERSION)
    assert ZIPAI.to_act(state) == {2} and ZIPAI.to_act_is_public(state) is False
    one = await _unasked_versions(clients, expect, state, {2})
    assert one == [[1, 2], [1, 2], [1, 2]]  # seats 0, 1 and the spectator

    clients = await _zipai_room(arena)  # a second room: the same deal, the two-seat window
    expect, state = await _reach(clients, WINDOW_VERSION)
    two = await _unasked_versions(clients, expect, state, {0, 2})
    assert two == [[7, 8], [7, 8]]  # seat 1 and the spectator: +1, as with one asked seat
    assert (expect.version, expect.public) == (WINDOW_VERSION + 2, WINDOW_PUBLIC + 1)


async def test_a_socket_opened_mid_window_is_welcomed_at_the_public_version(arena):
    clients = await _zipai_room(arena)
    expect, state = await _reach(clients, WINDOW_VERSION)
    await clients[0].act(PASS)
    await clients[0].next("update")
    code = clients[None].welcome["room"]["code"]
    late = await arena.connect(code)
    assert late.welcome["version"] == WINDOW_PUBLIC  # not 8: the pass is not counted
    assert late.welcome["view"] == clients[None].last["view"]


async def test_prompt_ids_do_not_tell_the_action_count(arena):
    clients = await _zipai_room(arena)
    expect, state = await _reach(clients, WINDOW_VERSION)
    match = clients[0].welcome["room"]["match_id"]
    before = clients[0].last["prompt"]
    assert before == f"{match}.0.{TOKEN_0_AT_7}" == f"{match}.0.{prompt_token(SEED, 0, 7)}"
    await clients[0].act(PASS)
    await clients[0].next("update")
    chi = {"type": "chi", "cards": ["d4", "d5"], "bi": []}
    await clients[2].act(chi)
    [after] = await clients[2].until_version(WINDOW_PUBLIC + 1)
    assert after["prompt"] == f"{match}.2.{TOKEN_2_AT_9}"
    # Before: "<match>.0.7" and "<match>.2.9" (the action counts).
    assert (before, after["prompt"]) != (f"{match}.0.7", f"{match}.2.9")
