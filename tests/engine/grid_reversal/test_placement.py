"""Placement (rule 11 相互支撑): legal cells, refusals, hot placed card; Lightning."""

import pytest

from engine.core import IllegalAction
from engine.grid_reversal import GAME

from .boards import act, board, draw, make, resolve_effect

START = """
    . . b2 . .
    . . .  . .
    . . .  . .
    . . .  . b3
    . . .  . b1
    . . a3 . .
"""


def test_legal_cells_are_empty_cells_next_to_own_cards():
    state = make(START, hands=(("1", "4"), ()))
    places = [(a["card"], a["cell"]) for a in GAME.legal_actions(state, 0)
              if a["type"] == "place"]
    cells = [[4, 1], [4, 2], [4, 3], [5, 1], [5, 3]]  # the 8-neighbourhood of (5, 2)
    assert places == [("1", c) for c in cells] + [("4", c) for c in cells]
    assert GAME.legal_actions(state, 0)[-1] == {"type": "end_stage"}


@pytest.mark.parametrize("action, code", [
    ({"type": "place", "card": "1", "cell": [3, 2]}, "cell_not_supported"),
    ({"type": "place", "card": "1", "cell": [3, 3]}, "cell_not_supported"),  # next to b cards only
    ({"type": "place", "card": "1", "cell": [5, 2]}, "cell_occupied"),
    ({"type": "place", "card": "1", "cell": [6, 2]}, "off_grid"),
    ({"type": "place", "card": "2", "cell": [4, 2]}, "card_not_in_hand"),
    ({"type": "place", "card": "BOMB", "cell": [4, 2]}, "card_not_in_hand"),
])
def test_illegal_placements_are_refused_with_a_code(action, code):
    state = make(START, hands=(("1", "4"), ()))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, action)
    assert err.value.code == code


def test_the_opponent_cannot_place_in_my_stage():
    state = make(START, hands=(("1",), ("1",)))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, {"type": "place", "card": "1", "cell": [1, 2]})
    assert err.value.code == "not_your_turn"


def test_one_placement_per_stage():
    state = make(START, hands=(("1", "4"), ()))
    state, events = act(state, 0, {"type": "place", "card": "4", "cell": [4, 2]})
    assert [e.kind for e in events] == ["placed"]
    assert draw(state) == board("""
        . . b2 . .
        . . .  . .
        . . .  . .
        . . .  . b3
        . . a4 . b1
        . . a3 . .
    """)
    assert state.hands[0] == ("1",)
    assert [a["type"] for a in GAME.legal_actions(state, 0)] == ["end_stage"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "place", "card": "1", "cell": [3, 2]})
    assert err.value.code == "no_placement_left"


def test_lightning_allows_exactly_two_placements():
    state = make(START, hands=(("1", "2", "4", "LIGHTNING"), ()))
    state, _ = resolve_effect(state, 0, {"type": "lightning"})
    assert state.placements == 2
    state, _ = act(state, 0, {"type": "place", "card": "4", "cell": [4, 2]})
    state, _ = act(state, 0, {"type": "place", "card": "2", "cell": [3, 2]})
    assert state.hands[0] == ("1",)
    assert [a["type"] for a in GAME.legal_actions(state, 0)] == ["end_stage"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "place", "card": "1", "cell": [2, 2]})
    assert err.value.code == "no_placement_left"
    assert draw(state) == board("""
        . . b2 . .
        . . .  . .
        . . .  . .
        . . a2 . b3
        . . a4 . b1
        . . a3 . .
    """)
