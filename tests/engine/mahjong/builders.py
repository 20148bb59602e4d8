"""Test helpers: build mahjong positions by hand (tiles in MPSZ text) and drive them."""

from __future__ import annotations

from collections import Counter

from engine.mahjong import GAME, flow, parse_tiles
from engine.mahjong.state import Discard, Hand, Match, Meld, Player, clone
from engine.mahjong.tiles import check_copies, sorted_tiles, tile_set

#: Twelve tiles that make nothing with the hands of the tests (no pair, no wait): a seat's
#: filler, written after the one or two tiles that matter.
JUNK = "9m 39s 369p 577z 16s 4z"


def tiles(text: str) -> list[str]:
    """Return the tiles of ``text`` in sort order."""
    return sorted_tiles(parse_tiles(text))


def player(concealed: str = "", melds: tuple = (), flowers: str = "", discards: str = "",
           ready: bool = False, drawn: str | None = None) -> Player:
    """Return a Player: ``melds`` as ``(kind, tiles text, source seat)`` (no source for a
    concealed kong); ``discards`` in order."""
    made = []
    for meld in melds:
        kind, text = meld[0], meld[1]
        source = meld[2] if len(meld) > 2 else None
        group = tuple(tiles(text))
        made.append(Meld(kind, group, source, None if source is None else group[0]))
    return Player(tiles(concealed), drawn, made, parse_tiles(flowers),
                  [Discard(t) for t in parse_tiles(discards)], ready)


def table(players: list[Player], *, rules: str = "hebei", dealer: int = 0, head: str = "",
          tail: str = "", number: int = 1, order: tuple[int, ...] = (0, 1, 2, 3),
          totals: list[int] | None = None, fill: bool = False, **options) -> Match:
    """Return a match whose hand ``number`` has these players and a wall of ``head`` (drawn in
    the order written) and ``tail`` (replacements, in the order they are drawn); ``fill`` puts
    the rest of the full tile set (sorted) between them. Nobody is deciding yet. Options
    default to the shortest match of the rule set."""
    for seat, p in enumerate(players):
        size = len(p.held()) + 3 * len(p.melds)
        assert size in (13, 14), f"seat {seat} holds {size} tiles"
    defaults = {"hands": 4} if rules == "hebei" else {}
    opts = GAME.validate_options({"rules": rules, **defaults, **options})
    middle: list[str] = []
    if fill:
        rest = full_set(rules)
        for p in players:
            rest.subtract(p.held() + [t for m in p.melds for t in m.tiles] + p.flowers
                          + [d.tile for d in p.discards])
        rest.subtract(parse_tiles(head) + parse_tiles(tail))
        middle = sorted_tiles(rest.elements())
    wall = tuple(parse_tiles(head) + middle + list(reversed(parse_tiles(tail))))
    check_copies([t for p in players for t in p.held() + [t for m in p.melds for t in m.tiles]
                  + p.flowers + [d.tile for d in p.discards]] + list(wall))
    hand = Hand(number, dealer, order, wall, 0, len(wall), players)
    return Match(opts, b"test".hex(), dealer, list(totals or [0, 0, 0, 0]), hand)


def turn(match: Match, seat: int, drawn: str | None = None, step: str = "draw") -> Match:
    """Return a copy of ``match`` in which ``seat`` decides in its turn (``drawn`` held apart)."""
    match = clone(match)
    match.hand.players[seat].drawn = drawn
    events: list = []
    flow.run(match, flow.begin_turn(match, seat, step, events), events)
    return match


def drawn(match: Match, seat: int):
    """Return (state, events) after ``seat`` draws from the head (and what follows at once)."""
    match = clone(match)
    events: list = []
    flow.run(match, flow.draw(match, seat, events), events)
    return match, events


def discarded(match: Match, seat: int, tile: str, drawn_tile: str | None = None,
              ready: bool = False):
    """Return (state, events) after ``seat`` discards ``tile`` in its turn (``drawn_tile``
    held apart first)."""
    action = {"type": "discard", "tile": tile, **({"ready": True} if ready else {})}
    return GAME.apply(turn(match, seat, drawn_tile), seat, action)


def every_tile(match: Match) -> Counter:
    """Count every tile of the running hand: wall left and drawn, hands, sets, flowers,
    discards (taken ones are in a set) and a pending added-kong tile."""
    hand = match.hand
    found = Counter(hand.wall[hand.head:hand.tail])
    for p in hand.players:
        found.update(p.held())
        found.update(t for m in p.melds for t in m.tiles)
        found.update(p.flowers)
        found.update(d.tile for d in p.discards if not d.taken)
    if hand.window is not None and hand.window.robbing:
        found[hand.window.tile] += 1
    return found


def full_set(rules: str) -> Counter:
    """The tiles of a rule set's full set."""
    return Counter(tile_set(rules == "mcr"))
