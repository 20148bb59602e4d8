"""Re-deal everything a viewer cannot see (for information-leak tests and tooling).

Hidden from a viewer: the other seats' concealed hands, the stock order, and the other seats'
face-down groups (扫, 扫穿, the opening 扫穿 kept in hand). 过扫 shows its face and stays.

A re-deal must be a state the rules can reach, in which the stored pending decision stays what
the rules list (``reachable.py``: no concealed four of a kind, a listed 胡 still wins, ...). It
is found by rejection sampling over levels of freedom, each tried ``ATTEMPTS`` times with its
candidate drawn from the given stream in turn:

1. every other seat is *open*: its hand and face-down groups join the stock in the pool;
2. the other seats with a pending decision (asked in the claim window, or the discarder) keep
   their cards; only the remaining seats are open;
3. no seat is open: only the stock order is re-dealt. Any stock order can come out of the
   deal, so this level needs no check and always succeeds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from engine.core import Rng
from engine.zipai.cards import sort_cards
from engine.zipai.reachable import reachable
from engine.zipai.state import HIDDEN_KINDS, Group, Match, Player, clone

#: Candidate re-deals tried per level before the next, more constrained, level.
ATTEMPTS = 12


def hidden_groups(match: Match, open_seats: list[int]) -> list[Group]:
    """Return the face-down groups of ``open_seats`` (扫, 扫穿, the opening 扫穿 kept in hand)."""
    players = match.hand.players
    return [g for s in open_seats for g in players[s].groups if g.kind in HIDDEN_KINDS or g.in_hand]


def deciding_seats(match: Match) -> set[int]:
    """Return the seats whose pending decision the state stores: the seats asked in the open
    claim window (answered or not), or the seat in the discard phase."""
    hand = match.hand
    if hand.phase == "claim" and hand.window is not None:
        return set(hand.window.options)
    return {hand.turn} if hand.phase == "discard" else set()


def open_levels(match: Match, viewer: int | None) -> list[list[int]]:
    """Return the open-seat lists to try, most open first (levels 1 and 2 of the module doc;
    a level equal to the one before or empty is left out)."""
    others = [s for s in range(len(match.hand.players)) if s != viewer]
    keep = deciding_seats(match)
    rest = [s for s in others if s not in keep]
    return [others] + ([rest] if rest and rest != others else [])


def _kept_liang(match: Match, open_seats: list[int]) -> str | None:
    """The dealer's 亮张 is public: keep one copy in an open dealer's hand that still holds it."""
    hand = match.hand
    if hand.dealer in open_seats and hand.liang in hand.players[hand.dealer].hand:
        return hand.liang
    return None


def _copy_player(player: Player) -> Player:
    """Return a copy of ``player`` whose hand and groups may be replaced (the rest is shared
    until the accepted candidate is cloned)."""
    return replace(player, hand=list(player.hand),
                   groups=[replace(g, cards=list(g.cards)) for g in player.groups])


def _pool(match: Match, open_seats: list[int], groups: list[Group]) -> Counter:
    pool = Counter(match.hand.stock)
    for seat in open_seats:
        pool.update(match.hand.players[seat].hand)
    for group in groups:
        pool.update(group.cards)
    return pool


def deal_hidden(match: Match, open_seats: list[int], rng: Rng) -> Match | None:
    """Return ``match`` with the concealed cards of ``open_seats``, their face-down groups and
    the stock shuffled among those places, every size kept (a face-down group gets one face
    with enough copies left; one copy of the 亮张 stays in an open dealer's hand that holds it).
    Unchecked (the caller tests ``reachable``) and sharing the unchanged parts with ``match``
    (the caller clones the one it keeps).

    Returns None when a face-down group finds no face with enough copies left in the pool.
    """
    players = [_copy_player(p) for p in match.hand.players]
    out = replace(match, hand=replace(match.hand, players=players))
    liang = _kept_liang(out, open_seats)
    if liang is not None:
        players[out.hand.dealer].hand.remove(liang)
    groups = hidden_groups(out, open_seats)
    pool = _pool(out, open_seats, groups)
    for group in groups:
        faces = sort_cards(c for c, n in pool.items() if n >= len(group.cards))
        if not faces:
            return None
        chosen = rng.choice(faces)
        pool.subtract([chosen] * len(group.cards))
        group.cards = [chosen] * len(group.cards)
    rest = rng.shuffled(sort_cards(pool.elements()))
    for seat in open_seats:
        size = len(players[seat].hand)
        players[seat].hand, rest = sort_cards(rest[:size]), rest[size:]
    out.hand.stock = rest
    if liang is not None:
        dealer = players[out.hand.dealer]
        dealer.hand = sort_cards(dealer.hand + [liang])
    return out


def shuffle_stock(match: Match, rng: Rng) -> Match:
    """Return a copy of ``match`` with only the stock order re-dealt (level 3: any order of the
    stock can come out of the deal, so it is always reachable)."""
    out = clone(match)
    out.hand.stock = rng.shuffled(out.hand.stock)
    return out


def redeal(match: Match, viewer: int | None, rng: Rng) -> Match:
    """Return a copy of ``match`` with the cards ``viewer`` cannot see re-dealt from ``rng``,
    every count kept (hand sizes, stock size, group sizes), reachable under the rules and with
    the stored pending decision unchanged (see the module doc for the levels;
    ``reachable.py`` for the checks). Pure and deterministic for a given ``rng`` stream.

    Args:
        match: the real state (not modified). viewer: a seat, or None for a spectator.
        rng: the stream every candidate is drawn from.
    """
    for open_seats in open_levels(match, viewer):
        for _ in range(ATTEMPTS):
            candidate = deal_hidden(match, open_seats, rng)
            if candidate is not None and reachable(match, candidate, open_seats):
                return clone(candidate)
    return shuffle_stock(match, rng)
