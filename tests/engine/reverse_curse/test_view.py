"""The Reverse Curse view (docs/protocol.md) and what each viewer may see (rulings "Hidden
information")."""

import json

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
