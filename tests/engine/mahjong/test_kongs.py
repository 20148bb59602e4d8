"""Kongs in one's turn: concealed (never robbed), added (robbed or completed), their
replacements from the tail and their Hebei points (rulings "A turn", "Claims on a discard",
"Scoring: `hebei`")."""

from engine.mahjong import GAME
from tests.engine.mahjong.builders import player, table, turn

WIN, PASS = {"type": "win"}, {"type": "pass"}
KONG_5P = {"type": "kong", "tile": "5p"}


def _added_kong(rules):
    # Seat 0 holds a pung of 5p (claimed from seat 2) and draws the fourth; seat 2 waits on
    # 2p/5p (34p) with 123m 789s 456s 22z.
    return turn(table([player("123m 789s 123s 1z", melds=[("pung", "555p", 2)]),
                       player("2288m2288p2468s6z"), player("123m 789s 34p 456s 22z"),
                       player("1199m1199p1289s7z")], rules=rules, head="9p", tail="6z 7z"),
                0, drawn="5p")


def test_an_added_kong_opens_a_window_for_robbing_only():
    state = _added_kong("hebei")
    assert GAME.legal_actions(state, 0)[0] == KONG_5P
    state, events = GAME.apply(state, 0, KONG_5P)
    assert [e.kind for e in events] == ["kong_declared", "claims_pending"]
    assert GAME.to_act(state) == {2} and GAME.legal_actions(state, 2) == [WIN, PASS]
    assert GAME.view(state, 1)["claim"] == {"tile": "5p", "from": 0, "robbing": True,
                                            "last": False, "first": False}


def test_robbing_an_added_kong_in_hebei_the_robbed_player_pays_and_no_kong_points():
    state, _ = GAME.apply(_added_kong("hebei"), 0, KONG_5P)
    state, _ = GAME.apply(state, 2, WIN)
    sheet = state.results[0]
    # 门清 ×2, 抢杠和 ×2 = 4, paid by the robbed seat 0 alone; the kong never was.
    assert (sheet["way"], sheet["payer"], sheet["doublings"]) == (
        "robbing", 0, ["concealed_hand", "robbing_kong"])
    assert sheet["payments"] == [-4, 0, 4, 0] and sheet["kong_points"] == [0, 0, 0, 0]
    assert sheet["hands"][0]["melds"] == [{"kind": "pung", "tiles": ["5p", "5p", "5p"],
                                          "from": 2, "claimed": "5p"}]


def test_robbing_an_added_kong_in_mcr_pays_as_a_discard():
    state, _ = GAME.apply(_added_kong("mcr"), 0, KONG_5P)
    state, _ = GAME.apply(state, 2, WIN)
    sheet = state.results[0]
    # 抢杠和 8, 门前清 2, 连六 (456s 789s) 1 = 11: the robbed seat pays 8 + 11, the others 8.
    assert sheet["fans"] == [["robbing_the_kong", 8], ["concealed_hand", 2],
                             ["short_straight", 1]]
    assert sheet["payments"] == [-19, -8, 35, -8]


def test_an_unrobbed_added_kong_completes_and_draws_from_the_tail():
    state, _ = GAME.apply(_added_kong("hebei"), 0, KONG_5P)
    state, events = GAME.apply(state, 2, PASS)
    assert [e.kind for e in events] == ["claims_closed", "kong", "drew"]
    hand = state.hand
    assert hand.players[0].melds[0].kind == "added_kong"
    assert (hand.turn, hand.step, hand.players[0].drawn, hand.head) == (0, "kong", "6z", 0)


def test_added_kong_points_are_one_from_each_other_seat_at_the_hand_end():
    state, _ = GAME.apply(_added_kong("hebei"), 0, KONG_5P)
    state, _ = GAME.apply(state, 2, PASS)
    state, _ = GAME.apply(state, 0, {"type": "discard", "tile": "6z"})   # seat 1 draws 9p
    state, _ = GAME.apply(state, 1, {"type": "discard", "tile": "9p"})
    assert GAME.legal_actions(state, 3) == [{"type": "pung"}, PASS]      # seat 3 holds 99p
    state, _ = GAME.apply(state, 3, PASS)                                # seat 2 draws 7z
    state, _ = GAME.apply(state, 2, {"type": "discard", "tile": "7z"})
    # The wall is empty: seat 3's draw ends the hand in a draw (荒庄); kong points stay.
    sheet = state.results[0]
    assert sheet["result"] == "draw" and sheet["kong_points"] == [3, -1, -1, -1]
    assert state.totals == [3, -1, -1, -1]


def test_a_concealed_kong_is_never_robbed_not_even_by_thirteen_orphans():
    # Seat 3 waits on 1z with thirteen orphans; seat 0 makes a concealed kong of 1z.
    state = turn(table([player("111z 123m 456p 789s 5z"), player("2288m2288p2468s6z"),
                        player("3377m3377p3468s6z"), player("199m19p19s234567z")],
                       head="9p", tail="7z"), 0, drawn="1z")
    assert {"type": "kong", "tile": "1z"} in GAME.legal_actions(state, 0)
    state, events = GAME.apply(state, 0, {"type": "kong", "tile": "1z"})
    assert [e.kind for e in events] == ["kong", "drew"]
    assert events[0].data == {"seat": 0, "kind": "concealed_kong", "tile": None}
    hand = state.hand
    assert GAME.to_act(state) == {0} and (hand.step, hand.players[0].drawn) == ("kong", "7z")
    assert hand.players[0].melds[0].kind == "concealed_kong"


def test_a_dealer_kong_on_the_deal_then_a_win_is_杠上开花_not_天和():
    # The dealer's 14: 1111m 456p 789s 123s 5z; the replacement 5z completes it.
    state = turn(table([player("1111m 456p 789s 123s 5z"), player("2288m2288p2468s6z"),
                        player("3377m3377p3468s6z"), player("4466m4466p2468s7z")],
                       head="9p", tail="5z"), 0, step="deal")
    assert GAME.legal_actions(state, 0)[0] == {"type": "kong", "tile": "1m"}
    state, _ = GAME.apply(state, 0, {"type": "kong", "tile": "1m"})
    assert GAME.legal_actions(state, 0)[0] == WIN
    state, _ = GAME.apply(state, 0, WIN)
    sheet = state.results[0]
    # 门清 (a concealed kong keeps it) × 杠上开花 = 4 from each; 暗杠 2 from each.
    assert sheet["doublings"] == ["concealed_hand", "kong_replacement"]
    assert sheet["payments"] == [12, -4, -4, -4] and sheet["kong_points"] == [6, -2, -2, -2]
    assert sheet["scores"] == [18, -6, -6, -6]


def test_a_melded_kong_on_a_discard_costs_the_discarder_three():
    state = turn(table([player("444m 13p 246s 99s 123z"), player("4m 1199m1199p1199s"),
                        player("3377m3377p3468s6z"), player("5588m5588p5678s7z")],
                       head="", tail="6z"), 1, drawn="2z")
    state, _ = GAME.apply(state, 1, {"type": "discard", "tile": "4m"})
    state, _ = GAME.apply(state, 0, {"type": "kong", "tile": "4m"})
    # The replacement was the wall's last tile: seat 0's discard is the last (only 和 may be
    # claimed, nobody can), and seat 1's draw ends the hand in a draw.
    state, _ = GAME.apply(state, 0, {"type": "discard", "tile": "6z"})
    sheet = state.results[0]
    assert sheet["result"] == "draw" and sheet["kong_points"] == [3, -3, 0, 0]
