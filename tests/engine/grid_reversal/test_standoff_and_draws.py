"""The standoff (rule 42, ruling "Standoff and end") and the draw rules before it."""

import pytest

from engine.core import IllegalAction
from engine.grid_reversal import GAME

from .boards import act, board, draw, fired, kinds, make

FULL = """
    b3 b3 b4 b3 b3
    b3 b3 b3 b3 b3
    b3 b3 b3 b3 b3
    a1 a1 a1 a1 a1
    a2 a1 a1 a1 a1
    a1 a1 a1 a1 a1
"""

END = {"type": "end_stage"}


def _standoff():
    """End round 5 on a full grid: the standoff begins."""
    state = make(FULL, turn=1, round=5, hands=(("1", "BOMB"), ("LIGHTNING",)), deck=("2", "3"))
    return act(state, 1, END)


def test_the_standoff_begins_when_nobody_can_place():
    state, events = _standoff()
    assert kinds(events) == ["stage_ended", "standoff_started", "round_started", "stage_started"]
    assert events[1].data == {"discarded": ["1", "BOMB", "LIGHTNING"]}
    assert state.standoff and state.round == 6 and state.turn == 0
    assert state.hands == ((), ()) and state.deck == ("2", "3")  # no more draws
    assert state.discard == ("1", "BOMB", "LIGHTNING")


def test_standoff_play_is_swaps_only():
    state, _ = _standoff()
    legal = GAME.legal_actions(state, 0)
    assert [a for a in legal if a["type"] != "standoff_swap"] == [{"type": "offer_draw"}, END]
    # 5 x 3 own cards: 12 horizontal, 10 vertical and 16 diagonal adjacent pairs.
    assert len(legal) - 2 == 38
    assert legal[0] == {"type": "standoff_swap", "cells": [[3, 0], [3, 1]]}


def test_third_repetition_of_a_standoff_position_draws():
    state, _ = _standoff()
    for _ in range(3):
        state, _ = act(state, state.turn, END)
    assert GAME.outcome(state) is None
    state, events = act(state, state.turn, END)
    assert kinds(events)[-1] == "game_over"
    assert GAME.outcome(state).reason == "repetition" and GAME.outcome(state).draw


def test_ten_standoff_stages_without_a_flip_draw():
    state, _ = _standoff()
    swaps = [[[4, 0], [4, 1]], [[4, 1], [4, 2]], [[4, 2], [4, 3]], [[4, 3], [4, 4]]]
    for cells in swaps:  # a moves its 2 along row 4; b passes; nothing can ever fire
        state, events = act(state, 0, {"type": "standoff_swap", "cells": cells})
        assert fired(events) == [] and state.turn == 1
        state, _ = act(state, 1, END)
    state, _ = act(state, 0, END)
    assert state.flipless == 9 and GAME.outcome(state) is None
    assert draw(state).splitlines()[4] == "a1 a1 a1 a1 a2"
    state, _ = act(state, 1, END)
    assert GAME.outcome(state).reason == "no_flip" and GAME.outcome(state).ranks == (1, 1)


STANDOFF_FLIP = """
    .  .  b2 .  .
    .  .  .  .  .
    .  .  .  b1 .
    a1 a2 b4 .  .
    .  a4 .  .  .
    .  .  a1 .  .
"""


def test_a_standoff_swap_fires_but_breakage_removes_nothing():
    state = make(STANDOFF_FLIP, standoff=True, flipless=4)
    state, events = act(state, 0, {"type": "standoff_swap", "cells": [[3, 1], [4, 1]]})
    assert fired(events) == [([[3, 1], [3, 0]], [[3, 2]])]
    assert "broken" not in kinds(events)
    assert draw(state) == board("""
        .  .  b2 .  .
        .  .  .  .  .
        .  .  .  b1 .
        a1 a4 a4 .  .
        .  a2 .  .  .
        .  .  a1 .  .
    """)  # b1 (2, 3) is alone but stays
    assert state.flipless == 0 and state.turn == 1 and state.phase == "stage"
    assert GAME.legal_actions(state, 1) == [{"type": "offer_draw"}, END]


def test_a_draw_offer_in_the_standoff():
    state = make(STANDOFF_FLIP, standoff=True)
    state, events = act(state, 0, {"type": "offer_draw"})
    assert GAME.to_act(state) == frozenset({1})
    assert GAME.legal_actions(state, 1) == [{"type": "accept_draw"}, {"type": "decline_draw"}]
    declined, _ = act(state, 1, {"type": "decline_draw"})
    assert GAME.to_act(declined) == frozenset({0})
    assert {"type": "offer_draw"} not in GAME.legal_actions(declined, 0)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(declined, 0, {"type": "offer_draw"})
    assert err.value.code == "draw_already_offered"
    accepted, _ = act(state, 1, {"type": "accept_draw"})
    assert GAME.outcome(accepted).reason == "agreement" and GAME.outcome(accepted).draw


def test_no_draw_offer_before_the_standoff():
    state = make(STANDOFF_FLIP)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "offer_draw"})
    assert err.value.code == "not_now"


QUIET = """
    . . b2 . .
    . . .  . .
    . . .  . .
    . . .  . .
    . . .  . .
    . . a3 . .
"""


def test_six_idle_stages_before_the_standoff_draw():
    state = make(QUIET, deck=("1",) * 8)
    for count in range(1, 6):
        state, _ = act(state, state.turn, END)
        assert state.idle == count and GAME.outcome(state) is None
    assert state.round == 3 and state.hands == (("1", "1", "1", "1"), ("1", "1", "1", "1"))
    state, _ = act(state, state.turn, END)
    assert GAME.outcome(state).reason == "idle" and GAME.outcome(state).draw


def test_a_placement_resets_the_idle_count():
    state = make(QUIET, hands=(("1",), ()), idle=5)
    state, _ = act(state, 0, {"type": "place", "card": "1", "cell": [4, 2]})
    state, _ = act(state, 0, END)
    assert state.idle == 0 and GAME.outcome(state) is None


def test_reaching_round_200_is_a_draw():
    state = make(QUIET, turn=1, round=199, deck=("1",) * 4)
    state, events = act(state, 1, END)
    assert kinds(events) == ["stage_ended", "round_started", "game_over"]
    assert state.round == 200 and GAME.outcome(state).reason == "round_limit"
    before = make(QUIET, turn=1, round=198, deck=("1",) * 4)
    before, _ = act(before, 1, END)
    assert before.round == 199 and GAME.outcome(before) is None and before.turn == 0
