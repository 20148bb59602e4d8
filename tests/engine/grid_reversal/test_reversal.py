"""Reversal (rules 21-23, ruling "Reversal"): firing pairs, hot cards, breadth-first chains,
spent pairs and what re-arms them, the win in mid-chain."""

from engine.grid_reversal import GAME
from engine.grid_reversal.grid import spent_pairs

from .boards import act, board, draw, fired, kinds, make, resolve_effect


def place(state, card, cell, seat=0):
    return act(state, seat, {"type": "place", "card": card, "cell": cell})


def test_a_firing_pair_flips_both_ends_of_its_line():
    state = make("""
        . . b2 . .
        . . .  . .
        . . .  . .
        b1 . a2 b4 .
        . . a4 . .
        . . a3 . .
    """, hands=(("3",), ()))
    state, events = place(state, "3", [3, 1])
    assert draw(state) == board("""
        . . b2 . .
        . . .  . .
        . . .  . .
        a1 a3 a2 a4 .
        . . a4 . .
        . . a3 . .
    """)
    # The end beyond the hot card (3, 1) flips first, then the end beyond its partner.
    assert fired(events) == [([[3, 1], [3, 2]], [[3, 0], [3, 3]])]
    assert spent_pairs(state) == [((3, 1), (3, 2))]
    assert GAME.view(state, None)["spent"] == [[[3, 1], [3, 2]]]


def test_only_pairs_with_a_hot_card_fire():
    # a1 (4, 1) + a4 (5, 1) add up to 5 with b3 past their line, but neither is hot.
    state = make("""
        . .  b2 . .
        . .  .  . .
        . .  .  . .
        b1 b3 . . .
        . a1 .  . .
        . a4 a3 . .
    """, hands=(("4",), ()))
    state, events = place(state, "4", [5, 3])
    assert fired(events) == []
    assert draw(state) == board("""
        . .  b2 . .
        . .  .  . .
        . .  .  . .
        b1 b3 . . .
        . a1 .  . .
        . a4 a3 a4 .
    """)


CHAIN = """
    .  .  b4 .  .
    a3 b2 b1 .  b3
    .  a4 .  .  a1
    .  b1 .  a2 b4
    .  .  .  .  .
    .  .  a1 .  .
"""


def test_a_chain_of_three_waves_flips_breadth_first():
    state, events = place(make(CHAIN, hands=(("3",), ())), "3", [3, 2])
    assert fired(events) == [
        ([[3, 2], [3, 3]], [[3, 1], [3, 4]]),  # wave 1: the placed card
        ([[3, 1], [2, 1]], [[1, 1]]),           # wave 2, row-major: (3, 1) before (3, 4)
        ([[3, 4], [2, 4]], [[1, 4]]),
        ([[1, 1], [1, 0]], [[1, 2]]),           # wave 3: (1, 1); (1, 4) has no partner
        ([[1, 2], [2, 1]], []),                 # wave 4: fires, flips nothing
    ]
    assert [e.data["wave"] for e in events if e.kind == "fired"] == [1, 2, 2, 3, 4]
    assert draw(state) == board("""
        .  .  b4 .  .
        a3 a2 a1 .  a3
        .  a4 .  .  a1
        .  a1 a3 a2 a4
        .  .  .  .  .
        .  .  a1 .  .
    """)
    # A pair that flipped nothing ((1, 2)-(2, 1)) does not become spent.
    assert spent_pairs(state) == [((1, 0), (1, 1)), ((2, 1), (3, 1)), ((2, 4), (3, 4)),
                                  ((3, 2), (3, 3))]
    assert kinds(events) == ["placed"] + ["fired"] * 5
    assert state.busy and state.flipped


FLIPPED_BACK = """
    . .  b4 .  .
    . .  .  .  .
    . .  .  b1 .
    . b3 a2 b4 .
    . .  .  .  .
    . a1 a2 .  .
"""


def _flip_back():
    # (3, 1) and (3, 2) fired together earlier; b has since flipped (3, 1).
    state = make(FLIPPED_BACK, hands=(("4", "SWAP"), ()), spent=[((3, 1), (3, 2))])
    return place(state, "4", [4, 1])


def test_a_spent_pair_stays_spent_when_flipped_away_and_back():
    state, events = _flip_back()
    # a4 + a1 flip (3, 1) back; it is hot, but with a2 it is still a spent pair: no firing,
    # so b4 on (3, 3) stays.
    assert fired(events) == [([[4, 1], [5, 1]], [[3, 1]])]
    assert draw(state) == board("""
        . .  b4 .  .
        . .  .  .  .
        . .  .  b1 .
        . a3 a2 b4 .
        . a4 .  .  .
        . a1 a2 .  .
    """)
    assert spent_pairs(state) == [((3, 1), (3, 2)), ((4, 1), (5, 1))]


def test_a_spent_pair_fires_again_after_a_swap():
    state, _ = _flip_back()
    state, events = resolve_effect(state, 0, {"type": "swap_cells", "cells": [[3, 1], [3, 2]]})
    # Both moved cards are hot and no longer spent: a2 (3, 1) + a3 (3, 2) fire.
    assert fired(events) == [([[3, 1], [3, 2]], [[3, 3]])]
    assert draw(state) == board("""
        . .  b4 .  .
        . .  .  .  .
        . .  .  .  .
        . a2 a3 a4 .
        . a4 .  .  .
        . a1 a2 .  .
    """)  # b1 (2, 3) lost its support: breakage after the chain
    assert kinds(events)[-1] == "broken"
    assert spent_pairs(state) == [((3, 1), (3, 2)), ((4, 1), (5, 1))]
    assert state.discard == ("SWAP", "1")


def test_super_add_a_refires_a_spent_pair():
    state = make("""
        . .  b2 .  .
        . .  .  .  .
        . .  .  b1 .
        . a3 a2 b4 .
        . a1 .  .  .
        . .  a2 .  .
    """, hands=(("SUPER_ADD",), ()), spent=[((3, 1), (3, 2))])
    legal = [a for a in GAME.legal_actions(state, 0) if a["type"].startswith("super_add")]
    assert legal == [{"type": "super_add_pair", "cells": [[3, 1], [3, 2]]}]
    state, events = resolve_effect(state, 0, legal[0])
    assert fired(events) == [([[3, 1], [3, 2]], [[3, 3]])]
    assert draw(state) == board("""
        . .  b2 .  .
        . .  .  .  .
        . .  .  .  .
        . a3 a2 a4 .
        . a1 .  .  .
        . .  a2 .  .
    """)
    assert spent_pairs(state) == [((3, 1), (3, 2))]


def test_super_add_b_fires_a_diagonal_line_of_three():
    state = make("""
        . .  b2 .  .
        . .  .  .  .
        . .  .  .  b1
        . .  .  a1 .
        . .  a1 .  .
        . a3 a2 .  .
    """, hands=(("SUPER_ADD",), ()))
    legal = [a for a in GAME.legal_actions(state, 0) if a["type"].startswith("super_add")]
    assert legal == [{"type": "super_add_line", "cells": [[3, 3], [4, 2], [5, 1]]}]
    state, events = resolve_effect(state, 0, legal[0])
    assert fired(events) == [([[3, 3], [4, 2], [5, 1]], [[2, 4]])]
    assert [e.data["spent"] for e in events if e.kind == "fired"] == [False]
    assert draw(state) == board("""
        . .  b2 .  .
        . .  .  .  .
        . .  .  .  a1
        . .  .  a1 .
        . .  a1 .  .
        . a3 a2 .  .
    """)
    assert state.spent == frozenset()


def test_flipping_the_mother_card_wins_in_mid_chain():
    state = make("""
        .  .  b3 .  .
        .  a1 b2 .  .
        .  .  a3 .  .
        .  .  b1 .  .
        .  .  .  .  .
        .  .  a4 .  .
    """, hands=(("4",), ()))
    state, events = place(state, "4", [1, 0])
    # Wave 2: a2 (1, 2) + a3 (2, 2) flip (0, 2) first: the game ends before (3, 2) flips.
    assert fired(events) == [([[1, 0], [1, 1]], [[1, 2]]), ([[1, 2], [2, 2]], [[0, 2]])]
    assert [e.data["mother_flipped"] for e in events if e.kind == "fired"] == [False, True]
    assert kinds(events) == ["placed", "fired", "fired", "game_over"]
    assert draw(state) == board("""
        .  .  a3 .  .
        a4 a1 a2 .  .
        .  .  a3 .  .
        .  .  b1 .  .
        .  .  .  .  .
        .  .  a4 .  .
    """)
    outcome = GAME.outcome(state)
    assert outcome.ranks == (1, 2) and outcome.reason == "mother_flipped"
    assert GAME.to_act(state) == frozenset()


def test_breakage_removes_an_isolated_card_but_never_a_mother_card():
    state = make("""
        .  .  b1 .  .
        .  b3 .  .  .
        b2 .  a2 .  .
        .  .  .  .  .
        .  .  .  .  .
        .  .  a4 .  .
    """, hands=(("3",), ()))
    state, events = place(state, "3", [3, 3])
    # Wave 2: the flipped a3 (1, 1) + a2 fire too, but nothing lies past (0, 0) or (3, 3).
    assert fired(events) == [([[3, 3], [2, 2]], [[1, 1]]), ([[1, 1], [2, 2]], [])]
    # b2 lost its only support and goes; b's mother card (0, 2) and a's (5, 2) stay alone.
    assert draw(state) == board("""
        .  .  b1 .  .
        .  a3 .  .  .
        .  .  a2 .  .
        .  .  .  a3 .
        .  .  .  .  .
        .  .  a4 .  .
    """)
    broken = [e.data for e in events if e.kind == "broken"]
    assert broken == [{"cells": [{"cell": [2, 0], "owner": 1, "value": 2}]}]
    assert state.discard == ("2",)
