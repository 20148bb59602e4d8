"""Winning shapes shared by both rule sets: decompositions, special shapes, waits and shanten.

Tiles are codes of ``engine.mahjong.tiles`` (no flowers). A *standard* hand is n sets — chows
(顺子) or pungs (刻子; a kong counts as a set) — and one pair (rulings, "Winning hands"). The
concealed part of a hand holds 14 − 3·k tiles when k sets are declared (claimed chows, pungs,
kongs and concealed kongs); only the number k of declared sets matters to a shape.

Shapes by rule set (rulings, "Winning hands"):
- ``hebei``: standard, seven pairs (七对, no declared set), thirteen orphans (十三幺).
- ``mcr``: those, plus the shapes of the official table that are not standard: 全不靠 (honors
  and knitted tiles), 七星不靠 (all seven honors with seven knitted tiles) and 组合龙 (the
  knitted straight 147/258/369 in three suits, plus a set — which may be declared — and a pair).

Results are memoised on the count tuples of each suit, so repeated calls are cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import permutations, product
from typing import NamedTuple

from engine.mahjong.tiles import KINDS, TERMINALS_AND_HONORS, counts

RULES = ("hebei", "mcr")
SETS_IN_HAND = 4
_GROUPS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))
_ORPHANS = tuple(KINDS.index(t) for t in TERMINALS_AND_HONORS)
_HONORS = tuple(range(27, 34))
_CACHE = 1 << 16


class Decomposition(NamedTuple):
    """One way to read concealed tiles as sets and a pair.

    ``pair`` is the pair's tile; ``sets`` holds ``("chow", lowest tile)`` and ``("pung", tile)``
    entries in tile order (a pung before a chow of the same tile).
    """

    pair: str
    sets: tuple[tuple[str, str], ...]


def _knitted_patterns() -> tuple[frozenset[int], ...]:
    """The six knitted straights: 147, 258, 369 spread over the three suits in any order."""
    out = []
    for starts in permutations((0, 1, 2)):
        out.append(frozenset(9 * s + start + step for s, start in enumerate(starts) for step in (0, 3, 6)))
    return tuple(out)


KNITTED_STRAIGHTS: tuple[frozenset[int], ...] = _knitted_patterns()


def check_rules(rules: str) -> None:
    """Raise ``ValueError`` unless ``rules`` is ``"hebei"`` or ``"mcr"``."""
    if rules not in RULES:
        raise ValueError(f"Unknown rules {rules!r}: expected 'hebei' or 'mcr'.")


# --- standard shape -------------------------------------------------------------------------


@lru_cache(maxsize=_CACHE)
def _group_sets(group: tuple[int, ...], chows: bool) -> tuple[tuple[tuple[int, bool], ...], ...]:
    """Every split of one suit's counts into sets; a set is (offset, is_chow), lowest first."""
    i = next((k for k, n in enumerate(group) if n), -1)
    if i < 0:
        return ((),)
    out: list[tuple[tuple[int, bool], ...]] = []
    n = group[i]
    for pungs in (0, 1):
        runs = n - 3 * pungs
        if runs < 0 or (runs and not (chows and i + 2 < len(group))):
            continue
        if runs and (group[i + 1] < runs or group[i + 2] < runs):
            continue
        rest = list(group)
        rest[i] = 0
        if runs:
            rest[i + 1] -= runs
            rest[i + 2] -= runs
        head = ((i, False),) * pungs + ((i, True),) * runs
        out.extend(head + tail for tail in _group_sets(tuple(rest), chows))
    return tuple(out)


@lru_cache(maxsize=_CACHE)
def _group_with_pair(group: tuple[int, ...], chows: bool) -> tuple[tuple[int, tuple[tuple[int, bool], ...]], ...]:
    """Every split of one suit's counts into a pair (offset) and sets."""
    out: list[tuple[int, tuple[tuple[int, bool], ...]]] = []
    for i, n in enumerate(group):
        if n >= 2:
            rest = list(group)
            rest[i] -= 2
            out.extend((i, sets) for sets in _group_sets(tuple(rest), chows))
    return tuple(out)


@lru_cache(maxsize=_CACHE)
def _group_ok(group: tuple[int, ...], chows: bool, pair: bool) -> bool:
    """Whether one suit's counts split into sets (and one pair when ``pair``)."""
    return bool(_group_with_pair(group, chows) if pair else _group_sets(group, chows))


def _split_groups(c: Sequence[int]) -> tuple[list[tuple[int, ...]], int] | None:
    """The four count groups and the index of the one that must hold the pair, or None."""
    groups = [tuple(c[lo:hi]) for lo, hi, _ in _GROUPS]
    residues = [sum(g) % 3 for g in groups]
    if sorted(residues) != [0, 0, 0, 2]:
        return None
    return groups, residues.index(2)


def _standard_counts(c: Sequence[int]) -> bool:
    """Whether 34 counts (3n+2 tiles) form n sets and one pair."""
    split = _split_groups(c)
    if split is None:
        return False
    groups, pair_group = split
    return all(_group_ok(g, _GROUPS[k][2], k == pair_group) for k, g in enumerate(groups))


def decompositions(tiles: Iterable[str]) -> list[Decomposition]:
    """Return every way concealed tiles of size 3n+2 split into n sets and one pair.

    Sets are chows or pungs (a concealed kong is a declared set, not part of ``tiles``). The
    list is empty when there is none, and for a size that is not 3n+2. Each distinct reading
    appears once: ``"111222333m55p"`` gives three chows, or three pungs, with the pair 5p.
    Rule source: rulings "Winning hands" (standard: four sets and one pair).

    Raises:
        ValueError: for a flower or a string that is not a tile code.
    """
    c = counts(tiles)
    split = _split_groups(c)
    if split is None:
        return []
    groups, pair_group = split
    per_group = []
    for k, group in enumerate(groups):
        lo, _, chows = _GROUPS[k]
        options: list[tuple[str | None, tuple[tuple[str, str], ...]]]
        if k == pair_group:
            options = [(KINDS[lo + p], _codes(lo, sets)) for p, sets in _group_with_pair(group, chows)]
        else:
            options = [(None, _codes(lo, sets)) for sets in _group_sets(group, chows)]
        if not options:
            return []
        per_group.append(options)
    out = []
    for combo in product(*per_group):
        pair = next(p for p, _ in combo if p is not None)
        out.append(Decomposition(pair, tuple(s for _, sets in combo for s in sets)))
    return out


def _codes(lo: int, sets: tuple[tuple[int, bool], ...]) -> tuple[tuple[str, str], ...]:
    return tuple(("chow" if chow else "pung", KINDS[lo + i]) for i, chow in sets)


# --- special shapes -------------------------------------------------------------------------


def is_seven_pairs(tiles: Iterable[str]) -> bool:
    """Return whether 14 concealed tiles are seven pairs (七对).

    Four identical tiles count as two pairs (rulings, "Winning hands").
    """
    c = counts(tiles)
    return sum(c) == 14 and all(n % 2 == 0 for n in c)


def is_thirteen_orphans(tiles: Iterable[str]) -> bool:
    """Return whether 14 tiles are thirteen orphans (十三幺): one of each terminal and honor plus
    one more of any of them (rulings, "Winning hands")."""
    return _orphan_counts(counts(tiles))


def _knitted_honor_counts(c: Sequence[int]) -> bool:
    if sum(c) != 14 or max(c) > 1:
        return False
    held = {i for i, n in enumerate(c) if n}
    return any(held <= pattern | set(_HONORS) for pattern in KNITTED_STRAIGHTS)


def is_honors_and_knitted(tiles: Iterable[str]) -> bool:
    """Return whether 14 tiles are 全不靠 (Lesser Honors and Knitted Tiles): 14 different tiles,
    each an honor or a tile of one knitted straight (147, 258, 369 in three different suits).
    Competition rules (official table, 12 points); concealed only."""
    return _knitted_honor_counts(counts(tiles))


def is_seven_honors_and_knitted(tiles: Iterable[str]) -> bool:
    """Return whether 14 tiles are 七星不靠 (Greater Honors and Knitted Tiles): 全不靠 with all
    seven honors. Competition rules (official table, 24 points); concealed only."""
    c = counts(tiles)
    return _knitted_honor_counts(c) and all(c[i] for i in _HONORS)


def knitted_straights(tiles: Iterable[str]) -> list[tuple[str, ...]]:
    """Return the knitted straights (组合龙: 147, 258, 369 in three different suits) of which the
    tiles hold every tile, each as its nine tiles in sort order (at most one can be held in a
    hand of 14)."""
    c = counts(tiles)
    return [tuple(KINDS[i] for i in sorted(p)) for p in KNITTED_STRAIGHTS if all(c[i] for i in p)]


def _knitted_straight_counts(c: Sequence[int], declared: int) -> bool:
    if declared > 1 or sum(c) != 14 - 3 * declared:
        return False
    for pattern in KNITTED_STRAIGHTS:
        if all(c[i] for i in pattern):
            rest = [n - (i in pattern) for i, n in enumerate(c)]
            if _standard_counts(rest):
                return True
    return False


def is_knitted_straight_hand(concealed: Iterable[str], exposed_sets: Sequence[object] = ()) -> bool:
    """Return whether a hand is 组合龙 with a set and a pair: a knitted straight in the concealed
    tiles, plus one set (concealed, or the one declared set) and a pair. Competition rules
    (official table, Knitted Straight 12 points). Only ``len(exposed_sets)`` is used."""
    return _knitted_straight_counts(counts(concealed), len(exposed_sets))


# --- complete hands and waits ---------------------------------------------------------------


def _complete_counts(c: Sequence[int], declared: int, rules: str) -> bool:
    if _standard_counts(c):
        return True
    if declared == 0 and sum(c) == 14:
        if all(n % 2 == 0 for n in c):
            return True
        if _orphan_counts(c):
            return True
        if rules == "mcr" and _knitted_honor_counts(c):
            return True
    return rules == "mcr" and _knitted_straight_counts(c, declared)


def _check_size(c: Sequence[int], exposed_sets: Sequence[object], extra: int) -> None:
    declared = len(exposed_sets)
    if declared > SETS_IN_HAND or sum(c) + extra != 14 - 3 * declared:
        raise ValueError(
            f"{sum(c)} concealed tiles with {declared} declared sets: "
            f"expected {14 - 3 * declared - extra}."
        )


def is_complete(concealed: Iterable[str], exposed_sets: Sequence[object], rules: str) -> bool:
    """Return whether a hand is a winning shape under ``rules`` (``"hebei"`` or ``"mcr"``).

    ``concealed``: the concealed tiles, winning tile included (14 − 3·k tiles). ``exposed_sets``:
    the k declared sets (claimed chows, pungs, kongs, concealed kongs); only their number is
    used. Shapes: rulings "Winning hands" (see the module docstring); the `mcr` 8-point minimum
    is not applied here.

    Raises:
        ValueError: for unknown rules, a flower or bad code, or a concealed size that does not
            match the declared sets.
    """
    check_rules(rules)
    c = counts(concealed)
    _check_size(c, exposed_sets, 0)
    return _complete_counts(c, len(exposed_sets), rules)


@lru_cache(maxsize=_CACHE)
def _winning_kinds(c: tuple[int, ...], declared: int, rules: str) -> frozenset[str]:
    """Each shape is tried only with the kinds that could complete it (see ``_shape_checks``)."""
    out = {KINDS[i] for i in _standard_waits(c)}
    work = list(c)
    for check, kinds in _shape_checks(c, declared, rules):
        for i in kinds:
            if KINDS[i] in out:
                continue
            work[i] += 1
            if check(work):
                out.add(KINDS[i])
            work[i] -= 1
    return frozenset(out)


def _shape_checks(c: Sequence[int], declared: int, rules: str) -> list:
    """(shape check on 34 counts, candidate kinds) for each special shape the hand could
    complete (the standard one is ``_standard_waits``): seven pairs with held kinds; thirteen orphans
    with the orphans; the knitted shapes (``mcr``) with every kind, when all tiles differ or
    eight tiles of a knitted straight are held."""
    checks: list = []
    held = [i for i, n in enumerate(c) if n]
    if declared == 0:
        checks.append((lambda w: all(n % 2 == 0 for n in w), held))
        checks.append((_orphan_counts, _ORPHANS))
        if rules == "mcr" and max(c) == 1:
            checks.append((_knitted_honor_counts, range(len(KINDS))))
    if rules == "mcr" and declared <= 1 and any(len(p.intersection(held)) >= 8 for p in KNITTED_STRAIGHTS):
        checks.append((lambda w: _knitted_straight_counts(w, declared), range(len(KINDS))))
    return checks


def _standard_waits(c: Sequence[int]) -> list[int]:
    """The kinds that complete 3n+1 counts as n+1 sets and a pair: only the group of the added
    tile changes, so the other groups' answers are reused."""
    groups = [tuple(c[lo:hi]) for lo, hi, _ in _GROUPS]
    residues = [sum(g) % 3 for g in groups]
    out = []
    for k, (lo, hi, chows) in enumerate(_GROUPS):
        after = residues[:k] + [(residues[k] + 1) % 3] + residues[k + 1:]
        if sorted(after) != [0, 0, 0, 2]:
            continue
        pair_group = after.index(2)
        if not all(_group_ok(g, _GROUPS[j][2], j == pair_group) for j, g in enumerate(groups) if j != k):
            continue
        group = list(groups[k])
        for i in range(hi - lo):
            near = group[i] or (chows and any(group[j] for j in range(max(0, i - 2), min(hi - lo, i + 3))))
            if not near:
                continue
            group[i] += 1
            if _group_ok(tuple(group), chows, k == pair_group):
                out.append(lo + i)
            group[i] -= 1
    return out


def _orphan_counts(c: Sequence[int]) -> bool:
    return sum(c) == 14 and all(c[i] for i in _ORPHANS) and sum(c[i] for i in _ORPHANS) == 14


def winning_tiles(concealed: Iterable[str], exposed_sets: Sequence[object], rules: str) -> frozenset[str]:
    """Return the tile kinds that would complete a hand of 13 − 3·k concealed tiles.

    A tile all four copies of which are already in the hand still counts here; callers apply
    "at least one winning tile not all held" (rulings, "Hebei: ready declaration"). Same shapes,
    arguments and errors as ``is_complete`` (with one tile fewer).
    """
    check_rules(rules)
    c = counts(concealed)
    _check_size(c, exposed_sets, 1)
    return _winning_kinds(tuple(c), len(exposed_sets), rules)


# --- shanten --------------------------------------------------------------------------------


def _pareto(triples: Iterable[tuple[int, int, int]]) -> frozenset[tuple[int, int, int]]:
    items = set(triples)
    return frozenset(
        a for a in items
        if not any(b != a and b[0] >= a[0] and b[1] >= a[1] and b[2] >= a[2] for b in items)
    )


@lru_cache(maxsize=_CACHE)
def _group_blocks(group: tuple[int, ...], chows: bool) -> frozenset[tuple[int, int, int]]:
    """The best (sets, partial sets, pair 0/1) counts one suit's tiles can be read as.

    A partial set (搭子) is two tiles that a third completes: a pair, or two of a chow.
    """
    i = next((k for k, n in enumerate(group) if n), -1)
    if i < 0:
        return frozenset({(0, 0, 0)})
    out: list[tuple[int, int, int]] = []

    def take(offsets: tuple[int, ...], dm: int, dt: int, dp: int) -> None:
        rest = list(group)
        for k in offsets:
            rest[k] -= 1
        for m, t, p in _group_blocks(tuple(rest), chows):
            if not (dp and p):
                out.append((m + dm, t + dt, p | dp))

    n = group[i]
    take((i,), 0, 0, 0)
    if n >= 3:
        take((i, i, i), 1, 0, 0)
    if n >= 2:
        take((i, i), 0, 1, 0)
        take((i, i), 0, 0, 1)
    if chows:
        if i + 1 < len(group) and group[i + 1]:
            take((i, i + 1), 0, 1, 0)
            if i + 2 < len(group) and group[i + 2]:
                take((i, i + 1, i + 2), 1, 0, 0)
        if i + 2 < len(group) and group[i + 2]:
            take((i, i + 2), 0, 1, 0)
    return _pareto(out)


def _standard_shanten(c: Sequence[int], needed: int) -> int:
    """Shanten of ``needed`` sets and a pair: 2·needed − 2·sets − partials − pair, with at
    most ``needed`` sets and partials counted (the tiles beside a knitted straight may hold
    more)."""
    fronts = [_group_blocks(tuple(c[lo:hi]), chows) for lo, hi, chows in _GROUPS]
    best = 2 * needed
    for combo in product(*fronts):
        pairs = sum(p for _, _, p in combo)
        if pairs > 1:
            continue
        m = min(needed, sum(x[0] for x in combo))
        t = min(needed - m, sum(x[1] for x in combo))
        best = min(best, 2 * needed - 2 * m - t - pairs)
    return best


def _special_shanten(c: Sequence[int], declared: int, rules: str, best: int = 99) -> int:
    """Return the least of ``best`` and the shanten of the special shapes (and, in ``mcr``,
    of a knitted straight with a set and a pair); a knitted pattern is skipped when its missing
    tiles less one (a complete set and pair) reach ``best``."""
    if declared == 0:
        best = min(best, 6 - min(7, sum(n // 2 for n in c)))
        orphans = sum(1 for i in _ORPHANS if c[i])
        best = min(best, 13 - orphans - any(c[i] >= 2 for i in _ORPHANS))
        if rules == "mcr":
            held = {i for i, n in enumerate(c) if n}
            best = min(best, 13 - max(len(held & (p | set(_HONORS))) for p in KNITTED_STRAIGHTS))
    if rules == "mcr" and declared <= 1:
        for pattern in KNITTED_STRAIGHTS:
            missing = sum(1 for i in pattern if not c[i])
            if missing - 1 < best:      # the set and pair part is −1 at best
                rest = [n - (n > 0 and i in pattern) for i, n in enumerate(c)]
                best = min(best, missing + _standard_shanten(rest, 1 - declared))
    return best


@lru_cache(maxsize=_CACHE)
def _shanten_counts(c: tuple[int, ...], declared: int, rules: str) -> int:
    """``shanten`` of the count tuple ``c`` (sizes checked by the caller); memoised, as the
    bots ask for the same hands again and again within a decision and across iterations."""
    return _special_shanten(c, declared, rules, _standard_shanten(c, SETS_IN_HAND - declared))


def shanten(concealed: Iterable[str], exposed_sets: Sequence[object], rules: str) -> int:
    """Return the number of tile exchanges a hand is from ready: −1 complete, 0 ready, 1 …

    ``concealed`` holds 13 − 3·k or 14 − 3·k tiles for k declared sets (only ``len`` of
    ``exposed_sets`` is used). The minimum over the shapes of ``rules`` (see the module
    docstring); a wait on a tile all four copies of which are held counts as ready, as in
    ``winning_tiles``. For the greedy bot: −1 exactly when ``is_complete``, 0 exactly when
    ``winning_tiles`` is not empty.

    Raises:
        ValueError: for unknown rules, a flower or bad code, or a concealed size that does not
            match the declared sets.
    """
    check_rules(rules)
    c = counts(concealed)
    declared = len(exposed_sets)
    if declared > SETS_IN_HAND or sum(c) not in (13 - 3 * declared, 14 - 3 * declared):
        raise ValueError(
            f"{sum(c)} concealed tiles with {declared} declared sets: "
            f"expected {13 - 3 * declared} or {14 - 3 * declared}."
        )
    return _shanten_counts(tuple(c), declared, rules)
