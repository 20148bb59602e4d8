"""The greedy one-ply score of Zipai (used by ``engine.bots.ScoringBot``).

It reads only the seat's view (its own ``me.hand`` and the ``exposed`` card) and the candidate
action. 胡息 below are the rulings' table ("胡息 table"): a shown 碰 1 small / 3 big; an eaten
一二三 or 二七十 3 small / 6 big; any other eaten 顺子 or 大小三搭 0.

    hu                 1000                 (a win is always taken)
    kaiduo             9                    (开舵: forced when offered)
    peng               1 + 胡息 of the 碰
    chi                1 + 胡息 of the eaten group - 1 per 比 group it forces
    pass               0
    discard c          -links(c): the hand card with the fewest links goes first

``links(c)`` counts, over the other cards of the hand: 2 per copy of ``c``, 1 per card of the
same value in the other case, 1 per card of the same case whose value differs by 1 or 2, and 1
per card of the same case that completes 二七十 with ``c`` (both red values 2, 7, 10).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.zipai.cards import RED_VALUES, is_big, value

__all__ = ["score", "links", "eaten_huxi"]

WIN = 1000
KAIDUO = 9


def links(card: str, hand: Sequence[str]) -> int:
    """Return how many ties ``card`` has with the rest of ``hand`` (module docstring)."""
    rest = list(hand)
    if card in rest:
        rest.remove(card)
    total = 0
    for other in rest:
        same_case = is_big(other) == is_big(card)
        gap = abs(value(other) - value(card))
        if other == card:
            total += 2
        elif gap == 0:
            total += 1
        elif same_case and gap <= 2:
            total += 1
        elif same_case and {value(card), value(other)} <= RED_VALUES:
            total += 1
    return total


def eaten_huxi(cards: Sequence[str]) -> int:
    """Return the 胡息 of an eaten group of three cards (一二三/二七十 only; else 0)."""
    values = sorted(value(c) for c in cards)
    if len({is_big(c) for c in cards}) != 1 or values not in ([1, 2, 3], [2, 7, 10]):
        return 0
    return 6 if is_big(cards[0]) else 3


def score(view: Mapping[str, Any], action: Mapping[str, Any]) -> float:
    """Return the value of ``action`` for ``view["seat"]`` (table in the module docstring)."""
    kind = action["type"]
    if kind == "hu":
        return WIN
    if kind == "kaiduo":
        return KAIDUO
    if kind == "discard":
        return -links(action["card"], view["me"]["hand"])
    exposed = (view.get("exposed") or {}).get("card")
    if kind == "peng" and exposed:
        return 1 + (3 if is_big(exposed) else 1)
    if kind == "chi" and exposed:
        return 1 + eaten_huxi([*action["cards"], exposed]) - len(action.get("bi") or [])
    return 0
