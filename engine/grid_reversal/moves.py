"""Action shapes: the JSON actions of Grid Reversal and their immutable ``Move`` form.

Every action is ``{"type": ..., <fields>}`` with fields drawn from ``card`` (a card code),
``cell`` (``[row, col]``) and ``cells`` (a list of ``[row, col]``). ``parse`` checks the shape
only; whether a move is allowed is decided by ``legal.py`` alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import InvalidAction, action_type, require_keys

from .board import Cell

#: type -> (has card, has cell, number of cells in ``cells`` or 0).
SHAPES: dict[str, tuple[bool, bool, int]] = {
    "choose_mother": (True, False, 0),   # setup: the mother card for the S square
    "discard": (True, False, 0),         # setup / start of round: discard down to the limit
    "place": (True, True, 0),            # place a number card
    "lightning": (False, False, 0),      # 闪电
    "bomb": (False, True, 0),            # 炸弹 on a cell
    "super_add_pair": (False, False, 2),  # 超级加 (a): re-fire a spent pair
    "super_add_line": (False, False, 3),  # 超级加 (b): fire a line of three
    "swap_cells": (False, False, 2),     # 交换 (a): swap two adjacent own cards
    "swap_in": (True, True, 0),          # 交换 (b): replace an own card by a hand card
    "end_stage": (False, False, 0),
    "ban": (False, False, 0),            # 禁止, only in a response window
    "decline": (False, False, 0),        # let the effect (or Ban) stand
    "standoff_swap": (False, False, 2),  # 对峙: swap two adjacent own cards
    "offer_draw": (False, False, 0),
    "accept_draw": (False, False, 0),
    "decline_draw": (False, False, 0),
}

#: Types that play an effect card (and so open a Ban window).
EFFECT_TYPES: dict[str, str] = {
    "lightning": "LIGHTNING", "bomb": "BOMB", "super_add_pair": "SUPER_ADD",
    "super_add_line": "SUPER_ADD", "swap_cells": "SWAP", "swap_in": "SWAP",
}


@dataclass(frozen=True)
class Move:
    """One action in immutable form.

    Attributes:
        type: a key of ``SHAPES``.
        card: the card code for types that name a hand card, else ``None``.
        cells: the target cells as ``(row, col)`` tuples (one for ``cell`` types).
    """

    type: str
    card: str | None = None
    cells: tuple[Cell, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return the JSON action (the shape of a ``legal`` entry)."""
        has_card, has_cell, count = SHAPES[self.type]
        out: dict[str, Any] = {"type": self.type}
        if has_card:
            out["card"] = self.card
        if has_cell:
            out["cell"] = list(self.cells[0])
        if count:
            out["cells"] = [list(cell) for cell in self.cells]
        return out


def _cell(value: Any) -> Cell:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise InvalidAction("malformed_action", "A cell must be [row, col] with two whole numbers.")
    return (value[0], value[1])


def parse(action: Mapping[str, Any]) -> Move:
    """Return the ``Move`` of a JSON action.

    Raises:
        InvalidAction: ``malformed_action`` (not an object, missing/extra/mistyped field, bad
            cell) or ``unknown_action`` (a type this game does not have).
    """
    has_card, has_cell, count = SHAPES[action_type(action, SHAPES)]
    types: dict[str, type] = {}
    if has_card:
        types["card"] = str
    if has_cell:
        types["cell"] = list
    if count:
        types["cells"] = list
    require_keys(action, types)
    cells: tuple[Cell, ...] = ()
    if has_cell:
        cells = (_cell(action["cell"]),)
    if count:
        if len(action["cells"]) != count:
            raise InvalidAction("malformed_action", f"{action['type']} needs {count} cells.")
        cells = tuple(_cell(v) for v in action["cells"])
    return Move(action["type"], action.get("card") if has_card else None, cells)
