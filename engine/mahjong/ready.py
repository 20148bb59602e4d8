"""Hebei ready declaration (报听) and its locked hand (rulings "Hebei: ready declaration").

- A player whose discard leaves a ready hand may declare ready with that discard (also the
  discard after a 碰), provided at least one winning tile is not all held in their own hand
  (counted in the standing tiles and the player's own sets).
- From then on the hand is locked: on each own draw the player may win, may make any kong
  (also a 明杠 on another player's discard) after which every tile that completed the hand
  before still completes it, or else discards the drawn tile; they may win on discards; they
  may not 碰. ``mcr`` hands never lock (override of the 2020 text for ``mcr``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.mahjong.shapes import winning_tiles
from engine.mahjong.state import Meld

RULES = "hebei"


def waits(concealed: Sequence[str], melds: Sequence[Meld]) -> frozenset[str]:
    """Return the tile kinds that complete a hand of 13 − 3·k standing tiles (Hebei shapes)."""
    return winning_tiles(concealed, melds, RULES)


def live_waits(concealed: Sequence[str], melds: Sequence[Meld]) -> frozenset[str]:
    """Return the winning kinds of which the player does not hold all four copies (in the
    standing tiles and their own sets, concealed kongs included)."""
    held = list(concealed) + [t for m in melds for t in m.tiles]
    return frozenset(t for t in waits(concealed, melds) if held.count(t) < 4)


def may_declare(concealed_after: Sequence[str], melds: Sequence[Meld]) -> bool:
    """Return whether the standing tiles left after a discard make a hand that may declare
    ready: some winning tile is not all held."""
    return bool(live_waits(concealed_after, melds))


def keeps_waits(before: Sequence[str], melds_before: Sequence[Meld],
                after: Sequence[str], melds_after: Sequence[Meld]) -> bool:
    """Return whether a kong by a locked hand keeps it: every tile that completed the hand
    before (``before``: 13 − 3·k standing tiles) still completes it after (``after``)."""
    return waits(before, melds_before) <= waits(after, melds_after)
