"""Group shapes (组牌) and the binding 胡息 table, plus 舵 (rulings "Groups", "胡息 table", "Scoring").

Group kinds used everywhere in the engine:

- concealed shapes found by splitting a hand: ``kan`` (坎, three identical in hand),
  ``yi_er_san`` (一二三/壹贰叁), ``er_qi_shi`` (二七十/贰柒拾), ``shunzi`` (other 顺子),
  ``dada`` (大小三搭), ``pair`` (将);
- origins of laid groups: ``chi`` and ``bi`` (吃 and its 比 groups, scored by their shape),
  ``peng`` (碰), ``sao`` (扫), ``guosao`` (过扫), ``kaiduo`` (开舵), ``saochuan`` (扫穿),
  ``guopeng`` (a 过碰 triple completed at the win, seed 4.1: scores 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.zipai.cards import FACE, is_big

# (small, big) 胡息 per kind: the binding table of the rulings.
HUXI: dict[str, tuple[int, int]] = {
    "yi_er_san": (3, 6),
    "er_qi_shi": (3, 6),
    "shunzi": (0, 0),
    "dada": (0, 0),
    "pair": (0, 0),
    "peng": (1, 3),
    "guopeng": (0, 0),
    "kan": (3, 6),
    "sao": (3, 6),
    "guosao": (3, 6),
    "kaiduo": (6, 9),
    "saochuan": (9, 12),
}
SHAPED_KINDS = frozenset({"chi", "bi"})
FOUR_KINDS = frozenset({"kaiduo", "saochuan"})
MIN_HUXI = 10


def shape(cards: Sequence[str]) -> str | None:
    """Return the shape of three cards that form a 吃-able group, else ``None``.

    Shapes: ``yi_er_san``, ``er_qi_shi``, ``shunzi`` (one case, consecutive values) and ``dada``
    (大小三搭: same value, two of one case and one of the other). Three identical cards are not a
    吃 shape (they are a 坎/碰/扫). Rule source: seed 2.组牌 items 1–4.

    Memoised on the sorted cards (at most C(22, 3) keys over the 20 faces): it is called for every
    candidate pair of every 吃 search.
    """
    if len(cards) != 3:
        return None
    return _sorted_shape(tuple(sorted(cards)))


@lru_cache(maxsize=4096)
def _sorted_shape(cards: tuple[str, str, str]) -> str | None:
    """``shape`` of three sorted card codes."""
    faces = sorted(FACE[c] for c in cards)
    values = [f % 10 + 1 for f in faces]
    cases = {f // 10 for f in faces}
    if len(cases) == 1:
        if values == [1, 2, 3]:
            return "yi_er_san"
        if values == [2, 7, 10]:
            return "er_qi_shi"
        if values[1] == values[0] + 1 and values[2] == values[1] + 1:
            return "shunzi"
        return None
    if len(set(values)) == 1:
        return "dada"
    return None


def huxi(kind: str, cards: Sequence[str]) -> int:
    """Return the 胡息 of one group of ``kind`` made of ``cards`` (binding 胡息 table).

    ``chi``/``bi`` groups score by their shape. The big column applies when the group's cards are
    big (for 大小三搭 both columns are 0).

    Raises:
        ValueError: for a ``chi``/``bi`` group whose cards form no shape, or an unknown kind.
    """
    if kind in SHAPED_KINDS:
        found = shape(cards)
        if found is None:
            raise ValueError(f"{list(cards)} is not a group.")
        kind = found
    if kind not in HUXI:
        raise ValueError(f"Unknown group kind {kind!r}.")
    small, big = HUXI[kind]
    return big if is_big(cards[0]) else small


def duo(total_huxi: int) -> int:
    """Return the 舵 for a winning 胡息 total: 1 + ⌊(胡息 − 10) / 3⌋ (seed 4.2).

    10–12 → 1, 13–15 → 2, 16–18 → 3, …

    Raises:
        ValueError: below the 10 胡息 minimum (seed 4.1), or for a non-integer.
    """
    if isinstance(total_huxi, bool) or not isinstance(total_huxi, int):
        raise ValueError("huxi must be an integer.")
    if total_huxi < MIN_HUXI:
        raise ValueError(f"A win needs at least {MIN_HUXI} huxi, got {total_huxi}.")
    return 1 + (total_huxi - MIN_HUXI) // 3
