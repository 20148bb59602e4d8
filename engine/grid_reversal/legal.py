"""The one source of legality: every move a seat may make now, in a deterministic order.

``apply`` accepts a move only if it is listed here (``moves_of``); ``refusals.refusal`` only
explains a refusal with a stable code.
"""

from __future__ import annotations

from collections.abc import Callable

from .data import BAN, BOMB, LIGHTNING, NUMBER_CARDS, SUPER_ADD, SWAP, TARGET_SUM
from .grid import adjacent_own_pairs, own_cells, placement_cells, spent_pairs
from .moves import Move
from .state import DISCARD, DRAW_OFFER, MOTHER, OVER, RESPONSE, SETUP_DISCARD, STAGE, State

_FORWARD = ((0, 1), (1, -1), (1, 0), (1, 1))  # line directions that keep row-major order


def to_act(state: State) -> frozenset[int]:
    """Return the seats that may act now (both during the simultaneous setup choices)."""
    if state.phase == OVER:
        return frozenset()
    if state.phase in (MOTHER, SETUP_DISCARD):
        return frozenset(s for s in (0, 1) if state.choices[s] is None)
    if state.phase == RESPONSE:
        return frozenset({state.responder})  # type: ignore[arg-type]
    if state.phase == DRAW_OFFER:
        return frozenset({1 - state.turn})
    return frozenset({state.turn})


def _distinct(cards: tuple[str, ...], numbers_only: bool = False) -> list[str]:
    """Return each card code of ``cards`` once, in hand order (copies are interchangeable)."""
    seen = dict.fromkeys(c for c in cards if not numbers_only or c in NUMBER_CARDS)
    return list(seen)


def _place(state: State, seat: int) -> list[Move]:
    if state.placements < 1:
        return []
    cells = placement_cells(state, seat)
    return [Move("place", card, (cell,)) for card in _distinct(state.hands[seat], True)
            for cell in cells]


def _lightning(state: State, seat: int) -> list[Move]:
    return [Move("lightning")] if LIGHTNING in state.hands[seat] else []


def _bomb(state: State, seat: int) -> list[Move]:
    if BOMB not in state.hands[seat]:
        return []
    rows = state.layout.home_rows(state.is_first(seat))
    starts = state.layout.starts()
    return [Move("bomb", None, (cell,)) for cell, piece in zip(state.layout.cells(), state.grid)
            if piece is not None and cell[0] in rows and cell not in starts]


def _super_add_pair(state: State, seat: int) -> list[Move]:
    if SUPER_ADD not in state.hands[seat]:
        return []
    return [Move("super_add_pair", None, pair) for pair in spent_pairs(state, seat)]


def _super_add_line(state: State, seat: int) -> list[Move]:
    if SUPER_ADD not in state.hands[seat]:
        return []
    mine = set(own_cells(state, seat))
    out = []
    for a in sorted(mine):
        for dr, dc in _FORWARD:
            line = (a, (a[0] + dr, a[1] + dc), (a[0] + 2 * dr, a[1] + 2 * dc))
            if all(c in mine for c in line) and sum(
                    p.value for p in map(state.piece, line) if p is not None) == TARGET_SUM:
                out.append(Move("super_add_line", None, line))
    return sorted(out, key=lambda m: m.cells)


def _swap_cells(state: State, seat: int) -> list[Move]:
    if SWAP not in state.hands[seat]:
        return []
    return [Move("swap_cells", None, pair) for pair in adjacent_own_pairs(state, seat)]


def _swap_in(state: State, seat: int) -> list[Move]:
    if SWAP not in state.hands[seat]:
        return []
    cells = own_cells(state, seat)
    return [Move("swap_in", card, (cell,)) for cell in cells
            for card in _distinct(state.hands[seat], True)]


def _end_stage(state: State, seat: int) -> list[Move]:
    return [Move("end_stage")]


def _standoff_swap(state: State, seat: int) -> list[Move]:
    return [Move("standoff_swap", None, pair) for pair in adjacent_own_pairs(state, seat)]


def _offer_draw(state: State, seat: int) -> list[Move]:
    return [] if state.offered else [Move("offer_draw")]


_STAGE: dict[str, Callable[[State, int], list[Move]]] = {
    "place": _place, "lightning": _lightning, "bomb": _bomb,
    "super_add_pair": _super_add_pair, "super_add_line": _super_add_line,
    "swap_cells": _swap_cells, "swap_in": _swap_in, "end_stage": _end_stage,
}
_STANDOFF: dict[str, Callable[[State, int], list[Move]]] = {
    "standoff_swap": _standoff_swap, "offer_draw": _offer_draw, "end_stage": _end_stage,
}


def generators(state: State) -> dict[str, Callable[[State, int], list[Move]]]:
    """Return the move generators of the current phase, by move type, in listing order."""
    if state.phase == MOTHER:
        return {"choose_mother": lambda s, seat: [
            Move("choose_mother", c) for c in _distinct(s.hands[seat], True)]}
    if state.phase in (SETUP_DISCARD, DISCARD):
        return {"discard": lambda s, seat: [Move("discard", c) for c in _distinct(s.hands[seat])]}
    if state.phase == STAGE:
        return _STANDOFF if state.standoff else _STAGE
    if state.phase == RESPONSE:
        return {"ban": lambda s, seat: [Move("ban")] if BAN in s.hands[seat] else [],
                "decline": lambda s, seat: [Move("decline")]}
    if state.phase == DRAW_OFFER:
        return {"accept_draw": lambda s, seat: [Move("accept_draw")],
                "decline_draw": lambda s, seat: [Move("decline_draw")]}
    return {}


def moves_of(state: State, seat: int, kind: str) -> list[Move]:
    """Return the legal moves of type ``kind`` for ``seat`` (empty if not its decision)."""
    if seat not in to_act(state):
        return []
    generator = generators(state).get(kind)
    return generator(state, seat) if generator else []


def legal_moves(state: State, seat: int) -> list[Move]:
    """Return every legal move of ``seat``: grouped by type in a fixed order, then by card and
    cell (row-major). Empty when ``seat`` is not to act."""
    if seat not in to_act(state):
        return []
    return [m for gen in generators(state).values() for m in gen(state, seat)]
