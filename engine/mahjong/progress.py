"""The match around the hands: which hand comes next, who deals it and where everyone sits,
and the final ranking (rulings "Match, clocks and bots"; ``table`` for the seat rules).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.mahjong.state import Match
from engine.mahjong.table import SEATS, first_order, hebei_next_dealer, match_hands, mcr_seating


def opening_seating(rules: str, first: int) -> tuple[tuple[int, ...], int]:
    """Return (table order, dealer) of hand 1 for a first dealer ``first``."""
    if rules == "mcr":
        return mcr_seating(first, 1)
    return first_order(0), first


def next_seating(match: Match, winner: int | None) -> tuple[int, tuple[int, ...], int] | None:
    """Return (number, table order, dealer) of the hand after the current one, which ended with
    ``winner`` (None: a draw), or None when the match is over (its hands are played)."""
    hand = match.hand
    number = hand.number + 1
    if number > match_hands(match.options):
        return None
    if match.rules == "mcr":
        order, dealer = mcr_seating(match.first_dealer, number)
        return number, order, dealer
    return number, hand.order, hebei_next_dealer(hand.order, hand.dealer, winner)


def ranks(totals: Sequence[int], resigned: int | None = None) -> tuple[int, ...]:
    """Return each seat's rank by total score, 1 = best; equal totals share a rank (a seat that
    resigned ranks below every other)."""
    def key(seat: int) -> tuple[int, int]:
        return (0 if seat == resigned else 1, totals[seat])

    return tuple(1 + sum(key(o) > key(s) for o in range(SEATS)) for s in range(SEATS))
