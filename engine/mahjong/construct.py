"""Hands of a given shape drawn from a pool of unseen tiles, for re-deals and samples that
must keep a hidden constraint (a locked hand is ready; someone can claim a pending tile).

Every function takes the pool as a ``Counter`` of tiles (flowers never go into a hand), never
changes it, and returns the hand's tiles or None when it finds none. The search is a
depth-first search in an order shuffled by the ``Rng`` (so the hands vary), bounded by
``BUDGET`` steps per call; standard hands, seven pairs and thirteen orphans are built.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.core import Rng
from engine.mahjong.tiles import KINDS, TERMINALS_AND_HONORS, is_suited, number, suit

#: Search steps one call may take before it gives up.
BUDGET = 4000
_SUITED_STARTS = tuple(k for k in KINDS if is_suited(k) and number(k) <= 7)

Group = tuple[str, ...]


def _chow(start: str) -> Group:
    n, s = number(start), suit(start)
    return (start, f"{n + 1}{s}", f"{n + 2}{s}")


_SETS: tuple[Group, ...] = tuple((k, k, k) for k in KINDS) + tuple(map(_chow, _SUITED_STARTS))


def _fits(pool: Counter, tiles: Iterable[str]) -> bool:
    need = Counter(tiles)
    return all(pool[t] >= n for t, n in need.items())


def _kinds(pool: Counter) -> Counter:
    return Counter({k: pool[k] for k in KINDS if pool[k] > 0})


def _sets_dfs(work: Counter, need: int, sets: list[Group], start: int,
              budget: list[int]) -> list[Group] | None:
    """``need`` sets from ``work``, taken in list order from ``start`` (each multiset once)."""
    if need == 0:
        return []
    for i in range(start, len(sets)):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        group = sets[i]
        if _fits(work, group):
            work.subtract(group)
            found = _sets_dfs(work, need - 1, sets, i, budget)
            work.update(group)
            if found is not None:
                return [group] + found
    return None


def _standard(pool: Counter, size: int, rng: Rng, include: str | None) -> list[str] | None:
    """n sets and a pair (size 3n + 2) holding ``include`` when given."""
    work = _kinds(pool)
    sets = rng.shuffled([g for g in _SETS if _fits(work, g)])
    budget = [BUDGET]
    for pair in rng.shuffled([k for k in KINDS if work[k] >= 2]):
        work.subtract((pair, pair))
        firsts = [None] if include in (None, pair) else [g for g in sets if include in g]
        for first in firsts:
            if first is not None and not _fits(work, first):
                continue
            if first is not None:
                work.subtract(first)
            found = _sets_dfs(work, (size - 2) // 3 - (first is not None), sets, 0, budget)
            if first is not None:
                work.update(first)
            if found is not None:
                work.update((pair, pair))
                return [pair, pair] + list(first or ()) + [t for g in found for t in g]
            if budget[0] < 0:
                return None
        work.update((pair, pair))
    return None


def _seven_pairs(pool: Counter, rng: Rng, include: str | None) -> list[str] | None:
    """Seven pairs (four of a kind as two) holding ``include`` when given."""
    work = _kinds(pool)
    pairs = [k for k in KINDS for _ in range(work[k] // 2)]
    if include is not None:
        if work[include] < 2:
            return None
        pairs.remove(include)
        chosen = [include] + rng.shuffled(pairs)[:6]
    else:
        chosen = rng.shuffled(pairs)[:7]
    return None if len(chosen) < 7 else [t for k in chosen for t in (k, k)]


def _orphans(pool: Counter, rng: Rng, include: str | None) -> list[str] | None:
    """Thirteen orphans: one of each terminal and honor and one more of any."""
    if not _fits(pool, TERMINALS_AND_HONORS):
        return None
    doubles = [t for t in TERMINALS_AND_HONORS if pool[t] >= 2]
    if not doubles:
        return None
    return list(TERMINALS_AND_HONORS) + [rng.choice(doubles)]


def complete_hand(pool: Counter, size: int, rng: Rng, include: str | None = None) -> list[str] | None:
    """Return ``size`` (3n + 2) tiles from ``pool`` that make a winning shape holding
    ``include`` when given (a standard hand; with 14 tiles also seven pairs or thirteen
    orphans), or None."""
    if size == 14:
        builders = rng.shuffled(["standard", "pairs", "orphans"])
    else:
        builders = ["standard"]
    for name in builders:
        if name == "standard":
            hand = _standard(pool, size, rng, include)
        elif name == "pairs":
            hand = _seven_pairs(pool, rng, include)
        else:
            hand = _orphans(pool, rng, include)
        if hand is not None and (include is None or include in hand):
            return hand
    return None


def waiting_on(pool: Counter, size: int, rng: Rng, tile: str) -> list[str] | None:
    """Return ``size`` (3n + 1) tiles from ``pool`` that ``tile`` completes (``tile`` need not
    be in the pool: a claimed discard, or a wait whose copies are all in sight), or None."""
    extra = pool.copy()
    extra[tile] += 1
    whole = complete_hand(extra, size + 1, rng, include=tile)
    if whole is None:
        return None
    whole.remove(tile)
    return whole


def ready_hand(pool: Counter, size: int, rng: Rng) -> list[str] | None:
    """Return ``size`` (3n + 1) tiles from ``pool`` waiting on some tile, or None."""
    for tile in rng.shuffled(KINDS)[:12]:
        hand = waiting_on(pool, size, rng, tile)
        if hand is not None:
            return hand
    return None


def random_hand(pool: Counter, size: int, rng: Rng) -> list[str] | None:
    """Return ``size`` tiles drawn at random from the non-flower tiles of ``pool``, or None."""
    tiles = [k for k in KINDS for _ in range(pool[k])]
    if len(tiles) < size:
        return None
    return rng.shuffled(tiles)[:size]
