"""Effect cards (ruling "Effect cards"): Bomb, Swap (b), the Ban window, Ban answering Ban."""

import pytest

from engine.core import IllegalAction
from engine.grid_reversal import GAME

from .boards import SWAP_BOARD, act, board, draw, fired, kinds, make, resolve_effect

BOMB_BOARD = """
    . .  b1 .  .
    . .  .  .  .
    . .  .  b2 .
    . a3 .  b4 .
    . a1 .  .  .
    . .  a2 .  .
"""


def test_bomb_targets_only_the_bombers_rows_and_never_an_s_square():
    state = make(BOMB_BOARD, hands=(("BOMB",), ("BOMB",)))
    bombs = [a["cell"] for a in GAME.legal_actions(state, 0) if a["type"] == "bomb"]
    assert bombs == [[3, 1], [3, 3], [4, 1]]
    for cell in ([2, 3], [5, 2], [4, 4]):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, 0, {"type": "bomb", "cell": cell})
        assert err.value.code == "bomb_target_not_allowed"
    second = make(BOMB_BOARD, hands=((), ("BOMB",)), turn=1)  # seat 1 owns rows 0-2
    assert [a["cell"] for a in GAME.legal_actions(second, 1) if a["type"] == "bomb"] == [[2, 3]]


def test_bomb_discards_the_card_then_breakage_at_once():
    state = make(BOMB_BOARD, hands=(("BOMB",), ()))
    state, events = resolve_effect(state, 0, {"type": "bomb", "cell": [3, 3]})
    assert kinds(events) == ["effect_played", "window_closed", "bombed", "broken"]
    assert draw(state) == board("""
        . .  b1 .  .
        . .  .  .  .
        . .  .  .  .
        . a3 .  .  .
        . a1 .  .  .
        . .  a2 .  .
    """)
    assert state.discard == ("BOMB", "4", "2")
    assert state.hands[0] == ()


def test_swap_b_sends_the_replaced_card_to_the_discard_pile():
    state = make(SWAP_BOARD, hands=(("2", "SWAP"), ()))
    state, events = resolve_effect(state, 0, {"type": "swap_in", "cell": [4, 1], "card": "2"})
    # The new a2 is hot and fires with a3: (5, 1) past it is empty, b4 (2, 1) past a3 flips.
    assert fired(events) == [([[4, 1], [3, 1]], [[2, 1]])]
    assert draw(state) == board("""
        . .  b1 .  .
        . b3 b2 .  .
        . a4 .  .  .
        . a3 .  .  .
        . a2 .  .  .
        . .  a4 .  .
    """)
    assert state.discard == ("SWAP", "1")
    assert state.hands[0] == ()


def test_swap_b_on_the_s_square_makes_a_new_mother_card():
    state = make(BOMB_BOARD, hands=(("4", "SWAP"), ()))
    state, _ = resolve_effect(state, 0, {"type": "swap_in", "cell": [5, 2], "card": "4"})
    assert GAME.view(state, 0)["grid"][5][2] == {"owner": 0, "value": 4, "mother": True}
    assert state.discard == ("SWAP", "2")


LIGHTNING_BOARD = """
    . . b2 . .
    . . b1 . .
    . . .  . .
    . . .  . .
    . . a1 . .
    . . a3 . .
"""


def test_the_ban_window_opens_whether_or_not_the_opponent_holds_a_ban():
    with_ban = make(LIGHTNING_BOARD, hands=(("LIGHTNING",), ("BAN",)))
    without = make(LIGHTNING_BOARD, hands=(("LIGHTNING",), ("3",)))
    after = []
    for state in (with_ban, without):
        state, events = act(state, 0, {"type": "lightning"})
        assert GAME.to_act(state) == frozenset({1})
        assert kinds(events) == ["effect_played"]
        after.append(state)
    assert GAME.legal_actions(after[0], 1) == [{"type": "ban"}, {"type": "decline"}]
    assert GAME.legal_actions(after[1], 1) == [{"type": "decline"}]
    assert GAME.view(after[0], 0) == GAME.view(after[1], 0)  # the window reveals nothing
    assert GAME.clock_seconds(after[0], 1) == 15


def test_ban_cancels_an_effect():
    state = make(LIGHTNING_BOARD, hands=(("LIGHTNING",), ("BAN",)))
    state, _ = act(state, 0, {"type": "lightning"})
    state, events = act(state, 1, {"type": "ban"})
    assert kinds(events) == ["banned"] and GAME.to_act(state) == frozenset({0})
    assert GAME.legal_actions(state, 0) == [{"type": "decline"}]
    state, events = act(state, 0, {"type": "decline"})
    assert events[0].data == {"card": "LIGHTNING", "bans": 1, "cancelled": True}
    assert state.placements == 1 and state.phase == "stage" and state.turn == 0
    assert state.discard == ("LIGHTNING", "BAN")


def test_ban_may_answer_ban():
    state = make(LIGHTNING_BOARD, hands=(("BAN", "LIGHTNING"), ("BAN",)))
    state, _ = act(state, 0, {"type": "lightning"})
    state, _ = act(state, 1, {"type": "ban"})
    state, _ = act(state, 0, {"type": "ban"})
    assert GAME.to_act(state) == frozenset({1})
    state, events = act(state, 1, {"type": "decline"})
    assert events[0].data == {"card": "LIGHTNING", "bans": 2, "cancelled": False}
    assert kinds(events) == ["window_closed", "lightning"]
    assert state.placements == 2
    assert state.discard == ("LIGHTNING", "BAN", "BAN")
    assert state.hands == ((), ())


def test_ban_is_not_an_action_of_its_own():
    state = make(LIGHTNING_BOARD, hands=(("BAN", "1"), ()))
    assert "ban" not in [a["type"] for a in GAME.legal_actions(state, 0)]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "ban"})
    assert err.value.code == "not_now"
    # A number placement opens no window.
    state, events = act(state, 0, {"type": "place", "card": "1", "cell": [4, 1]})
    assert GAME.to_act(state) == frozenset({0}) and "effect_played" not in kinds(events)


def test_swap_a_moving_the_mother_card_makes_a_new_mother_card():
    state = make("""
        . . b1 . .
        . . .  . .
        . . .  . .
        . . .  . .
        . . a3 . .
        . . a2 . .
    """, hands=(("SWAP",), ()))
    state, events = resolve_effect(state, 0, {"type": "swap_cells", "cells": [[4, 2], [5, 2]]})
    # Both moved cards are hot; a2 + a3 fire, but (3, 2) is empty and (6, 2) is off the grid.
    assert fired(events) == [([[4, 2], [5, 2]], [])]
    grid = GAME.view(state, 1)["grid"]
    assert grid[5][2] == {"owner": 0, "value": 3, "mother": True}
    assert grid[4][2] == {"owner": 0, "value": 2, "mother": False}
