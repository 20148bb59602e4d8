"""Splitting concealed cards into groups with the most 胡息 (rulings "胡息 table", last bullets).

The search works on a tuple of 20 face counts. Three identical concealed cards are a 坎 and are
never split; they are taken out before the search. The only other place three identical cards can
meet is the winning card completing a pair, which the caller scores through ``triple_kind``
(``peng``/``sao``/``guosao``/``guopeng``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from engine.zipai.cards import CODES, counts, parse_cards
from engine.zipai.groups import HUXI

Split = tuple[tuple[str, tuple[str, ...]], ...]   # ((kind, cards), ...)


def _score(kind: str, first_face: int) -> int:
    small, big = HUXI[kind]
    return big if first_face >= 10 else small


def _candidates(c: tuple[int, ...], i: int, pairs_left: int, triple_kind: str):
    """Yield (kind, faces) for every group that can hold the lowest remaining face ``i``."""
    if c[i] >= 3:
        yield triple_kind, (i, i, i)
    if c[i] >= 2 and pairs_left:
        yield "pair", (i, i)
    v = i % 10 + 1
    if v <= 8 and c[i + 1] and c[i + 2]:
        yield ("yi_er_san" if v == 1 else "shunzi"), (i, i + 1, i + 2)
    if v == 2 and c[i + 5] and c[i + 8]:
        yield "er_qi_shi", (i, i + 5, i + 8)
    if i < 10:
        other = i + 10
        if c[i] >= 2 and c[other]:
            yield "dada", (i, i, other)
        if c[other] >= 2:
            yield "dada", (i, other, other)


@lru_cache(maxsize=1 << 16)
def _best(c: tuple[int, ...], pairs_left: int, triple_kind: str) -> tuple[int, Split] | None:
    """Return (huxi, groups) of the best full split of counts ``c``, or None if none exists."""
    i = next((k for k in range(20) if c[k]), None)
    if i is None:
        return 0, ()
    best: tuple[int, Split] | None = None
    for kind, faces in _candidates(c, i, pairs_left, triple_kind):
        rest = list(c)
        for f in faces:
            rest[f] -= 1
        sub = _best(tuple(rest), pairs_left - (kind == "pair"), triple_kind)
        if sub is None:
            continue
        total = sub[0] + _score(kind, faces[0])
        if best is None or total > best[0]:
            best = total, ((kind, tuple(CODES[f] for f in faces)),) + sub[1]
    return best


def take_kans(cards: Sequence[str]) -> tuple[list[int], Split]:
    """Return (counts without the 坎, the 坎 groups) of concealed ``cards``.

    Raises:
        ValueError: if a face appears four or more times (a concealed hand never holds four).
    """
    c = counts(cards)
    kans = []
    for f, n in enumerate(c):
        if n >= 4:
            raise ValueError(f"Four copies of {CODES[f]} cannot be concealed (they are a 扫穿).")
        if n == 3:
            kans.append(("kan", (CODES[f],) * 3))
            c[f] = 0
    return c, tuple(kans)


def best_split(c: Sequence[int], pairs_left: int = 0,
               triple_kind: str = "kan") -> tuple[int, Split] | None:
    """Return (huxi, groups) of the best split of face counts ``c`` (no 坎 inside), or None.

    Args:
        c: 20 face counts still to split.
        pairs_left: how many pairs (将) may be used (1 only when the player has a 开舵/扫穿).
        triple_kind: how a triple found in ``c`` scores (the winning card completing a pair).
    """
    return _best(tuple(c), pairs_left, triple_kind)


def best_hand_huxi(cards: str | Sequence[str]) -> int | None:
    """Return the most 胡息 over all ways to split concealed ``cards`` wholly into groups of three.

    Three identical cards are a 坎 (3 small / 6 big) and are never split; no pair is allowed.
    Returns ``None`` when no full split exists; an empty input gives 0. Rule source: rulings
    "Public API" and "胡息 table" (the split with the most 胡息 counts).

    Raises:
        ValueError: on a bad card, or four or more copies of one face.
    """
    parsed = parse_cards(cards)
    rest, kans = take_kans(parsed)
    found = best_split(rest)
    if found is None:
        return None
    return found[0] + sum(_score("kan", CODES.index(g[1][0])) for g in kans)
