"""Re-deal everything a viewer cannot see (for information-leak tests and tooling).

Hidden from a viewer: the other seats' concealed hands, the stock order, and the other seats'
face-down groups (扫, 扫穿, the opening 扫穿 kept in hand). 过扫 shows its face and stays.
"""

from __future__ import annotations

from collections import Counter

from engine.core import Rng
from engine.zipai.cards import sort_cards
from engine.zipai.state import HIDDEN_KINDS, Match, clone


def _hidden_groups(match: Match, viewer: int | None):
    for seat, player in enumerate(match.hand.players):
        if seat != viewer:
            yield from (g for g in player.groups if g.kind in HIDDEN_KINDS or g.in_hand)


def _kept_liang(match: Match, viewer: int | None) -> str | None:
    """The dealer's 亮张 is public: keep one copy in a hidden dealer hand that still holds it."""
    hand = match.hand
    dealer = hand.players[hand.dealer]
    if hand.dealer != viewer and hand.liang in dealer.hand:
        return hand.liang
    return None


def redeal(match: Match, viewer: int | None, seed: bytes) -> Match:
    """Return a copy of ``match`` with the cards ``viewer`` cannot see shuffled among the hidden
    places, every count kept (hand sizes, stock size, group sizes).

    Args:
        match: the real state. viewer: a seat, or None for a spectator. seed: the shuffle's seed.
    """
    out = clone(match)
    hand = out.hand
    rng = Rng.derive(seed, "redeal", "" if viewer is None else viewer)
    liang = _kept_liang(out, viewer)
    others = [s for s in range(len(hand.players)) if s != viewer]
    if liang is not None:
        hand.players[hand.dealer].hand.remove(liang)
    groups = list(_hidden_groups(out, viewer))
    pool = Counter(hand.stock)
    for seat in others:
        pool.update(hand.players[seat].hand)
    for group in groups:
        pool.update(group.cards)
    for group in groups:
        size = len(group.cards)
        faces = sort_cards(c for c, n in pool.items() if n >= size)
        chosen = rng.choice(faces) if faces else group.cards[0]
        pool.subtract([chosen] * size)
        group.cards = [chosen] * size
    rest = rng.shuffled(sort_cards(pool.elements()))
    for seat in others:
        size = len(hand.players[seat].hand)
        hand.players[seat].hand, rest = sort_cards(rest[:size]), rest[size:]
    hand.stock = rest
    if liang is not None:
        dealer = hand.players[hand.dealer]
        dealer.hand = sort_cards(dealer.hand + [liang])
    return out
