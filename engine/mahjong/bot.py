"""The greedy one-ply score of mahjong (used by ``engine.bots.ScoringBot``), both rule sets.

It reads only the seat's view — its own standing tiles and drawn tile (``me``), the claim
window's tile (``claim``), every seat's declared sets and discards (the tiles it can see) and
the rule set — and the candidate action. ``shanten`` is ``shapes.shanten`` (−1 complete, 0
ready, 1 one exchange from ready …)::

    win                     1000  (a listed win is always taken; mcr lists only ≥ 8 points)
    pung, chow, claimed kong 10 × (shanten now − shanten after the claim and its best
                            discard) when that lowers the shanten, else −1 (claims only then)
    kong in one's turn       1 when the shanten after it (before the replacement) is no worse
                            than after the best discard, else −1
    pass                    0
    discard t               −100 × shanten after it + useful(t) / 1000, − 1/2 with "ready"

``useful(t)`` counts the copies still unseen by the seat (four less those in its hand, in any
discard pool or declared set) of every kind that would lower the shanten of the hand left after
discarding ``t`` — the number of tiles that improve it. A ready declaration (报听, ``hebei``)
scores nothing and locks the hand, so the plain discard is preferred.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from engine.mahjong.shapes import shanten
from engine.mahjong.tiles import COPIES, INDEX, KINDS, counts

__all__ = ["score", "useful_tiles", "discard_table", "best_after_discard"]

WIN = 1000
SHANTEN_WEIGHT = 100
CLAIM_WEIGHT = 10
USEFUL_WEIGHT = 1 / 1000
READY_COST = 0.5


def _shanten(tiles: Sequence[str], declared: int, rules: str) -> int:
    return shanten(tiles, [None] * declared, rules)


def useful_tiles(hand: Sequence[str], declared: int, rules: str, seen: Sequence[int]) -> int:
    """Return how many unseen tiles would lower the shanten of ``hand`` (13 − 3·``declared``
    tiles) if drawn: for each kind that does, ``4 − seen[kind]`` (``seen``: 34 counts of the
    copies the seat can see, its own hand included; never below 0)."""
    now = _shanten(hand, declared, rules)
    total = 0
    for kind in KINDS:
        left = COPIES - seen[INDEX[kind]]
        if left > 0 and _shanten([*hand, kind], declared, rules) < now:
            total += left
    return total


@lru_cache(maxsize=256)
def discard_table(held: tuple[str, ...], declared: int, rules: str,
                  seen: tuple[int, ...]) -> dict[str, tuple[int, int]]:
    """Return ``{tile: (shanten after discarding it, useful tiles then)}`` for each distinct tile
    of ``held`` (14 − 3·``declared`` tiles); ``useful`` is computed only for the tiles whose
    discard leaves the lowest shanten (0 for the others). Memoised: one table per decision."""
    after: dict[str, int] = {}
    for tile in dict.fromkeys(held):
        rest = list(held)
        rest.remove(tile)
        after[tile] = _shanten(rest, declared, rules)
    best = min(after.values())
    table = {}
    for tile, value in after.items():
        useful = 0
        if value == best:
            rest = list(held)
            rest.remove(tile)
            useful = useful_tiles(rest, declared, rules, seen)
        table[tile] = (value, useful)
    return table


def _seen(view: Mapping[str, Any], held: Sequence[str]) -> tuple[int, ...]:
    """Counts of the copies the seat sees: its hand, every discard still in a pool, every
    declared set's tiles (another seat's concealed kong shows none)."""
    visible = [t for t in held if t in INDEX and INDEX[t] < len(KINDS)]
    for player in view["players"]:
        visible += [d["tile"] for d in player["discards"] if not d["taken"]]
        for meld in player["melds"]:
            visible += [t for t in meld["tiles"] if t is not None]
    return tuple(min(COPIES, n) for n in counts(visible))


def _held(view: Mapping[str, Any]) -> list[str]:
    me = view["me"]
    return list(me["hand"]) + ([me["drawn"]] if me["drawn"] else [])


def _declared(view: Mapping[str, Any]) -> int:
    return len(view["players"][view["seat"]]["melds"])


def best_after_discard(held: Sequence[str], declared: int, rules: str) -> int:
    """Return the lowest shanten ``held`` (14 − 3·``declared`` tiles, one to discard) can keep
    after one discard."""
    best = 99
    for tile in dict.fromkeys(held):
        rest = list(held)
        rest.remove(tile)
        best = min(best, _shanten(rest, declared, rules))
    return best


def _claim_value(view: Mapping[str, Any], action: Mapping[str, Any]) -> float:
    """A claim's value: how much it lowers the shanten (after its discard), else −1."""
    hand, declared, rules = list(view["me"]["hand"]), _declared(view), view["rules"]
    tile = view["claim"]["tile"]
    now = _shanten(hand, declared, rules)
    used = {"pung": [tile] * 2, "kong": [tile] * 3}.get(action["type"]) or action["tiles"]
    rest = list(hand)
    for t in used:
        rest.remove(t)
    if action["type"] == "kong":
        after = _shanten(rest, declared + 1, rules)
    else:
        after = best_after_discard(rest, declared + 1, rules)
    return CLAIM_WEIGHT * (now - after) if after < now else -1


def _own_kong_value(view: Mapping[str, Any], tile: str) -> float:
    """A kong in one's turn: 1 unless it leaves the hand further from ready than a discard."""
    held, declared, rules = _held(view), _declared(view), view["rules"]
    rest = [t for t in held if t != tile]
    if len(held) - len(rest) == 4:          # concealed kong: one more declared set
        after = _shanten(rest, declared + 1, rules)
    else:                                   # added kong: the pung becomes a kong
        rest = list(held)
        rest.remove(tile)
        after = _shanten(rest, declared, rules)
    return 1 if after <= best_after_discard(held, declared, rules) else -1


def score(view: Mapping[str, Any], action: Mapping[str, Any]) -> float:
    """Return the value of ``action`` for ``view["seat"]`` (table in the module docstring)."""
    kind = action["type"]
    if kind == "win":
        return WIN
    if kind == "pass":
        return 0
    if kind in ("pung", "chow") or (kind == "kong" and view["phase"] == "claim"):
        return _claim_value(view, action)
    if kind == "kong":
        return _own_kong_value(view, action["tile"])
    held = _held(view)
    table = discard_table(tuple(sorted(held)), _declared(view), view["rules"],
                          _seen(view, held))
    after, useful = table[action["tile"]]
    value = -SHANTEN_WEIGHT * after + useful * USEFUL_WEIGHT
    return value - (READY_COST if action.get("ready") else 0)
