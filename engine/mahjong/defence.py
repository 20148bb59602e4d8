"""A danger estimate per discard from a seat's view: how likely a tile deals in, both rule sets.

Read only from the view (shape: ``engine.mahjong.view``): the others' discards, declared sets
and ready declarations, and the copies the seat can see. Used by ``engine.mahjong.plan`` when it
chooses a discard in ``hebei`` (the hard and expert bots; the greedy bot does not defend).

``danger(view, tile) = Σ over the other seats o of threat(o) × risk(tile, o)``:

- ``threat(o)`` how likely ``o`` is ready: 1 after a ready declaration (报听, public), else 0.
  A guess from the discards and sets (``(discards − 6) / 8`` up to 0.8, + 0.1 per set) cost the
  hard bot more wins than deal-ins against the greedy bots (bench/HISTORY.md 2026-12-06:
  hard's per-hand margin fell by ≈ 0.5 with it), so it is not used.
- ``risk(tile, o)`` relative to a middle suited tile (1.0) nobody has shown to be safe:

  * a kind ``o`` discarded itself: 0.2 (no furiten in these rules, so not quite safe, but a
    bot discards what it does not need);
  * an honor: 0 when no copy is unseen (nothing to wait on it with: every wait on an honor
    needs a copy in the waiting hand), else 0.15 per unseen copy (single and pair waits only);
  * a suited tile: 1.0 for 3-7, 0.8 for 2 and 8, 0.6 for 1 and 9; halved by 筋 (suji) — a
    two-sided wait on it needs a tile three away, and ``o`` discarded that kind (both sides for
    4-6); 0.1 when no copy is unseen and each neighbour within two has none either.

Pure and deterministic; no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.mahjong.tiles import COPIES, INDEX, is_honor, number, suit

__all__ = ["danger", "threat", "risk", "unseen_counts"]

SAFE_OWN = 0.2
HONOR_PER_COPY = 0.15
EDGE = {1: 0.6, 2: 0.8, 8: 0.8, 9: 0.6}
SUJI = 0.5
DEAD = 0.1
READY_THREAT = 1.0


def threat(player: Mapping[str, Any]) -> float:
    """Return how likely the seat of ``player`` (one entry of ``view["players"]``) is ready
    (module doc: 1 after its ready declaration, else 0)."""
    return READY_THREAT if player.get("ready") else 0.0


def risk(tile: str, discarded: frozenset[str], unseen: Sequence[int]) -> float:
    """Return the relative risk that ``tile`` completes the hand of a ready seat which discarded
    the kinds ``discarded``; ``unseen``: 34 counts of copies the viewer cannot see."""
    if tile in discarded:
        return SAFE_OWN
    if is_honor(tile):
        return HONOR_PER_COPY * unseen[INDEX[tile]]
    n, s = number(tile), suit(tile)
    near = [f"{m}{s}" for m in range(max(1, n - 2), min(9, n + 2) + 1)]
    if all(unseen[INDEX[t]] == 0 for t in near):
        return DEAD
    base = EDGE.get(n, 1.0)
    low, high = f"{n - 3}{s}", f"{n + 3}{s}"
    sides = [t for t, ok in ((low, n > 3), (high, n < 7)) if ok]
    if sides and all(t in discarded for t in sides):
        base *= SUJI
    return base


def danger(view: Mapping[str, Any], tile: str, unseen: Sequence[int]) -> float:
    """Return the danger of discarding ``tile`` for ``view["seat"]`` (module doc); ``unseen``:
    34 counts of the copies that seat cannot see."""
    total = 0.0
    for seat, player in enumerate(view["players"]):
        if seat == view["seat"]:
            continue
        t = threat(player)
        if t > 0:
            discarded = frozenset(d["tile"] for d in player["discards"])
            total += t * risk(tile, discarded, unseen)
    return total


def unseen_counts(seen: Sequence[int]) -> tuple[int, ...]:
    """Return the copies not seen of each kind, from the 34 counts the seat sees."""
    return tuple(max(0, COPIES - n) for n in seen)
