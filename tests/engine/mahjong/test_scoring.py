"""Payments of both rule sets, the Hebei kong points, the ``mcr`` 8-point minimum, 和绝张 and
the dealer's win on the deal (rulings "Scoring: `mcr`", "Scoring: `hebei`")."""

import pytest

from engine.core import IllegalAction
from engine.mahjong import GAME
from engine.mahjong.hebei import kong_points
from engine.mahjong.state import Meld
from tests.engine.mahjong.builders import JUNK, discarded, drawn, player, table, turn

WIN = {"type": "win"}
OTHERS = [player("2288m2288p2468s6z"), player("3377m3377p3468s6z"), player("1199m1199p1289s4z")]
MIXED = "123m456p789s123s5z"            # 花龙, waits on 5z


# --------------------------------------------------------------------------- hebei


def test_hebei_self_drawn_each_of_the_three_pays_the_value():
    state = turn(table([OTHERS[0], player(MIXED), OTHERS[1], OTHERS[2]], head="9p"), 1,
                 drawn="5z")
    state, _ = GAME.apply(state, 1, WIN)
    sheet = state.results[0]
    # 门清 × 自摸 = 4 from each.
    assert (sheet["doublings"], sheet["way"]) == (["concealed_hand", "self_drawn"], "self_drawn")
    assert sheet["payments"] == [-4, 12, -4, -4] and state.totals == [-4, 12, -4, -4]


def test_hebei_won_on_a_discard_the_discarder_alone_pays():
    base = table([OTHERS[0], player(MIXED), OTHERS[1], player("5z " + JUNK, discards="8s")],
                 head="9p")
    state, _ = discarded(base, 3, "5z", drawn_tile="7z")
    state, _ = GAME.apply(state, 1, WIN)
    assert state.results[0]["payments"] == [0, 2, 0, -2]


def test_hebei_地和_on_the_hands_first_discard():
    base = table([player("5z " + JUNK), player(MIXED), *OTHERS[1:]], head="9p")
    state, _ = discarded(base, 0, "5z", drawn_tile="7z")
    state, _ = GAME.apply(state, 1, WIN)
    sheet = state.results[0]
    assert sheet["doublings"] == ["earthly_hand"] and sheet["payments"] == [-2, 2, 0, 0]


def test_hebei_kong_points_by_kind():
    melds = [[Meld("kong", ("4m",) * 4, 2, "4m")],            # 明杠 on seat 2's discard
             [Meld("added_kong", ("5p",) * 4, 0, "5p")],       # 加杠
             [], [Meld("concealed_kong", ("6s",) * 4)]]       # 暗杠
    # 明杠 [3, 0, -3, 0] + 加杠 [-1, 3, -1, -1] + 暗杠 [-2, -2, -2, 6].
    assert kong_points(melds) == [0, 1, -6, 5]


def test_hebei_kong_points_are_paid_on_a_draw_too():
    players = [player("123p 258s 99s 12z", melds=[("kong", "4444m", 2)]),
               player("2288m2288p24s", melds=[("added_kong", "5555p", 0)]),
               player("3377m3377p3478s6z"),
               player("1199m1199p14z", melds=[("concealed_kong", "6666s")])]
    state, _ = drawn(table(players), 0)          # the wall is empty: 荒庄
    sheet = state.results[0]
    assert sheet["result"] == "draw" and sheet["payments"] == [0, 0, 0, 0]
    assert sheet["kong_points"] == [0, 1, -6, 5] and state.totals == [0, 1, -6, 5]


def test_hebei_天和_the_dealer_wins_on_the_deal():
    state = turn(table([player(MIXED + "5z"), *OTHERS], head="9p"), 0, step="deal")
    assert GAME.legal_actions(state, 0)[0] == WIN
    state, _ = GAME.apply(state, 0, WIN)
    sheet = state.results[0]
    assert (sheet["doublings"], sheet["way"]) == (["heavenly_hand"], "self_drawn")
    assert sheet["payments"] == [6, -2, -2, -2]


# --------------------------------------------------------------------------- mcr


def test_mcr_won_on_a_discard_8_plus_total_from_the_discarder_8_from_the_others():
    base = table([OTHERS[0], player(MIXED, flowers="12f"), OTHERS[1],
                  player("5z " + JUNK, discards="8s")], rules="mcr", head="9p")
    state, _ = discarded(base, 3, "5z", drawn_tile="7z")
    state, _ = GAME.apply(state, 1, WIN)
    sheet = state.results[0]
    # 花龙 8, 门前清 2, 喜相逢 1, 单钓将 1, two flowers = 14.
    assert sheet["fans"] == [["mixed_straight", 8], ["concealed_hand", 2],
                             ["mixed_double_chow", 1], ["single_wait", 1],
                             ["flower_tiles", 1], ["flower_tiles", 1]]
    assert sheet["total"] == 14 and sheet["payments"] == [-8, 38, -8, -22]


def test_mcr_self_drawn_8_plus_total_from_each():
    state = turn(table([OTHERS[0], player(MIXED), *OTHERS[1:]], rules="mcr", head="9p"), 1,
                 drawn="5z")
    state, _ = GAME.apply(state, 1, WIN)
    sheet = state.results[0]
    # 花龙 8, 不求人 4, 喜相逢 1, 单钓将 1 = 14; 22 from each.
    assert sheet["total"] == 14 and sheet["payments"] == [-22, 66, -22, -22]
    assert sheet["kong_points"] == [0, 0, 0, 0]


# 345m 567p 678s 45s 22z: on 6s 三色三步高 6 + 门前清 2 = 8 (the minimum), on 3s only 4.
SHIFTED = "345m567p678s45s22z"


@pytest.mark.parametrize("tile, asked", [("6s", True), ("3s", False)])
def test_mcr_a_hand_below_8_is_not_offered_the_win(tile, asked):
    # Seat 3 discards (seat 1 is not its 下家: no chow; seat 0 cannot chow it).
    base = table([player("2288m2288p1599s6z"), player(SHIFTED, flowers="1234f"), OTHERS[1],
                  player(tile + " 1199m1199p1289s", discards="8s")], rules="mcr", head="9p")
    state, _ = discarded(base, 3, tile, drawn_tile="7z")
    # Four flowers add 4 to the total but nothing toward the minimum.
    if asked:
        assert GAME.to_act(state) == {1} and GAME.legal_actions(state, 1) == [WIN, {"type": "pass"}]
    else:
        assert state.hand.phase == "turn" and state.hand.players[0].drawn == "9p"


def test_mcr_a_self_drawn_hand_below_8_may_not_win():
    state = turn(table([OTHERS[0], player(SHIFTED), *OTHERS[1:]], rules="mcr", head="9p"), 1,
                 drawn="3s")
    assert WIN not in GAME.legal_actions(state, 1)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 1, WIN)
    assert refused.value.code == "below_minimum"


def test_mcr_和绝张_when_three_other_copies_are_in_sight():
    # Seat 1 waits on 2s (13s); three 2s lie in the discards.
    players = [player("2288m2288p468s16z", discards="2s"), player("123m456p789s13s55z"),
               player("3377m3377p3468s6z", discards="2s"), player("1199m1199p189s45z", discards="2s")]
    state = turn(table(players, rules="mcr", head="9p"), 1, drawn="2s")
    state, _ = GAME.apply(state, 1, WIN)
    assert state.results[0]["fans"] == [["mixed_straight", 8], ["fully_concealed_hand", 4],
                                        ["last_tile", 4], ["mixed_double_chow", 1],
                                        ["closed_wait", 1]]


def test_mcr_和绝张_on_a_discard_counts_only_the_other_copies():
    # Two 2s in the discards and the discarded one: a copy is still unseen, no 和绝张.
    players = [player("2288m2288p468s16z", discards="2s"), player("123m456p789s13s55z"),
               player("3377m3377p3468s6z", discards="4z"), player("1199m1199p189s42s", discards="2s")]
    state, _ = discarded(table(players, rules="mcr", head="9p"), 3, "2s", drawn_tile="7z")
    state, _ = GAME.apply(state, 1, WIN)
    assert "last_tile" not in dict(state.results[0]["fans"])


def test_mcr_a_dealers_win_on_the_deal_is_self_drawn_with_the_best_tile():
    state = turn(table([player(MIXED + "5z"), *OTHERS], rules="mcr", head="9p"), 0, step="deal")
    state, _ = GAME.apply(state, 0, WIN)
    sheet = state.results[0]
    # As the winning tile, 1m completes a two-sided wait (13 points); 2m a closed wait (14),
    # as 5z does a single wait: the first best in sort order, 2m, is kept.
    assert (sheet["win_tile"], sheet["way"], sheet["total"]) == ("2m", "self_drawn", 14)
    assert sheet["fans"] == [["mixed_straight", 8], ["fully_concealed_hand", 4],
                             ["mixed_double_chow", 1], ["closed_wait", 1]]
    assert sheet["payments"] == [66, -22, -22, -22]
