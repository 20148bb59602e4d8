"""The end of the wall: no kong with the wall empty, only 和 on the last discard, a kong with
one tile left, a flower as the last tile, 荒庄 (rulings "The end of the wall")."""

import pytest

from engine.core import IllegalAction
from engine.mahjong import GAME
from tests.engine.mahjong.builders import discarded, drawn, player, table, turn

WIN, PASS = {"type": "win"}, {"type": "pass"}
OTHERS = [player("2288m2288p2468s6z"), player("3377m3377p3468s6z"), player("1199m1199p1289s4z")]


def _kong_with_one_tile_left(rules):
    # Seat 0 holds 777z and draws the fourth 中; the last tile of the wall, 5z, completes
    # 123m 456p 789s + 5z.
    return turn(table([player("777z 123m 456p 789s 5z"), *OTHERS], rules=rules, tail="5z"),
                0, drawn="7z")


def test_a_kong_with_one_tile_left_draws_it_mcr_both_杠上开花_and_妙手回春():
    state, _ = GAME.apply(_kong_with_one_tile_left("mcr"), 0, {"type": "kong", "tile": "7z"})
    assert state.hand.wall_left == 0 and state.hand.players[0].drawn == "5z"
    state, _ = GAME.apply(state, 0, WIN)
    sheet = state.results[0]
    assert sheet["fans"] == [["mixed_straight", 8], ["last_tile_draw", 8],
                             ["out_with_replacement_tile", 8], ["fully_concealed_hand", 4],
                             ["dragon_pung", 2], ["concealed_kong", 2], ["single_wait", 1]]
    # 33 points self-drawn: 8 + 33 from each of the three.
    assert sheet["total"] == 33 and sheet["payments"] == [123, -41, -41, -41]


def test_a_kong_with_one_tile_left_is_杠上开花_only_in_hebei():
    state, _ = GAME.apply(_kong_with_one_tile_left("hebei"), 0, {"type": "kong", "tile": "7z"})
    state, _ = GAME.apply(state, 0, WIN)
    sheet = state.results[0]
    assert sheet["doublings"] == ["concealed_hand", "kong_replacement"]
    assert sheet["payments"] == [12, -4, -4, -4] and sheet["kong_points"] == [6, -2, -2, -2]


def test_no_kong_with_the_wall_empty():
    state = turn(table([player("777z 123m 456p 789s 5z"), *OTHERS]), 0, drawn="7z")
    assert state.hand.wall_left == 0
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"discard"}
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, {"type": "kong", "tile": "7z"})
    assert refused.value.code == "wall_empty"


def _last_discard(rules):
    # The wall is empty; seat 0 discards 5z: seat 1 holds 55z (no 碰 now), seat 2 waits on it.
    return discarded(table([player("5z 1199m1199p1289s", discards="8s"),
                            player("55z 2288m2288p246s"), player("123m456p789s123s5z"),
                            player("3377m3377p3468s6z")], rules=rules), 0, "5z", drawn_tile="7z")[0]


def test_only_a_win_may_be_claimed_on_the_last_discard_mcr_海底捞月():
    state = _last_discard("mcr")
    assert GAME.to_act(state) == {2} and GAME.legal_actions(state, 2) == [WIN, PASS]
    assert GAME.view(state, 1)["claim"]["last"] is True
    state, _ = GAME.apply(state, 2, WIN)
    sheet = state.results[0]
    assert sheet["fans"] == [["mixed_straight", 8], ["last_tile_claim", 8],
                             ["concealed_hand", 2], ["mixed_double_chow", 1], ["single_wait", 1]]
    assert sheet["payments"] == [-28, -8, 44, -8]


def test_the_last_discard_counts_nothing_in_hebei():
    state, _ = GAME.apply(_last_discard("hebei"), 2, WIN)
    sheet = state.results[0]
    assert sheet["doublings"] == ["concealed_hand"] and sheet["payments"] == [-2, 0, 2, 0]


def test_an_unclaimed_last_discard_ends_the_hand_in_a_draw():
    state, events = GAME.apply(_last_discard("hebei"), 2, PASS)
    sheet = state.results[0]
    assert (sheet["result"], sheet["winner"], sheet["payments"]) == ("draw", None, [0, 0, 0, 0])
    assert [e.kind for e in events][:2] == ["claims_closed", "hand_over"]
    assert state.hand.number == 2


def test_a_flower_as_the_last_tile_is_exposed_and_the_hand_is_a_draw():
    state, events = drawn(table([player("123m456p789s123s5z"), *OTHERS], rules="mcr",
                                head="3f"), 0)
    assert [e.kind for e in events][:3] == ["drew", "flower", "hand_over"]
    sheet = state.results[0]
    assert sheet["result"] == "draw" and sheet["hands"][0]["flowers"] == ["3f"]


def test_a_flower_replacing_with_one_tile_left_draws_the_last_tile():
    # Seat 0 draws a flower; its replacement is the wall's last tile and completes the hand:
    # a self-drawn last-tile win (妙手回春), not a draw.
    state, _ = drawn(table([player("123m456p789s123s5z"), *OTHERS], rules="mcr",
                           head="4f", tail="5z"), 0)
    assert state.hand.wall_left == 0 and GAME.legal_actions(state, 0)[0] == WIN
    state, _ = GAME.apply(state, 0, WIN)
    assert ["last_tile_draw", 8] in state.results[0]["fans"]
