"""The greedy one-ply score of Grid Reversal (used by ``engine.bots.ScoringBot``).

It reads only the seat's view (``grid``, ``my_seat``) and the candidate action. ``flips`` is the
set of opponent cards the action's first wave of reversal would flip on the visible grid (rules
"Reversal": two own 8-adjacent cards summing to 5, one of them hot, flip the opponent cards one
cell past each end of their line; a Super-Add line of three fires the same way). Chains after
the first wave are not followed. With ``gain = 10 * len(flips)`` plus ``1000`` when a flipped
card is the opponent's mother card (an immediate win):

    place v at p           1 + gain of a hot v at p
    super_add_pair / line  gain of the pair or line - 0.5 (spends the card)
    swap_cells / swap_in   gain of the moved (hot) cards - 0.5
    standoff_swap          gain of the moved (hot) cards
    lightning              0.5          end_stage       0
    bomb                   -1           ban 1, decline  0
    offer_draw, accept_draw -2          decline_draw    0
    discard c              1 for a Bomb, else 0          choose_mother 0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.grid_reversal.data import BOMB, TARGET_SUM

__all__ = ["score", "first_wave", "FLIP_WEIGHT", "MOTHER_WIN"]

FLIP_WEIGHT = 10
MOTHER_WIN = 1000
Cell = tuple[int, int]
Grid = list[list[Mapping[str, Any] | None]]

_BASE = {"place": 1, "super_add_pair": -0.5, "super_add_line": -0.5, "swap_cells": -0.5,
         "swap_in": -0.5, "standoff_swap": 0, "lightning": 0.5, "end_stage": 0, "bomb": -1,
         "ban": 1, "decline": 0, "offer_draw": -2, "accept_draw": -2, "decline_draw": 0,
         "choose_mother": 0}
_NEIGHBOURS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def _piece(grid: Grid, cell: Cell) -> Mapping[str, Any] | None:
    r, c = cell
    if 0 <= r < len(grid) and 0 <= c < len(grid[0]):
        return grid[r][c]
    return None


def _ends(grid: Grid, me: int, line: Sequence[Cell]) -> set[Cell]:
    """Opponent cards one cell past each end of a straight ``line`` of cells."""
    (r0, c0), (r1, c1) = line[0], line[1]
    dr, dc = r1 - r0, c1 - c0
    last = line[-1]
    out = set()
    for cell in ((r0 - dr, c0 - dc), (last[0] + dr, last[1] + dc)):
        piece = _piece(grid, cell)
        if piece is not None and piece["owner"] != me:
            out.add(cell)
    return out


def first_wave(grid: Grid, me: int, hot: Sequence[Cell]) -> set[Cell]:
    """Return the opponent cells flipped by the pairs of the ``hot`` own cells on ``grid``."""
    flipped: set[Cell] = set()
    for cell in hot:
        piece = _piece(grid, cell)
        assert piece is not None, "a hot cell is on the grid"
        for dr, dc in _NEIGHBOURS:
            partner = (cell[0] + dr, cell[1] + dc)
            other = _piece(grid, partner)
            if (other is not None and other["owner"] == me
                    and piece["value"] + other["value"] == TARGET_SUM):
                flipped |= _ends(grid, me, (partner, cell))
    return flipped


def _gain(grid: Grid, flipped: set[Cell]) -> float:
    pieces = (grid[r][c] for r, c in flipped)
    mothers = any(piece is not None and piece["mother"] for piece in pieces)
    return FLIP_WEIGHT * len(flipped) + (MOTHER_WIN if mothers else 0)


def _with(grid: Grid, changes: Mapping[Cell, Mapping[str, Any]]) -> Grid:
    """Return a copy of ``grid`` with the given cells replaced."""
    rows = [list(row) for row in grid]
    for (r, c), piece in changes.items():
        rows[r][c] = piece
    return rows


def _after(grid: Grid, me: int, action: Mapping[str, Any]) -> tuple[Grid, list[Cell]] | None:
    """The grid after the action's own change and its hot cells (``None``: no reversal)."""
    kind = action["type"]
    cells = [tuple(c) for c in action.get("cells") or ([action["cell"]] if "cell" in action
                                                        else [])]
    if kind in ("place", "swap_in"):
        cell = cells[0]
        old = _piece(grid, cell) or {"mother": False}
        piece = {"owner": me, "value": int(action["card"]), "mother": old["mother"]}
        return _with(grid, {cell: piece}), [cell]
    if kind in ("swap_cells", "standoff_swap"):
        a, b = cells
        pa, pb = _piece(grid, a), _piece(grid, b)
        assert pa is not None and pb is not None, "swapped cells are on the grid"
        changed = {a: {**pa, "value": pb["value"]}, b: {**pb, "value": pa["value"]}}
        return _with(grid, changed), [a, b]
    return None


def score(view: Mapping[str, Any], action: Mapping[str, Any]) -> float:
    """Return the value of ``action`` for ``view["my_seat"]`` (table in the module docstring)."""
    kind, grid, me = action["type"], view["grid"], view["my_seat"]
    if kind == "discard":
        return 1 if action["card"] == BOMB else 0
    base = _BASE.get(kind, 0)
    if kind in ("super_add_pair", "super_add_line"):
        line = [tuple(c) for c in action["cells"]]
        return base + _gain(grid, _ends(grid, me, line))
    after = _after(grid, me, action)
    if after is None:
        return base
    new_grid, hot = after
    return base + _gain(new_grid, first_wave(new_grid, me, hot))
