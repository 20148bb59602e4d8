"""Flowers (``mcr``): replaced after the deal in turn from the dealer until nobody holds one,
a drawn flower exposed and replaced from the tail at once, repeatedly, and a flower after a
kong's replacement making the win plain 自摸 (rulings "Seats, wall and deal", "A turn",
"Scoring: `mcr`")."""

from collections import Counter

import pytest

from engine.mahjong import GAME
from engine.mahjong.deal import replace_dealt_flowers
from engine.mahjong.tiles import is_flower
from tests.engine.mahjong.builders import drawn, every_tile, full_set, player, table, turn

OTHERS = [player("2288m2288p2468s6z"), player("3377m3377p3468s6z"), player("1199m1199p1289s4z")]


def test_dealt_flowers_are_replaced_in_turn_from_the_dealer_until_none_is_left():
    # Dealer seat 1 holds 3f, seat 0 holds 1f 2f. Tail draws: 4f (to seat 1: a chain), 5m, 6m
    # (to seat 0), then in the second pass 7m replaces seat 1's 4f.
    hand = table([player("12f 123m456p789s12z"), player("3f 1199m1199p1289s2z"),
                  player("2288m2288p2468s6z"), player("3377m3377p3468s6z")],
                 rules="mcr", dealer=1, tail="4f 5m 6m 7m").hand
    events = replace_dealt_flowers(hand)
    assert [(e.data["seat"], e.data["tile"]) for e in events] == [
        (1, "3f"), (0, "1f"), (0, "2f"), (1, "4f")]
    assert hand.players[1].flowers == ["3f", "4f"] and hand.players[0].flowers == ["1f", "2f"]
    assert "7m" in hand.players[1].concealed and {"5m", "6m"} <= set(hand.players[0].concealed)
    assert hand.wall_left == 0


@pytest.mark.parametrize("seed", range(6))
def test_a_seeded_mcr_deal_leaves_no_flower_in_a_hand(seed):
    state = GAME.new_game(GAME.validate_options({"rules": "mcr"}), 4, bytes([seed]))
    hand = state.hand
    sizes = [len(p.concealed) for p in hand.players]
    assert sizes[hand.dealer] == 14 and sorted(sizes) == [13, 13, 13, 14]
    assert not any(is_flower(t) for p in hand.players for t in p.concealed)
    flowers = sum(len(p.flowers) for p in hand.players)
    assert hand.wall_left == 144 - 53 - flowers
    assert every_tile(state) == full_set("mcr")


def test_a_drawn_flower_is_replaced_from_the_tail_repeatedly():
    state, events = drawn(table([player("123m456p789s123s5z"), *OTHERS], rules="mcr",
                                head="1f 9p", tail="2f 5z"), 0)
    assert [(e.kind, e.data.get("tile"), e.data.get("from")) for e in events] == [
        ("drew", None, "head"), ("flower", "1f", None), ("drew", None, "tail"),
        ("flower", "2f", None), ("drew", None, "tail")]
    assert state.hand.players[0].flowers == ["1f", "2f"] and state.hand.step == "draw"
    state, _ = GAME.apply(state, 0, {"type": "win"})
    sheet = state.results[0]
    # 花龙 8, 不求人 4, 喜相逢 1, 单钓将 1 + two flowers = 16; 8 + 16 from each.
    assert sheet["fans"] == [["mixed_straight", 8], ["fully_concealed_hand", 4],
                             ["mixed_double_chow", 1], ["single_wait", 1],
                             ["flower_tiles", 1], ["flower_tiles", 1]]
    assert sheet["payments"] == [72, -24, -24, -24]


def test_a_flower_as_a_kongs_replacement_makes_the_win_自摸_not_杠上开花():
    state = turn(table([player("777z 123m 456p 789s 5z"), *OTHERS], rules="mcr", head="9p",
                       tail="3f 5z"), 0, drawn="7z")
    state, _ = GAME.apply(state, 0, {"type": "kong", "tile": "7z"})
    assert state.hand.step == "draw" and state.hand.players[0].drawn == "5z"
    state, _ = GAME.apply(state, 0, {"type": "win"})
    fans = dict(state.results[0]["fans"])
    assert "out_with_replacement_tile" not in fans
    assert state.results[0]["fans"] == [["mixed_straight", 8], ["fully_concealed_hand", 4],
                                        ["dragon_pung", 2], ["concealed_kong", 2],
                                        ["single_wait", 1], ["flower_tiles", 1]]


def test_hebei_has_no_flowers():
    state = GAME.new_game(GAME.validate_options({}), 4, b"hebei")
    assert every_tile(state) == full_set("hebei") and sum(full_set("hebei").values()) == 136
    assert Counter(t for t in every_tile(state) if is_flower(t)) == Counter()
