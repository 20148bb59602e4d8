"""The Reverse Curse view (docs/protocol.md) and what each viewer may see (rulings "Hidden
information")."""

import json

from engine.core import Rng
from engine.reverse_curse import GAME
from engine.reverse_curse.cards import MONSTERS

from .helpers import make_state, new_match, play

D, E = "DOUBLE_BUBBLE", "ECHO_FLOW"
VEIL = MONSTERS[0]


def _state():
    return make_state([["+1", E], ["-1", "-2"]], turn=2, first_side="UP", set_no=2,
                      position=3, field=[(D, 0, False)], graveyard=["+3"], monsters=True,
                      energy=(1, 2), held=(VEIL, None), deck=["-3"] * 4)


def _expected(my_side, hands, field_card, viewer_mulligan=None):
    return {
        "game": "reverse_curse", "format": "1v1", "regulation": "full", "ko": 24,
        "max_sets": 6, "monsters": True, "sides": {"UP": [0], "DOWN": [1]},
        "my_side": my_side, "phase": "deployment", "set": 2, "turn": 2,
        "first_side": "UP", "side_to_act": "DOWN", "position": 3,
        "hands": hands, "hand_sizes": {"0": 2, "1": 2},
        "field": [{"turn": 1, "seat": 0, "side": "UP", "card": field_card, "face_up": False}],
        "graveyard": ["+3"], "deck_size": 4, "mulligan": viewer_mulligan,
        "energy": {"UP": 1, "DOWN": 2}, "held": {"UP": VEIL, "DOWN": None},
        "shop": None, "veiled": False, "history": [], "outcome": None,
    }


def test_player_views_show_own_hand_and_own_face_down_cards_only():
    state = _state()
    assert GAME.view(state, 0) == _expected("UP", {"0": ["+1", E]}, D)
    assert GAME.view(state, 1) == _expected("DOWN", {"1": ["-1", "-2"]}, None)


def test_spectator_sees_only_public_information():
    assert GAME.view(_state(), None) == _expected(None, {}, None)


def test_views_are_json_and_resolved_fields_become_public():
    field = [(c, i % 2, c[0] in "+-") for i, c in enumerate(
        ["+1", "-1"] * 4 + ["+1", D, "+1"])]
    state = make_state([[], ["-1"]], turn=12, field=field, deck=())
    state = play(state, 1, "-1")
    history = GAME.view(state, None)["history"]
    json.dumps(history)
    assert history[0]["field"][9] == {"card": D, "seat": 1, "side": "DOWN"}
    # -1 -> -1; +1 -> 0; DOUBLE -> 0; +1 -> 1; then +1 -1 four times -> 1
    assert history[0]["result"] == 1
    assert [s["total"] for s in history[0]["steps"]][:4] == [-1, 0, 0, 1]


def test_seeded_match_views_never_show_the_other_hand():
    state = new_match(b"view")
    for viewer in (0, 1):
        view = GAME.view(state, viewer)
        assert list(view["hands"]) == [str(viewer)]
        assert view["hand_sizes"] == {"0": 6, "1": 6} and view["deck_size"] == 12
        assert view["mulligan"] == {"mine": "pending"} and view["phase"] == "mulligan"
        assert view["turn"] == 0 and view["side_to_act"] is None


#: Set 3 of a half match, T1..T11 (T12 is DOWN's "-1"); seat 0 is UP and plays odd turns.
#: DOWN's DOUBLE_BUBBLE (T2) and UP's ECHO_FLOW (T7) are face-down.
LAST_FIELD = [("+1", 0, True), (D, 1, False), ("+2", 0, True), ("-1", 1, True),
              ("+1", 0, True), ("-1", 1, True), (E, 0, False), ("-2", 1, True),
              ("+1", 0, True), ("-1", 1, True), ("+3", 0, True)]


def _last_set():
    return make_state([[], ["-1"]], turn=12, set_no=3, position=2, regulation="half",
                      field=LAST_FIELD)


def _public_field():
    codes = [c for c, _, _ in LAST_FIELD] + ["-1"]
    return [{"turn": n + 1, "seat": n % 2, "side": "UP" if n % 2 == 0 else "DOWN",
             "card": code, "face_up": True} for n, code in enumerate(codes)]


def test_the_field_of_the_set_that_ended_the_match_is_face_up_for_everyone():
    before = GAME.view(_last_set(), None)["field"]
    assert [(e["card"], e["face_up"]) for e in before if e["turn"] in (2, 7)] == [
        (None, False), (None, False)]
    state = play(_last_set(), 1, "-1")
    # T12..T1: -1 → -1, +3 → 2, -1 → 1, +1 → 2, -2 → 0, ECHO (×2), -1 → -2, +1 → 0, -1 → -2,
    # +2 → 2, DOUBLE → 4, +1 → 6; position 2 + 6 = 8 after the last set: UP wins by decision.
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert (view["phase"], view["position"], view["history"][0]["result"]) == (
            "finished", 8, 6)
        assert view["outcome"]["reason"] == "decision"
        assert view["field"] == _public_field()
        # Nothing on a public field is hidden: a re-deal (leak tests) leaves it as it is.
        assert GAME.redeal(state, viewer, Rng(b"r")).field == state.field


def test_a_resign_mid_set_keeps_the_unresolved_field_hidden():
    state, _ = GAME.resign(_last_set(), 1)
    field = GAME.view(state, None)["field"]
    assert state.phase == "finished" and len(field) == 11
    assert [(e["turn"], e["card"], e["face_up"]) for e in field if not e["face_up"]] == [
        (2, None, False), (7, None, False)]
    assert GAME.view(state, 0)["field"][6]["card"] == E  # UP still sees its own ECHO_FLOW


def test_a_seat_the_match_does_not_have_gets_the_spectator_view():
    state = _state()
    assert GAME.view(state, 2) == GAME.view(state, -1) == _expected(None, {}, None)


def test_team_views_count_every_seats_hand_and_show_the_teams_hands():
    state = new_match(b"teams", format="3v3")  # the coin gives UP the even seats
    view = GAME.view(state, 3)
    assert view["my_side"] == "DOWN"
    assert view["sides"] == {"UP": [0, 2, 4], "DOWN": [1, 3, 5]}
    assert view["hand_sizes"] == {str(s): 2 for s in range(6)}
    assert {seat: len(hand) for seat, hand in view["hands"].items()} == {"1": 2, "3": 2, "5": 2}
