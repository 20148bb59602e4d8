"""Dealing a hand and replacing flowers (rulings "Seats, wall and deal", "A turn").

The dealer takes 14 tiles from the wall's head, then South, West and North 13 each. In ``mcr``
the flowers are then replaced in turn — dealer, South, West, North, again until nobody holds a
flower (补花): each seat exposes the flowers it holds and draws as many from the wall's tail.
"""

from __future__ import annotations

from engine.core import Event
from engine.mahjong.state import Hand, Match, Player
from engine.mahjong.table import prevalent_wind, turn_from
from engine.mahjong.tiles import is_flower, sorted_tiles
from engine.mahjong.wall import draw_tail, shuffled_wall

DEALER_TILES, OTHER_TILES = 14, 13


def deal_hand(match: Match, number: int, dealer: int, order: tuple[int, ...]) -> list[Event]:
    """Set ``match.hand`` to hand ``number`` dealt from its seeded wall (dealer 14, others 13;
    flowers replaced in ``mcr``); return the events. The dealer's decision is not set here."""
    wall = shuffled_wall(bytes.fromhex(match.seed), number, match.rules == "mcr")
    players = [Player([]) for _ in range(len(order))]
    hand = Hand(number, dealer, order, wall, 0, len(wall), players)
    for seat in turn_from(order, dealer):
        size = DEALER_TILES if seat == dealer else OTHER_TILES
        players[seat].concealed = list(wall[hand.head:hand.head + size])
        hand.head += size
    match.hand = hand
    events = [Event("hand_started", {"hand": number, "dealer": dealer, "order": list(order),
                                     "prevalent_wind": prevalent_wind(match.rules, number)})]
    events += replace_dealt_flowers(hand)
    for player in players:
        player.concealed = sorted_tiles(player.concealed)
    return events


def replace_dealt_flowers(hand: Hand) -> list[Event]:
    """Replace the flowers of the deal in passes (dealer, South, West, North) until a pass finds
    none; return a ``flower`` event per flower exposed. A 144-tile wall always has enough tiles
    left for this (91 after the deal, 8 flowers)."""
    events: list[Event] = []
    found = True
    while found:
        found = False
        for seat in turn_from(hand.order, hand.dealer):
            player = hand.players[seat]
            flowers = [t for t in player.concealed if is_flower(t)]
            for tile in flowers:
                found = True
                player.concealed.remove(tile)
                player.flowers.append(tile)
                events.append(Event("flower", {"seat": seat, "tile": tile}))
            player.concealed += [draw_tail(hand) for _ in flowers]
    return events
