"""The listed actions of the seat in turn (rulings "A turn", "The end of the wall", "Hebei:
ready declaration").

After a draw (or a kong's replacement, or on the deal) the seat may win (自摸), declare a
concealed kong of four it holds, add a held tile to its own exposed pung (加杠) — kongs only
while the wall has a tile for the replacement — or discard; after 碰/吃 it only discards.
In ``hebei`` each discard that leaves a ready hand is also listed with ``"ready": true``; a
locked hand lists only its wins, the kongs that keep its waits and the drawn tile's discard.

Listed in this order: ``win``, kongs by tile, then discards by tile (each plain discard followed
by its ready variant). Dicts are shared: read them, never change them.
"""

from __future__ import annotations

from typing import Any

from engine.mahjong import ready
from engine.mahjong.state import Match, Meld, Player
from engine.mahjong.tiles import sorted_tiles
from engine.mahjong.winning import self_win

WIN = {"type": "win"}


def kong_tiles(player: Player) -> list[str]:
    """Return the tiles the player could make a kong of from its own tiles, in sort order: four
    held (暗杠), or one held matching an exposed pung (加杠)."""
    held = player.held()
    pungs = {m.tiles[0] for m in player.melds if m.kind == "pung"}
    kinds = [t for t in dict.fromkeys(held) if held.count(t) == 4 or t in pungs]
    return sorted_tiles(kinds)


def after_own_kong(player: Player, tile: str) -> tuple[list[str], list[Meld]]:
    """Return (standing tiles, melds) after the player's kong of ``tile`` from its own tiles."""
    held = player.held()
    for index, meld in enumerate(player.melds):
        if meld.kind == "pung" and meld.tiles[0] == tile:
            held.remove(tile)
            melds = list(player.melds)
            melds[index] = Meld("added_kong", (tile,) * 4, meld.source, meld.claimed)
            return sorted_tiles(held), melds
    rest = [t for t in held if t != tile]
    return sorted_tiles(rest), player.melds + [Meld("concealed_kong", (tile,) * 4)]


def _kongs(match: Match, player: Player) -> list[dict[str, Any]]:
    if match.hand.wall_left < 1:
        return []
    out = []
    for tile in kong_tiles(player):
        if player.ready:
            after, melds = after_own_kong(player, tile)
            if not ready.keeps_waits(player.concealed, player.melds, after, melds):
                continue
        out.append({"type": "kong", "tile": tile})
    return out


def _discards(match: Match, player: Player) -> list[dict[str, Any]]:
    if player.ready:
        return [{"type": "discard", "tile": player.drawn}]
    held = player.held()
    out: list[dict[str, Any]] = []
    for tile in sorted_tiles(dict.fromkeys(held)):
        out.append({"type": "discard", "tile": tile})
        if match.rules == "hebei":
            rest = list(held)
            rest.remove(tile)
            if ready.may_declare(rest, player.melds):
                out.append({"type": "discard", "tile": tile, "ready": True})
    return out


def turn_options(match: Match) -> tuple[dict[str, Any], ...]:
    """Return the listed actions of the seat in turn (``match.hand.turn``)."""
    hand = match.hand
    player = hand.players[hand.turn]
    out: list[dict[str, Any]] = []
    if hand.step != "claimed":
        if self_win(match) is not None:
            out.append(WIN)
        out += _kongs(match, player)
    out += _discards(match, player)
    return tuple(out)


def only_discard_of_drawn(options: tuple[dict[str, Any], ...], player: Player) -> bool:
    """Return whether a locked hand has nothing to choose: its one listed action is the drawn
    tile's discard (the engine then plays it at once: rulings "Hebei: ready declaration")."""
    return player.ready and len(options) == 1 and options[0]["type"] == "discard"
