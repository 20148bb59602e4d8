"""Whether a seat may win now, and what the win is worth (rulings "Winning hands", "Scoring").

Both rule sets accept every winning shape of ``shapes.is_complete``; ``mcr`` also needs 8
points without flowers. The flags given to ``mcr_fan`` / ``hebei_value`` come from the hand:

- self-drawn: won in one's own turn (after a draw, a kong's replacement or on the deal);
- kong: the turn's tile is a kong's replacement (杠上开花; a flower replaced after it makes the
  win plain 自摸), or the win robs an added kong (抢杠和);
- wall last: self-drawn with the wall now empty (``mcr`` 妙手回春, ``hebei`` 海底捞月), or won on
  the discard made when the wall was empty (``mcr`` 海底捞月; nothing in ``hebei``);
- 和绝张 (``mcr``): the three other copies of the winning tile are visible — in discards still
  in the pool and in every exposed set, the winner's own included, not in concealed kongs —
  and never when robbing a kong;
- a dealer's win on the deal: self-drawn with the tile of the 14 that scores most (``mcr``),
  天和 (``hebei``); 地和 (``hebei``): a non-dealer on the hand's first discard.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.mahjong import hebei, mcr
from engine.mahjong.notation import meld_args
from engine.mahjong.shapes import is_complete
from engine.mahjong.state import Hand, Match, Player, Window
from engine.mahjong.table import prevalent_wind, seat_wind
from engine.mahjong.tiles import sorted_tiles, tiles_text


@dataclass(frozen=True)
class Win:
    """A possible win and its score.

    Attributes:
        seat: the winner. win_tile: the winning tile. concealed: the standing tiles without it.
        total: the points (``mcr``, flowers included) or the value (``hebei``).
        fans: ``((fan_id, points), …)`` (``mcr``) ; doublings: the ``HEBEI_DOUBLINGS`` ids
            (``hebei``); the other one is empty.
        self_drawn: won in one's own turn. payer: the discarder or robbed player, else None.
        way: the Hebei way of winning (an id of ``HEBEI_DOUBLINGS``) or None.
    """

    seat: int
    win_tile: str
    concealed: tuple[str, ...]
    total: int
    fans: tuple[tuple[str, int], ...] = ()
    doublings: tuple[str, ...] = ()
    self_drawn: bool = False
    payer: int | None = None
    way: str | None = None


@dataclass(frozen=True)
class Flags:
    """How a win came about (see the module doc)."""

    self_drawn: bool = False
    kong: bool = False
    wall_last: bool = False
    robbing: bool = False
    heavenly: bool = False
    earthly: bool = False


def visible_copies(hand: Hand, tile: str) -> int:
    """Return how many copies of ``tile`` lie face up: in discards not taken and in exposed
    sets (every seat's; concealed kongs left out)."""
    seen = 0
    for player in hand.players:
        seen += sum(1 for d in player.discards if d.tile == tile and not d.taken)
        seen += sum(m.tiles.count(tile) for m in player.melds if m.kind != "concealed_kong")
    return seen


def _score(match: Match, seat: int, concealed: list[str], tile: str, flags: Flags,
           fourth: bool) -> Win | None:
    """Return the win of ``seat`` with ``concealed`` (without ``tile``) and ``tile``, or None
    when it is not a legal win (not complete; ``mcr`` below the minimum)."""
    hand = match.hand
    player = hand.players[seat]
    if not is_complete(concealed + [tile], player.melds, match.rules):
        return None
    text, melds = tiles_text(concealed), meld_args(player.melds)
    if match.rules == "mcr":
        found = mcr.fans(text, tile, melds, self_drawn=flags.self_drawn, fourth_tile=fourth,
                         kong=flags.kong or flags.robbing, wall_last=flags.wall_last,
                         seat_wind=seat_wind(hand.order, hand.dealer, seat),
                         round_wind=prevalent_wind("mcr", hand.number),
                         flowers=len(player.flowers))
        if found is None:
            return None
        points, toward_minimum = mcr.total_and_minimum(found)
        if toward_minimum < mcr.MINIMUM:
            return None
        return Win(seat, tile, tuple(concealed), points, fans=found,
                   self_drawn=flags.self_drawn)
    value, ids = hebei.hebei_value(text, tile, melds, self_drawn=flags.self_drawn,
                                   kong=flags.kong, wall_last=flags.wall_last,
                                   robbing=flags.robbing, heavenly=flags.heavenly,
                                   earthly=flags.earthly)
    way = next((i for i in ids if i in hebei.WAYS), None)
    return Win(seat, tile, tuple(concealed), value, doublings=tuple(ids),
               self_drawn=flags.self_drawn, way=way)


def self_win(match: Match) -> Win | None:
    """Return the win of the seat in turn with its own tiles now, or None (after a 碰/吃 there
    is none: the claimer only discards)."""
    hand = match.hand
    seat = hand.turn
    player = hand.players[seat]
    if hand.step == "claimed":
        return None
    if hand.step == "deal":
        return _deal_win(match, seat, player)
    flags = Flags(self_drawn=True, kong=hand.step == "kong", wall_last=hand.wall_left == 0)
    tile = player.drawn
    assert tile is not None, "after a draw or a kong the seat in turn holds its drawn tile"
    return _score(match, seat, list(player.concealed), tile, flags,
                  visible_copies(hand, tile) == 3)


def _deal_win(match: Match, seat: int, player: Player) -> Win | None:
    """The dealer's win on the deal: the best of the 14 tiles as the winning tile (``mcr``:
    self-drawn; ``hebei``: 天和); the first of equal scores in sort order."""
    held = sorted_tiles(player.held())
    flags = Flags(self_drawn=True, heavenly=match.rules == "hebei")
    best = None
    for tile in dict.fromkeys(held):
        rest = list(held)
        rest.remove(tile)
        win = _score(match, seat, rest, tile, flags, visible_copies(match.hand, tile) == 3)
        if win is not None and (best is None or win.total > best.total):
            best = win
    return best


def claim_win(match: Match, seat: int, window: Window) -> Win | None:
    """Return the win of ``seat`` on the window's tile, or None."""
    hand = match.hand
    player = hand.players[seat]
    if window.robbing:
        flags = Flags(robbing=True)
        fourth = False
    else:
        flags = Flags(wall_last=window.last,
                      earthly=match.rules == "hebei" and window.first and seat != hand.dealer)
        fourth = visible_copies(hand, window.tile) - 1 == 3   # the discard itself is not "other"
    win = _score(match, seat, list(player.concealed), window.tile, flags, fourth)
    return None if win is None else replace(win, payer=window.source)
