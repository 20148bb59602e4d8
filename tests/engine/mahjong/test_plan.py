"""The value-aware plan score of mahjong (``engine.mahjong.plan``) on hand-made views; the
values by hand from the tiers of its module docstring and the MCR fan table."""

import pytest

from engine.bots import make_bot
from engine.core import Rng
from engine.mahjong import GAME, plan
from engine.mahjong.bot import score as greedy
from engine.mahjong.tiles import counts, parse_tiles, sorted_tiles


def _view(hand: str, drawn: str | None = None, rules: str = "mcr", claim=None,
          discards: str = "") -> dict:
    players = [{"melds": [], "discards": [], "flowers": []} for _ in range(4)]
    players[2]["discards"] = [{"tile": t, "taken": False, "ready": False}
                              for t in parse_tiles(discards)]
    return {"seat": 1, "rules": rules, "players": players,
            "seat_winds": ["N", "E", "S", "W"], "prevalent_wind": "E" if rules == "mcr" else None,
            "phase": "claim" if claim else "turn",
            "claim": {"tile": claim} if claim else None,
            "me": {"hand": parse_tiles(hand), "drawn": drawn}}


def _ctx(hand: str, discards: str = "") -> plan.Context:
    seen = counts(parse_tiles(hand) + parse_tiles(discards))
    return ("mcr", "E", "E", 0, tuple(min(4, n) for n in seen))


# 789m 22p 4567p 13345s (14 tiles, seat 1 is East in an East round, no flowers).
#  - 7p out: 789m 456p 123s (花龙 mixed straight 8) + 345s + 22p, waiting on 2s (嵌张 closed
#    wait 1): on a discard 8 + 门前清 2 + 平和 2 + 1 = 13; self-drawn 8 + 不求人 4 + 2 + 1 = 15.
#    2s: none seen, 4 unseen. Gain 4 × (0.75 × 13 + 0.25 × 15) = 4 × 13.5 = 54.
#  - 4p out: 789m 567p 13s 345s 22p, also waiting on 2s, but without the straight: 2 + 2 + 1 = 5
#    on a discard, 4 + 2 + 1 = 7 self-drawn: both under 8, gain 0, so the hand is valued by its
#    outs (drawing back a 4p, then 7p out, makes the first hand), below every ≥ 8-point ready.
CHEAP = "789m22567p13345s"


def test_a_ready_hand_is_worth_only_its_waits_of_eight_points_or_more():
    view = _view("789m22p4567p13345s")
    seven, four = {"type": "discard", "tile": "7p"}, {"type": "discard", "tile": "4p"}
    assert plan.score(view, seven) == pytest.approx(50 + 54 / 1000)
    assert plan.OUTS_TIER < plan.score(view, four) < plan.READY_TIER
    # The greedy score sees two ready hands each with 4 winning tiles: a tie, and 4p is the
    # earlier legal action; the plan takes the 8-point hand.
    assert greedy(view, seven) == greedy(view, four) == pytest.approx(0.004)
    legal = [{"type": "discard", "tile": t} for t in dict.fromkeys(sorted_tiles(
        parse_tiles("789m22p4567p13345s")))]
    assert plan.choose(view, legal) == seven


def test_the_points_of_a_wait_count_discard_and_self_drawn_wins_below_eight_as_nothing():
    ctx = _ctx("789m22p4567p13345s")
    assert plan.wait_points(tuple(parse_tiles("789m22456p13345s")), "2s", (), ctx) == 13.5
    assert plan.wait_points(tuple(parse_tiles(CHEAP)), "2s", (), ctx) == 0
    assert plan.gain(tuple(parse_tiles(CHEAP)), (), ctx) == 0


def test_outs_count_the_unseen_tiles_that_lead_to_an_eight_point_ready_hand():
    # 789m 456p 345s 22p with a lone 1s and 7z (13 tiles, shanten 1). The draws that allow a
    # discard (7z) to a ready hand holding 花龙 789m 456p 123s:
    #   2s (12s waits 3s / 6s): 4 unseen; 3s (13s waits 2s): 4 less the 3s held = 3;
    #   6s (1s 3456s waits 2s: 123s 456s): 4 unseen.
    # Others make a ready hand under 8 points (1s or 7z: a shanpon with 22p; no straight).
    hand = tuple(sorted_tiles(parse_tiles("789m456p1s345s22p7z")))
    assert plan.outs(hand, (), _ctx("789m456p1s345s22p7z")) == 4 + 3 + 4
    # A 2s in seat 2's pool leaves 3 of them: 3 + 3 + 4.
    seen = _ctx("789m456p1s345s22p7z", discards="2s")
    assert plan.outs(hand, (), seen) == 10
    assert plan.hand_value(hand, (), seen) == pytest.approx(-50 + 10 / 100)


def test_a_claim_is_taken_only_when_it_beats_passing():
    # 123m 456p 55s 77z 13s 9s, Hebei: 碰 7z then 9s out leaves 123m 456p 13s 55s (ready on 2s,
    # Hebei accepts every shape) against shanten 1 when passing.
    view = _view("123m456p55s77z139s", rules="hebei", claim="7z")
    assert plan.score(view, {"type": "pung"}) > plan.READY_TIER
    assert plan.score(view, {"type": "pass"}) < -99
    # A Hebei 明杠 is always taken (the discarder pays 3 at the hand's end, even on a draw).
    kong_view = _view("123m456p789s777z5s", rules="hebei", claim="7z")
    kong = {"type": "kong", "tile": "7z"}
    assert plan.score(kong_view, kong) == plan.KONG_TIER


def test_the_hard_bot_with_the_plan_is_deterministic_for_a_seed():
    options = GAME.validate_options({"rules": "mcr"})
    state = GAME.new_game(options, 4, b"plan-determinism")
    seat = sorted(GAME.to_act(state))[0]
    view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
    picks = [make_bot("mahjong", "hard").choose(GAME, view, legal, Rng.derive(b"s", 1))
             for _ in range(2)]
    assert picks[0] == picks[1]
    assert picks[0] in legal


def test_a_hand_two_from_ready_is_valued_by_its_second_outs():
    # 789m 456p 345s with lone 2p 1s 7z 5z (shanten 2). Draws after which a discard leaves a
    # hand with outs (unseen copies: 4 less those held):
    #   a pair beside the lone 1s: 2p, 1s, 5z, 7z (3 each, one held) — 2p makes the outs hand
    #   above (5z out);
    #   the 123s / 456s shapes of 花龙: 2s (4), 3s (3), 6s (4), 2p out;
    #   a partial in pins with room for a pair: 1p (4), 3p (4), 7p (4), 5z out.
    # 12 + 11 + 12 = 35.
    hand = tuple(sorted_tiles(parse_tiles("789m456p345s2p1s7z5z")))
    ctx = _ctx("789m456p345s2p1s7z5z")
    assert plan.second_outs(hand, (), ctx) == 35
    assert plan.hand_value(hand, (), ctx) == pytest.approx(plan.SECOND_TIER + 35 / 100)


def test_a_hebei_hand_counts_the_useful_tiles_of_a_pair_four_times():
    # 123m 478m 1p 4556p 789s, Hebei, one from ready after either 1p or 5p out. The tiles that
    # lower the shanten (unseen copies, the seat's own tiles taken off):
    #   1p out (123m 478m 4556p 789s): 1m 3, 4m 3, 6m 4, 9m 4 and 5p 2 — held as a pair, so
    #     also a 碰 from any seat (no 吃 in Hebei): 14 + 2 = 16 for the greedy bot, 14 + 4 × 2
    #     = 22 for the plan;
    #   5p out (123m 478m 1456p 789s): the same 14 and 1p 3 (held once): 17 for both.
    view = _view("123478m1455p789s", drawn="6p", rules="hebei")
    one, five = {"type": "discard", "tile": "1p"}, {"type": "discard", "tile": "5p"}
    assert greedy(view, one) == pytest.approx(-100 + 16 / 1000)
    assert greedy(view, five) == pytest.approx(-100 + 17 / 1000)
    assert plan.score(view, one) == pytest.approx(-100 + 22 / 1000)
    assert plan.score(view, five) == pytest.approx(-100 + 17 / 1000)
    legal = [{"type": "discard", "tile": t} for t in dict.fromkeys(parse_tiles("123478m14556p789s"))]
    assert plan.choose(view, legal) == one
