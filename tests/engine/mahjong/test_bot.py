"""The greedy score of mahjong (``engine.mahjong.bot``) on hand-made views."""

import pytest

from engine.mahjong.bot import links, score
from engine.mahjong.tiles import parse_tiles


def _view(hand: str, drawn: str | None, rules: str = "hebei", melds=()) -> dict:
    players = [{"melds": []} for _ in range(4)]
    players[1]["melds"] = [{"kind": k, "tiles": parse_tiles(t)} for k, t in melds]
    return {"seat": 1, "rules": rules, "players": players,
            "me": {"hand": parse_tiles(hand), "drawn": drawn}}


def test_links_count_copies_and_near_tiles_of_the_suit():
    hand = parse_tiles("1123m5p1z")
    assert links("1m", hand) == 3          # the other 1m, 2m, 3m
    assert links("5p", hand) == 0 and links("1z", hand) == 0


def test_a_win_beats_everything_and_claims_are_left():
    view = _view("123m456p789s1122z", "1z")
    assert score(view, {"type": "win"}) == 1000
    assert score(view, {"type": "kong", "tile": "1z"}) == 1
    assert score(view, {"type": "pung"}) == -1 and score(view, {"type": "pass"}) == 0


def test_a_discard_that_keeps_the_hand_ready_scores_best():
    view = _view("123m456p789s1122z", "9m")
    # Discarding 9m leaves the hand ready (shanten 0) and the 9m has 0 links; ready adds 1.
    assert score(view, {"type": "discard", "tile": "9m"}) == 0
    assert score(view, {"type": "discard", "tile": "9m", "ready": True}) == 1
    # Discarding 1z breaks a pair: one away from ready (shanten 1) and 1z has one link.
    assert score(view, {"type": "discard", "tile": "1z"}) == pytest.approx(-10.1)
