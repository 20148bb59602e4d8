"""Splitting concealed cards into groups with the most 胡息 (rulings "胡息 table", last bullets).

The search works on the 20 face counts, packed into one int (``pack``: 3 bits per face, face 0
lowest), so a state is a cheap cache key and taking a group out is one subtraction. Three
identical concealed cards are a 坎 and are taken out before the search (``take_kans``). The only
other place three identical cards can meet is the winning card completing a pair, which the
caller scores through ``triple_kind`` (``peng``/``sao``/``guosao``/``guopeng``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.zipai.cards import CODES, counts, parse_cards
from engine.zipai.groups import HUXI

Split = tuple[tuple[str, tuple[str, ...]], ...]   # ((kind, cards), ...)

FACES = 20
BITS = 3            # a face count is at most 4 (a 坎 plus the winning card), < 2 ** BITS
MASK = (1 << BITS) - 1


def pack(c: Sequence[int]) -> int:
    """Return the 20 face counts ``c`` (each 0..7) packed into one int, face ``f`` at bit 3·f."""
    return sum(n << (BITS * f) for f, n in enumerate(c))


def face_unit(face_index: int) -> int:
    """Return the packed value of one card of face ``face_index`` (add it to add that card)."""
    return 1 << (BITS * face_index)


def _score(kind: str, first_face: int) -> int:
    small, big = HUXI[kind]
    return big if first_face >= 10 else small


def _shape_templates(i: int) -> tuple[tuple[str, int, int, Split, tuple[tuple[int, int], ...]],
                                      ...]:
    """Return the 3-card shapes that can hold face ``i`` as their lowest face, in search order:
    ``(kind, 胡息, packed cards, ((kind, codes),), needed (bit shift, count) pairs)``; face
    ``i`` is listed only where it is needed twice (the search only asks for the lowest face
    held)."""
    out = []
    v = i % 10 + 1
    if v <= 8:
        out.append(("yi_er_san" if v == 1 else "shunzi", (i, i + 1, i + 2)))
    if v == 2:
        out.append(("er_qi_shi", (i, i + 5, i + 8)))
    if i < 10:
        out.append(("dada", (i, i, i + 10)))
        out.append(("dada", (i, i + 10, i + 10)))
    templates = []
    for kind, faces in out:
        need = {f: faces.count(f) for f in faces}
        if need[i] == 1:
            del need[i]         # face i is the lowest one held: there at least once
        templates.append((kind, _score(kind, i), sum(face_unit(f) for f in faces),
                          ((kind, tuple(CODES[f] for f in faces)),),
                          tuple((BITS * f, n) for f, n in sorted(need.items()))))
    return tuple(templates)


_SHAPES = tuple(_shape_templates(i) for i in range(FACES))
_TRIPLES = tuple((3 * face_unit(i), (CODES[i],) * 3) for i in range(FACES))
_PAIRS = tuple((2 * face_unit(i), ((("pair", (CODES[i],) * 2)),)) for i in range(FACES))


def best_packed(x: int, pairs_left: int = 0,
                triple_kind: str = "kan") -> tuple[int, Split] | None:
    """Return (huxi, groups) of the best full split of packed counts ``x`` (``pack``), or None
    if none exists (``best_split`` of packed counts).

    The lowest face present goes into one of its candidate groups, tried in the order triple,
    pair, 顺子/一二三, 二七十, 大小三搭 (two of this case), 大小三搭 (two of the other); the first
    split with the most 胡息 is kept. The rest of each candidate is searched through the
    memoised ``_best_rest``; the top call is not memoised (a win test is rarely
    repeated, and most fail at once, at the lowest face)."""
    if not x:
        return 0, ()
    i = ((x & -x).bit_length() - 1) // BITS
    shift = BITS * i
    n = (x >> shift) & MASK
    best: tuple[int, Split] | None = None
    if n >= 3:
        delta, cards = _TRIPLES[i]
        sub = _best_rest(x - delta, pairs_left, triple_kind)
        if sub is not None:
            best = sub[0] + _score(triple_kind, i), ((triple_kind, cards),) + sub[1]
    if n >= 2 and pairs_left:
        delta, pair = _PAIRS[i]
        sub = _best_rest(x - delta, pairs_left - 1, triple_kind)
        if sub is not None and (best is None or sub[0] > best[0]):
            best = sub[0], pair + sub[1]
    for _kind, score, delta, group, need in _SHAPES[i]:
        for at, count in need:
            if (x >> at) & MASK < count:
                break
        else:
            sub = _best_rest(x - delta, pairs_left, triple_kind)
            if sub is not None and (best is None or sub[0] + score > best[0]):
                best = sub[0] + score, group + sub[1]
    return best


_best_rest = lru_cache(maxsize=1 << 11)(best_packed)


def four_concealed(card: str) -> ValueError:
    """Return the error for a concealed hand holding four copies of ``card``."""
    return ValueError(f"Four copies of {card} cannot be concealed (they are a 扫穿).")


def take_kans(cards: Sequence[str]) -> tuple[list[int], Split]:
    """Return (counts without the 坎, the 坎 groups) of concealed ``cards``.

    Raises:
        ValueError: if a face appears four or more times (a concealed hand never holds four).
    """
    c = counts(cards)
    kans = []
    for f, n in enumerate(c):
        if n >= 4:
            raise four_concealed(CODES[f])
        if n == 3:
            kans.append(("kan", (CODES[f],) * 3))
            c[f] = 0
    return c, tuple(kans)


def best_split(c: Sequence[int], pairs_left: int = 0,
               triple_kind: str = "kan") -> tuple[int, Split] | None:
    """Return (huxi, groups) of the best split of face counts ``c`` (no 坎 inside), or None.

    Args:
        c: 20 face counts still to split (each 0..7).
        pairs_left: how many pairs (将) may be used (1 only when the player has a 开舵/扫穿).
        triple_kind: how a triple found in ``c`` scores (the winning card completing a pair).
    """
    return best_packed(pack(c), pairs_left, triple_kind)


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
