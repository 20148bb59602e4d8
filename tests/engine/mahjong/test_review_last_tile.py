"""和绝张 on a claimed discard (rulings "Scoring: `mcr`": three other copies of the winning tile
in sight — the discarded one is the winning tile itself, not one of the three)."""

from engine.mahjong import GAME
from tests.engine.mahjong.builders import discarded, player, table

WIN = {"type": "win"}


def _fourth_two_bamboo_discarded(waiting: str):
    # Three 2s lie in the discards of seats 0, 2 and 3; seat 3 discards the fourth and seat 1
    # waits on it (13s: a closed wait). Nobody else can claim 2s.
    players = [player("2288m2288p468s16z", discards="2s"), player(waiting),
               player("3377m3377p3468s6z", discards="2s"),
               player("1199m1199p189s42s", discards="2s")]
    state, _ = discarded(table(players, rules="mcr", head="9p"), 3, "2s", drawn_tile="7z")
    return state


def test_和绝张_counts_on_the_last_copy_claimed_from_a_discard():
    state = _fourth_two_bamboo_discarded("123m456p789s13s55z")
    state, _ = GAME.apply(state, 1, WIN)
    sheet = state.results[0]
    # 花龙 8, 门前清 2, 和绝张 4, 喜相逢 (123m 123s) 1, 嵌张 1 = 16.
    assert sheet["fans"] == [["mixed_straight", 8], ["last_tile", 4], ["concealed_hand", 2],
                             ["mixed_double_chow", 1], ["closed_wait", 1]]
    # The discarder pays 8 + 16, the other two 8 each.
    assert sheet["payments"] == [-8, 40, -8, -24]


def test_a_win_offered_at_8_points_with_和绝张_is_scored_not_lost():
    # 234m 678p 345s 123s 99m on 2s: 门前清 2, 平和 2, 嵌张 1 = 5; with 和绝张 4 it is 9 and
    # reaches the minimum, so the win is offered — and taking it must score it.
    state = _fourth_two_bamboo_discarded("234m678p345s13s99m")
    assert GAME.legal_actions(state, 1) == [WIN, {"type": "pass"}]
    state, _ = GAME.apply(state, 1, WIN)
    sheet = state.results[0]
    assert (sheet["result"], sheet["winner"], sheet["payer"], sheet["total"]) == ("win", 1, 3, 9)
    assert sheet["fans"] == [["last_tile", 4], ["concealed_hand", 2], ["all_chows", 2],
                             ["closed_wait", 1]]
    assert sheet["payments"] == [-8, 33, -8, -17]
