"""The wall (牌墙): the seeded shuffle of all tiles, drawn from its head, replacements from its
tail (rulings "Seats, wall and deal": 杠后从牌城尾部补牌; 补花 从牌墙最后补一张牌).

The seed's dice only choose where a physical wall is broken: after a seeded shuffle they change
nothing, so none are rolled.
"""

from __future__ import annotations

from engine.core import Rng
from engine.mahjong.state import Hand
from engine.mahjong.tiles import tile_set


def shuffled_wall(seed: bytes, number: int, flowers: bool) -> tuple[str, ...]:
    """Return hand ``number``'s wall: the 136 tiles (144 with ``flowers``) in sort order,
    shuffled by ``Rng.derive(seed, "wall", number)``."""
    return tuple(Rng.derive(seed, "wall", number).shuffled(tile_set(flowers)))


def draw_head(hand: Hand) -> str:
    """Take and return the tile at the wall's head. The caller checks ``wall_left``."""
    tile = hand.wall[hand.head]
    hand.head += 1
    return tile


def draw_tail(hand: Hand) -> str:
    """Take and return the tile at the wall's tail (a kong's or a flower's replacement). The
    caller checks ``wall_left``."""
    hand.tail -= 1
    return hand.wall[hand.tail]
