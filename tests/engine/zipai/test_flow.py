"""Deal, opening 扫穿, hand sequence, dealer rotation, ranking, clocks and resign (rulings "Deal
and turn flow", "Scoring" last bullet)."""

import random
from collections import Counter

import pytest

from engine.core import IllegalAction, InvalidAction
from engine.zipai import GAME, flow
from engine.zipai.cards import deck
from engine.zipai.state import clone
from tests.engine.zipai.builders import (
    BASE,
    all_cards,
    cards,
    discarded,
    drawn,
    player,
    table,
    to_discard,
)

PASS = {"type": "pass"}


def _new(seed: bytes = b"deal", **options):
    return GAME.new_game(GAME.validate_options(options), 3, seed)


def test_the_deal_gives_21_20_20_and_19_in_stock():
    for seed in range(20):
        state = _new(bytes([seed]))
        hand = state.hand
        extras = [max(0, p.fours - 1) for p in hand.players]   # 2+ opening 扫穿: extra cards
        for seat, p in enumerate(hand.players):
            dealt = 21 if seat == hand.dealer else 20
            assert len(p.hand) + sum(len(g.cards) for g in p.groups) == dealt + extras[seat]
        assert len(hand.stock) == 19 - sum(extras)
        assert all_cards(state) == Counter(deck())
    state = _new()
    hand = state.hand
    # The 亮张 is the dealer's and everyone sees it; only the dealer sees the dealer's hand.
    assert hand.liang in hand.players[hand.dealer].hand + [
        c for g in hand.players[hand.dealer].groups for c in g.cards]
    other = (hand.dealer + 1) % 3
    assert GAME.view(state, other)["liangzhang"] == hand.liang
    assert GAME.view(state, other)["me"]["hand"] == hand.players[other].hand
    assert "hand" not in GAME.view(state, other)["players"][hand.dealer]
    assert GAME.view(state, None)["me"] is None
    assert GAME.to_act(state) == {hand.dealer} and hand.phase == "discard"


def test_hand_one_dealer_comes_from_the_seed():
    dealers = {_new(bytes([i])).hand.dealer for i in range(12)}
    assert dealers == {0, 1, 2}
    assert _new(b"same").hand.dealer == _new(b"same").hand.dealer


def test_one_opening_saochuan_stays_in_hand_hidden():
    p = player("一一一一 二三四")
    assert flow._opening_saochuan(p, cards("五六")) == 1
    assert p.groups[0].in_hand and p.groups[0].cards == ["x1"] * 4 and p.fours == 1
    assert p.hand == cards("二三四")
    state = table([p, player("十"), player("十")])
    assert GAME.view(state, 1)["players"][0]["groups"] == []
    assert GAME.view(state, 1)["players"][0]["hand_size"] == 7
    assert GAME.view(state, 0)["players"][0]["groups"] == [
        {"kind": "saochuan", "cards": ["x1"] * 4, "in_hand": True}]


def test_two_opening_saochuan_are_laid_face_down_with_an_extra_card():
    p = player("一一一一 壹壹壹壹 二三")
    stock = cards("五六")
    assert flow._opening_saochuan(p, stock) == 2
    assert [g.in_hand for g in p.groups] == [False, False] and p.fours == 2
    assert p.hand == cards("二三五") and stock == ["x6"]
    state = table([p, player("十"), player("十")])
    assert GAME.view(state, 2)["players"][0]["groups"] == [
        {"kind": "saochuan", "cards": [None] * 4, "in_hand": False}] * 2


def test_an_extra_card_that_makes_another_four_draws_again():
    p = player("一一一一 壹壹壹壹 二二二")
    stock = cards("二 五 六")
    assert flow._opening_saochuan(p, stock) == 3
    # three sets → two extra cards: 二 (which made the third set) and 五
    assert p.hand == cards("五") and stock == ["x6"]


def test_an_unclaimed_draw_goes_to_the_drawers_pile_and_the_next_seat_draws():
    # Seat 0 draws 玖: nobody can use it. Seat 1 then draws 拾 and completes 拾拾 (forced 扫).
    base = table([player("一"), player("拾拾 三"), player("五")], stock="玖 拾")
    state, events = drawn(base, 0)
    assert state.hand.players[0].pile == ["d9"]
    assert state.hand.phase == "discard" and state.hand.turn == 1
    assert [e.kind for e in events][:2] == ["drawn", "to_pile"]


def test_a_claim_timeout_passes_and_makes_the_card_chou():
    # after the pass seat 1 draws 玖 onto 玖玖 (forced 扫) and must discard: the hand goes on.
    base = table([player("五 拾"), player("三四 玖玖 一"), player("拾")], stock="玖")
    state, _ = discarded(base, 0, "五")
    assert GAME.deadline_action(state, 1) == PASS
    state, _ = GAME.apply(state, 1, GAME.deadline_action(state, 1))
    assert state.hand.players[1].chou == ["x5"]


def test_huangzhuang_keeps_the_dealer_and_scores_nothing():
    base = table([player("一"), player("三"), player("五")], stock="", dealer=1)
    state = clone(base)
    events = flow.draw_chain(state, 0, [])
    assert state.results == [{"hand": 1, "dealer": 1, "winner": None, "payments": [0, 0, 0]}]
    assert state.hand.number == 2 and state.hand.dealer == 1
    assert [e.kind for e in events][:2] == ["hand_over", "hand_started"]


def test_the_winner_deals_next_and_the_last_hand_ends_the_match():
    base = table([player("十 拾"), player(BASE + " 八九"), player("十")], stock="伍", hands=2)
    state, _ = discarded(base, 0, "十")
    state, _ = GAME.apply(state, 1, {"type": "hu"})
    assert state.hand.number == 2 and state.hand.dealer == 1 and state.totals == [-2, 2, 0]
    assert GAME.outcome(state) is None
    # hand 2 ends in 荒庄: the match is over, ranked by totals.
    state.hand.stock = []
    events = flow.draw_chain(state, 0, [])
    assert state.over and not GAME.to_act(state)
    assert [e.kind for e in events] == ["hand_over", "match_over"]
    outcome = GAME.outcome(state)
    assert outcome.ranks == (3, 1, 2) and outcome.reason == "decision"
    assert outcome.detail == {"totals": [-2, 2, 0], "hands_played": 2}
    assert GAME.view(state, 0)["outcome"]["winners"] == [1]
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 0, PASS)
    assert info.value.code == "game_over"


def test_ties_share_a_rank_and_a_resigner_is_last():
    state = _new()
    state.over, state.totals = True, [3, 3, -6]
    assert GAME.outcome(state).ranks == (1, 1, 3)
    resigned, _ = GAME.resign(_new(), 0)
    outcome = GAME.outcome(resigned)
    assert outcome.reason == "resign" and outcome.ranks[0] == 3


def test_errors_have_codes():
    state = _new()
    dealer = state.hand.dealer
    other = (dealer + 1) % 3
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, other, {"type": "discard", "card": "x1"})
    assert info.value.code == "not_your_turn"
    missing = next(c for c in deck() if c not in state.hand.players[dealer].hand)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, dealer, {"type": "discard", "card": missing})
    assert info.value.code == "card_not_in_hand"
    for bad, code in (({"type": "discard", "card": "z9"}, "unknown_card"),
                      ({"type": "discard"}, "malformed_action"),
                      ({"type": "fly"}, "unknown_action")):
        with pytest.raises(InvalidAction) as info:
            GAME.apply(state, dealer, bad)
        assert info.value.code == code


def test_kan_cards_cannot_be_discarded():
    state = table([player("四四四 五"), player("十"), player("十")])
    state = to_discard(state, 0)
    assert GAME.legal_actions(state, 0) == [{"type": "discard", "card": "x5"}]
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 0, {"type": "discard", "card": "x4"})
    assert info.value.code == "kan_locked"


def test_cards_are_conserved_through_random_play():
    for seed in range(3):
        state = _new(bytes([seed]), hands=2)
        chooser = random.Random(seed)
        while GAME.to_act(state):
            assert all_cards(state) == Counter(deck())
            seat = chooser.choice(sorted(GAME.to_act(state)))
            state, _ = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
