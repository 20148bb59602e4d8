"""Whole seeded matches played through ``apply`` by the greedy test player (``policy``) to their
known final scores, with some hands' score sheets checked by hand. The player's choices follow
``shapes.shanten``; the sheets follow the rulings' scoring."""

from engine.mahjong import GAME
from tests.engine.mahjong.policy import play


def _brief(sheet):
    return (sheet["hand"], sheet["dealer"], sheet["result"], sheet["winner"], sheet["payer"],
            sheet["way"], sheet["total"])


def test_a_seeded_hebei_match_of_eight_hands():
    state, actions = play({"hands": 8}, b"hebei-3")
    assert actions == 398 and state.first_dealer == 2
    assert state.totals == [4, 0, -4, 0]
    outcome = GAME.outcome(state)
    assert outcome.ranks == (1, 2, 4, 2) and outcome.reason == "final_score"
    sheets = state.results
    # The dealer stays after a draw (hands 2→3, 7→8) and a dealer win; after another seat's
    # win the dealer's 下家 deals.
    assert [_brief(s) for s in sheets] == [
        (1, 2, "win", 3, 1, "discard", 2), (2, 3, "draw", None, None, None, 0),
        (3, 3, "win", 0, None, "self_drawn", 2), (4, 0, "win", 1, 0, "discard", 1),
        (5, 1, "win", 3, 2, "discard", 2), (6, 2, "win", 1, 2, "discard", 1),
        (7, 3, "draw", None, None, None, 0), (8, 3, "win", 3, 2, "discard", 2)]
    # Hand 2, a draw: seat 0's 明杠 of 1z on seat 1's discard still costs seat 1 three.
    assert sheets[1]["kong_points"] == [3, -3, 0, 0] and sheets[1]["totals"] == [3, -5, 0, 2]
    assert {"kind": "kong", "tiles": ["1z"] * 4, "from": 1, "claimed": "1z"} in \
        sheets[1]["hands"][0]["melds"]
    # Hand 3: seat 0 self-draws 2m with a claimed pung of 8p: 1 × 自摸 = 2 from each. Kong
    # points: seat 1's 明杠 of 4s on seat 0's discard (seat 0 pays 3) and seat 2's 加杠 of 4z
    # (1 from each other seat).
    third = sheets[2]
    assert (third["win_tile"], third["doublings"]) == ("2m", ["self_drawn"])
    assert third["payments"] == [6, -2, -2, -2]
    assert third["kong_points"] == [-3 - 1, 3 - 1, 3, -1]
    assert third["scores"] == [2, 0, 1, -3] and third["totals"] == [5, -5, 1, -1]
    # Hand 4: 55m 123p 456p 678s and 999s claimed: no doubling, value 1 from the discarder.
    assert sheets[3]["doublings"] == [] and sheets[3]["payments"] == [-1, 1, 0, 0]


def test_a_seeded_mcr_round():
    state, actions = play({"rules": "mcr"}, b"mcr-1")
    assert actions == 244 and state.first_dealer == 3
    assert state.totals == [-55, 6, 44, 5]
    assert GAME.outcome(state).ranks == (4, 2, 1, 3)
    sheets = state.results
    # The deal passes every hand: 3, 0, 1, 2 (the first round's order from seat 3).
    assert [_brief(s) for s in sheets] == [
        (1, 3, "win", 1, 2, "discard", 16), (2, 0, "win", 2, None, "self_drawn", 10),
        (3, 1, "win", 3, 2, "discard", 15), (4, 2, "win", 2, 0, "discard", 13)]
    assert [s["prevalent_wind"] for s in sheets] == ["E"] * 4
    assert sheets[0]["seat_winds"] == ["S", "W", "N", "E"]
    # Hand 1: 组合龙 (147p 258m 369s) + 789p + 55p on 4p: 12 + 门前清 2 + 平和 2 = 16; the
    # discarder pays 8 + 16, the others 8.
    assert sheets[0]["fans"] == [["knitted_straight", 12], ["concealed_hand", 2],
                                 ["all_chows", 2]]
    assert sheets[0]["payments"] == [-8, 40, -24, -8]
    # Hand 2: self-drawn with a chow of 123s from seat 1: 三色三步高 6, 平和 2, 自摸 1,
    # a flower 1 = 10; 8 + 10 from each.
    assert sheets[1]["fans"] == [["mixed_shifted_chows", 6], ["all_chows", 2],
                                 ["self_drawn", 1], ["flower_tiles", 1]]
    assert sheets[1]["payments"] == [-18, -18, 54, -18]
    assert sheets[1]["hands"][2]["melds"] == [{"kind": "chow", "tiles": ["1s", "2s", "3s"],
                                               "from": 1, "claimed": "1s"}]
    # Hand 4: 全不靠 12 + a flower = 13: the discarder pays 21.
    assert sheets[3]["fans"] == [["lesser_honors_and_knitted_tiles", 12], ["flower_tiles", 1]]
    assert sheets[3]["payments"] == [-21, -8, 37, -8]
