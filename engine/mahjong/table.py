"""Seats, winds, dealers and the length of a match (rulings "Seats, wall and deal", "Scoring:
`mcr`" dealer and seats, "Scoring: `hebei`" dealer).

A table order is the tuple of room seats in turn order, the seat at the East position of the
round first. Seat winds go by position from the dealer: dealer East, then South, West, North.

- ``hebei``: the order is 0 → 1 → 2 → 3 for the whole match; the dealer stays after a dealer
  win or a draw, else the dealer's 下家 deals (seed 麻将基本规则: 庄家胡牌…继续做庄, 荒庄…继续坐庄).
- ``mcr``: the deal passes to the next seat after every hand (无论是否和牌，庄家不连庄); each
  round of four hands has its prevalent wind (East, South, West, North) and its own seating
  (轮转): the players who began as E, S, W, N sit S, E, N, W in the South round, N, W, E, S in
  the West round and W, N, S, E in the North round; the new East deals first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Rng

SEATS = 4
WINDS = "ESWN"
HANDS_PER_ROUND = 4

#: ``_SEATING[r][position]``: the index, in the first round's order, of the player at that
#: position (E, S, W, N) in round ``r`` (the table above).
_SEATING = ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 1, 0), (3, 2, 0, 1))


def first_dealer(seed: bytes) -> int:
    """Return the first hand's dealer, drawn from the match seed (rulings: both rule sets)."""
    return Rng.derive(seed, "dealer").randbelow(SEATS)


def first_order(dealer: int) -> tuple[int, ...]:
    """Return the first round's table order: the first dealer at East, then the room seats in
    their order (turn order 0 → 1 → 2 → 3 → 0)."""
    return tuple((dealer + k) % SEATS for k in range(SEATS))


def round_order(first: int, round_index: int) -> tuple[int, ...]:
    """Return the table order of ``mcr`` round ``round_index`` (0 = East round) for a match whose
    first dealer is ``first`` (the seat changes of the module doc)."""
    base = first_order(first)
    return tuple(base[i] for i in _SEATING[round_index])


def match_hands(options: Mapping[str, Any]) -> int:
    """Return how many hands the match lasts: ``hands`` (``hebei``) or 4 × ``rounds`` (``mcr``)."""
    if options["rules"] == "mcr":
        return HANDS_PER_ROUND * int(options["rounds"])
    return int(options["hands"])


def mcr_seating(first: int, number: int) -> tuple[tuple[int, ...], int]:
    """Return (table order, dealer) of ``mcr`` hand ``number`` (1-based): round
    ``(number - 1) // 4``, the deal at position ``(number - 1) % 4`` of that round's order."""
    round_index, position = divmod(number - 1, HANDS_PER_ROUND)
    order = round_order(first, round_index)
    return order, order[position]


def prevalent_wind(rules: str, number: int) -> str | None:
    """Return the prevalent wind (圈风) letter of hand ``number`` in ``mcr`` (East for hands 1–4,
    South 5–8, West 9–12, North 13–16), ``None`` in ``hebei`` (it has none)."""
    if rules != "mcr":
        return None
    return WINDS[(number - 1) // HANDS_PER_ROUND]


def seat_wind(order: tuple[int, ...], dealer: int, seat: int) -> str:
    """Return the seat wind letter of ``seat``: its position from the dealer in ``order``."""
    return WINDS[(order.index(seat) - order.index(dealer)) % SEATS]


def seat_winds(order: tuple[int, ...], dealer: int) -> list[str]:
    """Return every room seat's wind letter (index = seat)."""
    return [seat_wind(order, dealer, seat) for seat in range(SEATS)]


def next_seat(order: tuple[int, ...], seat: int) -> int:
    """Return the 下家 of ``seat``: the seat after it in turn order."""
    return order[(order.index(seat) + 1) % SEATS]


def seats_after(order: tuple[int, ...], seat: int) -> list[int]:
    """Return the other three seats in turn order after ``seat`` (截和 priority order)."""
    at = order.index(seat)
    return [order[(at + k) % SEATS] for k in range(1, SEATS)]


def turn_from(order: tuple[int, ...], seat: int) -> list[int]:
    """Return the four seats in turn order starting with ``seat`` (dealer, South, West, North
    when ``seat`` is the dealer)."""
    return [seat] + seats_after(order, seat)


def hebei_next_dealer(order: tuple[int, ...], dealer: int, winner: int | None) -> int:
    """Return the next ``hebei`` dealer: the same after a dealer win or a draw (``winner`` None),
    else the dealer's 下家."""
    if winner is None or winner == dealer:
        return dealer
    return next_seat(order, dealer)
