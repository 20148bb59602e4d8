"""Read-only questions about the grid of a state: own cards, support, placement cells, breakage.

All functions return cells in row-major order and never change the state.
"""

from __future__ import annotations

from .board import Cell, adjacent
from .data import TARGET_SUM
from .state import Piece, State


def own_cells(state: State, seat: int) -> list[Cell]:
    """Return the cells holding a card owned by ``seat``."""
    return [cell for cell, piece in zip(state.layout.cells(), state.grid)
            if piece is not None and piece.owner == seat]


def placement_cells(state: State, seat: int) -> list[Cell]:
    """Return the empty cells a number card of ``seat`` may be placed on: those in the
    8-neighbourhood of one of its own cards (rule 11 相互支撑, "Rounds")."""
    layout = state.layout
    return [cell for cell, piece in zip(layout.cells(), state.grid) if piece is None and any(
        (p := state.piece(n)) is not None and p.owner == seat for n in layout.neighbours(cell))]


def supported(state: State, cell: Cell) -> bool:
    """Return whether the card on ``cell`` has a same-owner card in its 8-neighbourhood."""
    owner = state.piece(cell).owner  # type: ignore[union-attr]
    return any((p := state.piece(n)) is not None and p.owner == owner
               for n in state.layout.neighbours(cell))


def broken_cells(state: State) -> list[Cell]:
    """Return the cards breakage removes (断裂, rule 12, TIPS 2-3): every card with no same-owner
    card in its 8-neighbourhood, except the two mother cards on the S squares.

    Removing an isolated card never isolates another (isolation is mutual), so one pass is final.
    """
    starts = state.layout.starts()
    return [cell for cell, piece in zip(state.layout.cells(), state.grid)
            if piece is not None and cell not in starts and not supported(state, cell)]


def adjacent_own_pairs(state: State, seat: int) -> list[tuple[Cell, Cell]]:
    """Return every pair ``(a, b)``, ``a`` before ``b`` row-major, of 8-adjacent cards of
    ``seat`` (the targets of Swap (a) and of a standoff swap)."""
    cells = own_cells(state, seat)
    return [(a, b) for i, a in enumerate(cells) for b in cells[i + 1:] if adjacent(a, b)]


def sums_to_target(*pieces: Piece) -> bool:
    """Return whether the values of ``pieces`` add up to 5 (rule 21 加5)."""
    return sum(p.value for p in pieces) == TARGET_SUM


def pair_key(a: Piece, b: Piece) -> tuple[int, int]:
    """Return the spent-pair key of two pieces (their ids, smaller first)."""
    return (a.id, b.id) if a.id < b.id else (b.id, a.id)


def spent_pairs(state: State, seat: int | None = None) -> list[tuple[Cell, Cell]]:
    """Return the spent pairs on the grid as row-major ordered cell pairs, sorted; only those
    whose two cards ``seat`` owns when ``seat`` is given."""
    where = {piece.id: cell for cell, piece in zip(state.layout.cells(), state.grid)
             if piece is not None}
    pairs = []
    for a, b in state.spent:
        if a in where and b in where:
            ca, cb = sorted((where[a], where[b]))
            if seat is None or (state.piece(ca).owner == seat  # type: ignore[union-attr]
                                and state.piece(cb).owner == seat):  # type: ignore[union-attr]
                pairs.append((ca, cb))
    return sorted(pairs)
