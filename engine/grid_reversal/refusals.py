"""Stable codes explaining why a well-formed move is not in the legal list.

Only called after ``legal.py`` refused a move, so it never decides legality itself.
"""

from __future__ import annotations

from .data import NUMBER_CARDS
from .legal import generators, to_act
from .moves import EFFECT_TYPES, Move
from .state import OVER, State

_TARGET_CODES = {
    "place": "cell_not_supported",
    "bomb": "bomb_target_not_allowed",
    "super_add_pair": "not_a_spent_pair",
    "super_add_line": "not_a_firing_line",
    "swap_cells": "not_adjacent_own_cards",
    "standoff_swap": "not_adjacent_own_cards",
    "swap_in": "not_own_card",
    "offer_draw": "draw_already_offered",
    "choose_mother": "not_a_number_card",
}

_MESSAGES = {
    "game_over": "The match is over.",
    "not_your_turn": "It is not your decision now.",
    "not_now": "That kind of action is not possible now.",
    "card_not_in_hand": "You do not hold that card.",
    "off_grid": "That cell is not on the grid.",
    "no_placement_left": "You have no number placement left this stage.",
    "cell_occupied": "That cell already holds a card.",
    "not_a_number_card": "Only a number card can go there.",
    "cell_not_supported": "A card must be placed next to one of your own cards.",
    "bomb_target_not_allowed": "A Bomb hits a card on your own rows, never on an S square.",
    "not_a_spent_pair": "Super-Add (a) needs two of your cards that already fired together.",
    "not_a_firing_line": "Super-Add (b) needs three of your cards in a line adding up to 5.",
    "not_adjacent_own_cards": "Swap two of your own cards that touch each other.",
    "not_own_card": "Swap in over one of your own cards.",
    "draw_already_offered": "You already offered a draw this stage.",
    "not_allowed": "That action is not allowed now.",
}


def _card_code(state: State, seat: int, move: Move) -> str | None:
    hand = state.hands[seat]
    if move.type in EFFECT_TYPES and EFFECT_TYPES[move.type] not in hand:
        return "card_not_in_hand"
    if move.card is not None:
        if move.card not in hand:
            return "card_not_in_hand"
        if move.type in ("place", "swap_in", "choose_mother") and move.card not in NUMBER_CARDS:
            return "not_a_number_card"
    return None


def _cell_code(state: State, move: Move) -> str | None:
    if not all(state.layout.contains(c) for c in move.cells):
        return "off_grid"
    if move.type == "place":
        if state.placements < 1:
            return "no_placement_left"
        if state.piece(move.cells[0]) is not None:
            return "cell_occupied"
    return None


def refusal(state: State, seat: int, move: Move) -> tuple[str, str]:
    """Return ``(code, message)`` saying why ``move`` of ``seat`` is illegal now."""
    if state.phase == OVER:
        code = "game_over"
    elif seat not in to_act(state):
        code = "not_your_turn"
    elif move.type not in generators(state):
        code = "not_now"
    else:
        code = (_card_code(state, seat, move) or _cell_code(state, move)
                or _TARGET_CODES.get(move.type, "not_allowed"))
    return code, _MESSAGES[code]
