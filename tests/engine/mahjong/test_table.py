"""Seats, winds, dealers and the match's hands: the first dealer from the seed, the MCR seat
changes each round (E, S, W, N players sit S, E, N, W; N, W, E, S; W, N, S, E), the deal
passing every hand in ``mcr`` and staying on a dealer win or a draw in ``hebei`` (rulings
"Seats, wall and deal", "Scoring: `mcr`", "Scoring: `hebei`")."""

import random

import pytest

from engine.mahjong import GAME
from engine.mahjong.table import (
    first_dealer,
    hebei_next_dealer,
    mcr_seating,
    prevalent_wind,
    round_order,
    seat_winds,
    seats_after,
)
from tests.engine.mahjong.builders import drawn, player, table, turn


def test_the_first_dealer_comes_from_the_seed():
    dealers = [first_dealer(bytes([n])) for n in range(40)]
    assert set(dealers) == {0, 1, 2, 3}
    state = GAME.new_game(GAME.validate_options({}), 4, bytes([7]))
    assert state.hand.dealer == first_dealer(bytes([7])) == state.first_dealer


def test_mcr_seat_changes_by_round():
    # First dealer 2: the players who begin as E, S, W, N are seats 2, 3, 0, 1.
    assert round_order(2, 0) == (2, 3, 0, 1)
    assert round_order(2, 1) == (3, 2, 1, 0)     # they sit S, E, N, W
    assert round_order(2, 2) == (0, 1, 3, 2)     # N, W, E, S
    assert round_order(2, 3) == (1, 0, 2, 3)     # W, N, S, E


def test_mcr_dealers_and_winds_over_four_rounds():
    seating = [mcr_seating(2, n) for n in range(1, 17)]
    assert [dealer for _, dealer in seating] == [2, 3, 0, 1, 3, 2, 1, 0, 0, 1, 3, 2, 1, 0, 2, 3]
    assert [prevalent_wind("mcr", n) for n in (1, 4, 5, 8, 9, 12, 13, 16)] == list("EESSWWNN")
    order, dealer = seating[4]                       # hand 5: the South round's first hand
    assert seat_winds(order, dealer) == ["N", "W", "S", "E"]
    assert seats_after(order, 2) == [1, 0, 3]        # turn order 3 → 2 → 1 → 0
    assert prevalent_wind("hebei", 5) is None


def test_hebei_dealer_stays_on_a_dealer_win_or_a_draw():
    order = (0, 1, 2, 3)
    assert hebei_next_dealer(order, 2, None) == 2
    assert hebei_next_dealer(order, 2, 2) == 2
    assert hebei_next_dealer(order, 2, 0) == 3
    assert hebei_next_dealer(order, 3, 1) == 0


def test_hebei_the_next_hand_after_a_draw_keeps_the_dealer():
    base = table([player("1199m1199p1289s4z"),
                  player("2288m2288p2468s6z"), player("3377m3377p3468s6z"),
                  player("4466m4466p2468s7z")], dealer=1)
    state, _ = drawn(base, 2)
    assert state.results[0]["result"] == "draw" and state.hand.number == 2
    assert state.hand.dealer == 1 and GAME.to_act(state) == {1}


def test_hebei_the_next_hand_after_another_seats_win_goes_to_the_dealers_下家():
    base = table([player("2288m2288p2468s6z"), player("123m456p789s123s5z"),
                  player("3377m3377p3468s6z"), player("1199m1199p1289s4z")], dealer=3,
                 head="9p")
    state, _ = GAME.apply(turn(base, 1, drawn="5z"), 1, {"type": "win"})
    assert state.hand.number == 2 and state.hand.dealer == 0
    assert len(state.hand.players[0].concealed) == 14


def _play_to_hand(options, seed, number):
    """Play seeded random moves until hand ``number`` starts; return that state."""
    state = GAME.new_game(GAME.validate_options(options), 4, seed)
    chooser = random.Random(seed)
    while state.hand.number < number and GAME.to_act(state):
        seat = chooser.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize("number", [2, 5, 6])
def test_a_played_mcr_match_changes_seats_at_the_south_round(number):
    state = _play_to_hand({"rules": "mcr", "rounds": 2}, b"seats", number)
    first = state.first_dealer
    order, dealer = mcr_seating(first, number)
    hand = state.hand
    assert (hand.number, hand.order, hand.dealer) == (number, order, dealer)
    assert GAME.to_act(state) == {dealer} and len(hand.players[dealer].concealed) == 14
    view = GAME.view(state, None)
    assert view["prevalent_wind"] == ("E" if number <= 4 else "S")
    assert view["order"] == list(order) and view["seat_winds"] == seat_winds(order, dealer)
    assert [r["dealer"] for r in state.results] == [mcr_seating(first, n)[1]
                                                    for n in range(1, number)]


@pytest.mark.parametrize("seed, totals, ranks", [
    (b"a", [-1, 6, -1, -4], (2, 1, 2, 4)),      # equal totals share a rank
    (b"c", [-2, -2, 2, 2], (3, 3, 1, 1)),
])
def test_a_match_lasts_its_hands_and_ranks_by_total(seed, totals, ranks):
    state = _play_to_hand({"hands": 4}, seed, 99)
    assert not GAME.to_act(state) and len(state.results) == 4
    outcome = GAME.outcome(state)
    assert (state.totals, outcome.ranks, outcome.reason) == (totals, ranks, "final_score")
    assert outcome.detail == {"totals": totals, "hands_played": 4}
