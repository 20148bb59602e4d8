"""The greedy one-ply score of mahjong (used by ``engine.bots.ScoringBot``).

It reads only the seat's view — its own standing tiles and drawn tile (``me``), its declared
sets and the rule set — and the candidate action::

    win                1000                 (a win is always taken)
    kong               1
    pung, chow         -1                   (keeps the hand concealed: 门清, 门前清)
    pass               0
    discard t          -10 × shanten after it − links(t) / 10, + 1 with "ready"

``shanten`` is ``shapes.shanten`` of the hand left after the discard (−1 complete, 0 ready…);
``links(t)`` counts the other standing tiles that are ``t`` or, in its suit, within two of it,
so among equal discards the loneliest tile goes first.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.mahjong.shapes import shanten
from engine.mahjong.tiles import is_suited, number, suit

__all__ = ["score", "links"]

WIN = 1000


def links(tile: str, hand: Sequence[str]) -> int:
    """Return how many other tiles of ``hand`` are ``tile`` or within two of it in its suit."""
    rest = list(hand)
    if tile in rest:
        rest.remove(tile)
    near = 0
    for other in rest:
        if other == tile:
            near += 1
        elif is_suited(tile) and suit(other) == suit(tile) and abs(number(other) - number(tile)) <= 2:
            near += 1
    return near


def score(view: Mapping[str, Any], action: Mapping[str, Any]) -> float:
    """Return the value of ``action`` for ``view["seat"]`` (table in the module docstring)."""
    kind = action["type"]
    if kind == "win":
        return WIN
    if kind == "kong":
        return 1
    if kind in ("pung", "chow"):
        return -1
    if kind != "discard":
        return 0
    me = view["me"]
    held = list(me["hand"]) + ([me["drawn"]] if me["drawn"] else [])
    rest = list(held)
    rest.remove(action["tile"])
    melds = view["players"][view["seat"]]["melds"]
    value = -10 * shanten(rest, melds, view["rules"]) - links(action["tile"], held) / 10
    return value + (1 if action.get("ready") else 0)
