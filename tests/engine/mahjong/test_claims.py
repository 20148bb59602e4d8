"""Claim windows: who is asked, priority 和 > 碰/杠 > 吃, one winner (截和 in turn order),
吃 only by the 下家 in ``mcr``, what follows a claim, declining without penalty (rulings
"Claims on a discard")."""

from engine.mahjong import GAME
from tests.engine.mahjong.builders import JUNK, discarded, player, table

WIN, PASS, PUNG = {"type": "win"}, {"type": "pass"}, {"type": "pung"}
# Seats 0 and 1 both win on 5z (单钓): 花龙 hands of 12 points in mcr (8 + 门前清 2 + 1 + 1).
WINNER_A = "123m456p789s123s5z"
WINNER_B = "123p456s789m123m5z"
# Fillers that make nothing with the chow tests' hands.
QUIET = ("19m 39s 369p 5677z 28s", "47s 147p 223356z 28m")


def _two_winners(order, rules="mcr"):
    """Seat 2 (holding 5z, a discard already made) is to discard; seats 0 and 1 wait on 5z."""
    return table([player(WINNER_A), player(WINNER_B),
                  player("5z 1199m1199p1199s", discards="8s"), player("4466m4466p4466s6z")],
                 rules=rules, order=order, dealer=order[0], head="2z 3z")


def test_two_winners_the_first_in_turn_order_after_the_discarder_wins():
    # Order 0 → 1 → 2 → 3: after seat 2 come 3, 0, 1: seat 0 takes it (截和), even when
    # seat 1 answers first.
    state, _ = discarded(_two_winners((0, 1, 2, 3)), 2, "5z", drawn_tile="7z")
    assert GAME.to_act(state) == {0, 1}
    assert GAME.legal_actions(state, 0) == [WIN, PASS]
    state, events = GAME.apply(state, 1, WIN)
    assert events == [] and GAME.to_act(state) == {0}
    state, _ = GAME.apply(state, 0, WIN)
    sheet = state.results[0]
    assert (sheet["winner"], sheet["payer"], sheet["way"], sheet["total"]) == (0, 2, "discard", 12)
    # 8 + 12 from the discarder, 8 from each of the other two.
    assert sheet["payments"] == [36, -8, -20, -8]


def test_截和_follows_the_south_round_seating():
    # South-round order (1, 0, 3, 2): after seat 2 comes seat 1, then 0.
    state, _ = discarded(_two_winners((1, 0, 3, 2)), 2, "5z", drawn_tile="7z")
    state, _ = GAME.apply(state, 0, WIN)
    state, _ = GAME.apply(state, 1, WIN)
    sheet = state.results[0]
    assert sheet["winner"] == 1 and sheet["seat_winds"] == ["S", "E", "N", "W"]
    # 花龙 8, 门前清 2, 喜相逢 (123p 123m) 1, 单钓将 1 = 12.
    assert sheet["fans"] == [["mixed_straight", 8], ["concealed_hand", 2],
                             ["mixed_double_chow", 1], ["single_wait", 1]]
    assert sheet["payments"] == [-8, 36, -20, -8]


def test_a_declined_win_then_the_second_winner_takes_it():
    state, _ = discarded(_two_winners((0, 1, 2, 3)), 2, "5z", drawn_tile="7z")
    state, _ = GAME.apply(state, 0, PASS)
    state, _ = GAME.apply(state, 1, WIN)
    assert state.results[0]["winner"] == 1


def _win_over_pung(rules):
    # Seat 1 holds 55m (碰); seat 3 waits on 5m (34m + 4 sets... 门清 in hebei).
    return table([player("5m " + JUNK, discards="8s"), player("55m 13p 246s 99s 1234z"),
                  player("2288m2288p2288s6z"), player("34m 123p 456p 789s 11z")],
                 rules=rules, head="1s 2s 3s")


def test_a_win_beats_a_pung_answered_first():
    state, _ = discarded(_win_over_pung("hebei"), 0, "5m", drawn_tile="7z")
    assert GAME.legal_actions(state, 1) == [PUNG, PASS]
    assert GAME.legal_actions(state, 3) == [WIN, PASS]
    state, _ = GAME.apply(state, 1, PUNG)
    state, _ = GAME.apply(state, 3, WIN)
    sheet = state.results[0]
    # 门清 ×2 on a discard (not the first one: no 地和): the discarder pays 2.
    assert (sheet["winner"], sheet["doublings"], sheet["payments"]) == (
        3, ["concealed_hand"], [-2, 0, 0, 2])
    assert sheet["hands"][1]["melds"] == [] and state.hand.number == 2


def test_every_chow_choice_is_listed_for_the_next_seat_only_in_mcr():
    base = [player("4m 123p 456p 789p 11s 7z", discards="9s"), player("2356m 17s 258s 1234z"),
            player("2356m 39s 369p 5677z"), player("44m 47s 147p 223356z")]
    mcr, _ = discarded(table(base, rules="mcr", head="1s"), 0, "4m", drawn_tile="8s")
    assert GAME.legal_actions(mcr, 1) == [
        {"type": "chow", "tiles": ["2m", "3m"]}, {"type": "chow", "tiles": ["3m", "5m"]},
        {"type": "chow", "tiles": ["5m", "6m"]}, PASS]
    assert 2 not in GAME.to_act(mcr)             # not the 下家: no chow
    assert GAME.legal_actions(mcr, 3) == [PUNG, PASS]
    hebei, _ = discarded(table(base, rules="hebei", head="1s"), 0, "4m", drawn_tile="8s")
    assert GAME.to_act(hebei) == {3}             # 不能吃牌


def test_a_pung_beats_a_chow_and_the_claimer_only_discards():
    base = [player("4m 123p 456p 789p 11s 7z", discards="9s"), player("2356m 17s 258s 1234z"),
            player(QUIET[0]), player("44m 47s 147p 223356z")]
    state, _ = discarded(table(base, rules="mcr", head="1s"), 0, "4m", drawn_tile="8s")
    state, _ = GAME.apply(state, 1, {"type": "chow", "tiles": ["5m", "3m"]})
    state, events = GAME.apply(state, 3, PUNG)
    claimed = [e.data for e in events if e.kind == "claimed"]
    assert claimed == [{"seat": 3, "kind": "pung", "tile": "4m", "from": 0,
                        "tiles": ["4m", "4m", "4m"]}]
    hand = state.hand
    assert (hand.phase, hand.turn, hand.step) == ("turn", 3, "claimed")
    assert hand.players[0].discards[-1].taken
    assert {a["type"] for a in GAME.legal_actions(state, 3)} == {"discard"}
    assert hand.players[3].drawn is None and hand.head == 0     # no draw after a claim


def test_a_chow_makes_the_set_with_the_named_tiles():
    base = [player("4m 123p 456p 789p 11s 7z", discards="9s"), player("2356m 17s 258s 1234z"),
            player(QUIET[0]), player(QUIET[1])]
    state, _ = discarded(table(base, rules="mcr", head="1s"), 0, "4m", drawn_tile="8s")
    state, _ = GAME.apply(state, 1, {"type": "chow", "tiles": ["5m", "3m"]})
    meld = state.hand.players[1].melds[0]
    assert (meld.kind, meld.tiles, meld.source, meld.claimed) == ("chow", ("3m", "4m", "5m"), 0, "4m")
    assert state.hand.players[1].concealed == ["2m", "6m", "1s", "2s", "5s", "7s", "8s",
                                               "1z", "2z", "3z", "4z"]


def test_a_melded_kong_draws_its_replacement_from_the_tail():
    base = [player("4m 123p 456p 789p 11s 7z", discards="9s"), player("444m 9p 17s 258s 1234z"),
            player(QUIET[0]), player(QUIET[1])]
    state, _ = discarded(table(base, head="1s 2s", tail="6z"), 0, "4m", drawn_tile="8s")
    assert GAME.legal_actions(state, 1) == [{"type": "kong", "tile": "4m"}, PUNG, PASS]
    state, _ = GAME.apply(state, 1, {"type": "kong", "tile": "4m"})
    hand = state.hand
    assert (hand.turn, hand.step, hand.players[1].drawn) == (1, "kong", "6z")
    assert hand.head == 0 and hand.wall_left == 2


def test_nobody_able_to_claim_opens_no_window():
    base = [player("4m 123p 456p 789p 11s 7z", discards="9s"), player("9p 679m 17s 258s 1234z"),
            player(QUIET[0]), player(QUIET[1])]
    state, events = discarded(table(base, head="1s 2s"), 0, "4m", drawn_tile="8s")
    assert [e.kind for e in events] == ["discarded", "drew"]
    assert (state.hand.phase, state.hand.turn, state.hand.players[1].drawn) == ("turn", 1, "1s")


def test_a_declined_win_may_win_a_later_discard_of_the_same_tile():
    # Seat 2 waits on 5z; it declines seat 0's 5z, then wins on seat 1's 5z (no furiten).
    base = [player("5z 1199m1199p1199s", discards="8s"), player("5z 2288m2288p2468s", discards="8s"),
            player("123m456p789s123s5z"), player("3377m3377p3377s6z")]
    state, _ = discarded(table(base, head="6z 1z"), 0, "5z", drawn_tile="7z")
    state, _ = GAME.apply(state, 2, PASS)
    assert (state.hand.turn, state.hand.players[1].drawn) == (1, "6z")
    state, _ = GAME.apply(state, 1, {"type": "discard", "tile": "5z"})
    assert GAME.legal_actions(state, 2) == [WIN, PASS]
    state, _ = GAME.apply(state, 2, WIN)
    sheet = state.results[0]
    assert (sheet["winner"], sheet["payer"], sheet["payments"]) == (2, 1, [0, -2, 2, 0])


def test_views_say_only_that_claims_are_pending():
    state, _ = discarded(_win_over_pung("hebei"), 0, "5m", drawn_tile="7z")
    spectator = GAME.view(state, None)
    assert spectator["claims_pending"] and spectator["turn"] is None
    assert spectator["claim"] == {"tile": "5m", "from": 0, "robbing": False, "last": False,
                                  "first": False}
    not_asked = GAME.view(state, 2)
    assert not_asked["me"]["claim"] is None
    assert GAME.view(state, 1)["me"]["claim"] == "asked"
    assert not GAME.to_act_is_public(state)
    after, events = GAME.apply(state, 1, PUNG)
    assert events == []
    for viewer in (None, 0, 2, 3):
        assert GAME.view(after, viewer) == GAME.view(state, viewer)
    assert GAME.view(after, 1)["me"] == {**GAME.view(state, 1)["me"], "claim": "answered",
                                         "answer": PUNG}
