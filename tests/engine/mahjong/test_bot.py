"""The greedy score of mahjong (``engine.mahjong.bot``) on hand-made views; values by hand from
the table of the module docstring (shanten: 8 − 2·sets − partial sets − a pair)."""

import pytest

from engine.mahjong.bot import score, useful_tiles
from engine.mahjong.tiles import counts, parse_tiles


def _view(hand: str, drawn: str | None = None, rules: str = "hebei", melds=(), claim=None,
          discards=()) -> dict:
    players = [{"melds": [], "discards": []} for _ in range(4)]
    players[1]["melds"] = [{"kind": k, "tiles": parse_tiles(t)} for k, t in melds]
    players[2]["discards"] = [{"tile": t, "taken": False, "ready": False}
                              for t in parse_tiles(discards)] if discards else []
    return {"seat": 1, "rules": rules, "players": players,
            "phase": "claim" if claim else "turn",
            "claim": {"tile": claim} if claim else None,
            "me": {"hand": parse_tiles(hand), "drawn": drawn}}


def test_useful_tiles_count_the_unseen_copies_of_each_improving_kind():
    hand = parse_tiles("123m456p789s1122z")
    assert useful_tiles(hand, 0, "hebei", counts(hand)) == 4        # two 1z and two 2z left
    seen = counts(hand + ["1z"])
    assert useful_tiles(hand, 0, "hebei", seen) == 3


def test_a_win_is_always_taken_and_a_pass_is_worth_nothing():
    view = _view("123m456p789s1122z", "1z")
    assert score(view, {"type": "win"}) == 1000
    assert score(view, {"type": "pass"}) == 0


def test_the_discard_that_keeps_the_hand_ready_scores_best_and_ready_costs_half():
    view = _view("123m456p789s1122z", "9m")
    # 9m out: ready (shanten 0) on 1z/2z, 4 unseen copies; a ready declaration costs 1/2.
    assert score(view, {"type": "discard", "tile": "9m"}) == pytest.approx(0.004)
    assert score(view, {"type": "discard", "tile": "9m", "ready": True}) == pytest.approx(-0.496)
    # 1z out: 3 sets, the pair 22z, 9m and 1z alone: shanten 1 (useful not counted).
    assert score(view, {"type": "discard", "tile": "1z"}) == -100
    # Seat 2's discard of a 2z leaves 3 copies that complete the hand.
    seen = _view("123m456p789s1122z", "9m", discards="2z")
    assert score(seen, {"type": "discard", "tile": "9m"}) == pytest.approx(0.003)


def test_a_claim_is_worth_ten_per_shanten_it_saves_else_minus_one():
    # 123m 456p 55s 77z 13s 9s: 2 sets, the pair 55s, partials 77z and 13s: shanten 1.
    hand = "123m456p55s77z139s"
    # 碰 7z, then 9s out: 3 sets, 55s, 13s: shanten 0.
    assert score(_view(hand, claim="7z"), {"type": "pung"}) == 10
    # 吃 2s with 1s 3s (mcr), then 9s out: 3 sets, 55s, 77z: shanten 0.
    chow = {"type": "chow", "tiles": ["1s", "3s"]}
    assert score(_view(hand, rules="mcr", claim="2s"), chow) == 10
    # A ready hand (123m 456p 789s 55s 77z) gains nothing by 碰 7z: still ready after a discard.
    assert score(_view("123m456p789s55s77z", claim="7z"), {"type": "pung"}) == -1
    # 明杠 of 7z held three times beside a single 5s: ready before and after.
    kong = {"type": "kong", "tile": "7z"}
    assert score(_view("123m456p789s777z5s", claim="7z"), kong) == -1


def test_a_kong_in_ones_turn_is_made_unless_it_breaks_the_hand():
    # 7777z beside four sets' worth: after the kong 123m 456p 789s 5s is still ready.
    assert score(_view("123m456p789s777z5s", "7z"), {"type": "kong", "tile": "7z"}) == 1
    # 1111m 23m: 111m + 123m make two sets; a kong of 1m leaves 23m alone: shanten 1 > 0.
    assert score(_view("1111m23m456p789s5s", "5z"), {"type": "kong", "tile": "1m"}) == -1
    # 加杠 of 5p to the exposed pung: 123m 456s 789s 1z left, ready (single wait on 1z).
    added = _view("123m456s789s1z", "5p", melds=[("pung", "555p")])
    assert score(added, {"type": "kong", "tile": "5p"}) == 1
