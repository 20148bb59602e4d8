"""The greedy one-ply score of Reverse Curse (used by ``engine.bots.ScoringBot``).

It reads only the seat's view and the candidate action. With ``sign`` = +1 for UP and -1 for
DOWN (rulings: a positive result moves the position toward UP's goal) and ``visible`` = the
field cards the view shows (face-up ones and the viewer's own side's face-down ones, T1 first;
the opponent's face-down cards are left out):

    play card c        sign * resolve(visible + [c])        the partial LIFO total with c on top
    summon             sign * resolve(visible) - 1          only when every card makes it worse
    mulligan card c    -sign * value(c) for a number card, 0 for a special card
    mulligan keep      0
    recruit            1,   pass 0                          (shop: take a monster when offered)
    choose_order       0                                    (either; the tie is drawn at random)

``resolve`` is the rulings' "LIFO resolution" (``engine.reverse_curse.resolution``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.reverse_curse.cards import NUMBER_VALUES
from engine.reverse_curse.resolution import resolve_stack
from engine.reverse_curse.state import UP

__all__ = ["score", "visible_field", "SUMMON_PENALTY"]

#: How much worse than the current partial total a summon is valued.
SUMMON_PENALTY = 1


def visible_field(view: Mapping[str, Any]) -> list[str]:
    """Return the field card codes the view shows, T1 first (hidden cards are skipped)."""
    return [entry["card"] for entry in view["field"] if entry["card"] is not None]


def _sign(view: Mapping[str, Any]) -> int:
    return 1 if view["my_side"] == UP else -1


def score(view: Mapping[str, Any], action: Mapping[str, Any]) -> float:
    """Return the value of ``action`` for the viewer's side (table in the module docstring).

    Args:
        view: the acting seat's view (``my_side`` is its side).
        action: one of that seat's legal actions.
    """
    kind, sign = action["type"], _sign(view)
    if kind == "play":
        return sign * resolve_stack([*visible_field(view), action["card"]])
    if kind == "summon":
        return sign * resolve_stack(visible_field(view)) - SUMMON_PENALTY
    if kind == "mulligan":
        return -sign * NUMBER_VALUES.get(action["card"], 0) if action["card"] else 0
    if kind == "recruit":
        return 1
    return 0
