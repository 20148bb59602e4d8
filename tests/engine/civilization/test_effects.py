"""Exact resource counts for every slot effect on hand-made states (seed, 工位效果详解, with the
rulings). Expected values are worked out by hand in the comments."""

from __future__ import annotations

import pytest

from engine.civilization import GAME
from engine.civilization.state import NEUTRAL, leaders_placed, workers_in_hand

from .helpers import EMPTY, card, make, place, play, take

S0 = card(0, 0)  # 王权 faces seat 0, 婚姻 faces seat 1
S1 = card(0, 1)  # 王权 faces seat 1, 婚姻 faces seat 0


def legal(state, seat=0):
    return GAME.legal_actions(state, seat)


@pytest.mark.parametrize("card_id, expected", [
    (1, (4, 1, 1)),   # 织网 +3 fish
    (2, (1, 4, 1)),   # 狩猎 +3 meat
    (3, (1, 1, 4)),   # 耕种 +3 wheat
    (4, (3, 2, 1)),   # 捕获 +2 fish +1 meat
    (5, (1, 3, 2)),   # 畜牧 +2 meat +1 wheat (the seed's typo corrected)
    (6, (2, 1, 3)),   # 采集 +2 wheat +1 fish
])
def test_yellow_slots_gain_fixed_resources(card_id, expected):
    state = make([S0, card(card_id, 0)], ((1, 1, 1), (0, 0, 0)))
    after = play(state, 0, place(1))
    assert after.resources == (expected, (0, 0, 0))
    assert after.row[1].workers == (0, EMPTY)
    assert GAME.to_act(after) == {1}


def test_place_without_resolving_changes_no_resources():
    state = make([S0, card(1, 0)], ((1, 1, 1), (0, 0, 0)))
    after = play(state, 0, place(1, resolve=False))
    assert after.resources == ((1, 1, 1), (0, 0, 0))
    assert after.row[1].workers == (0, EMPTY) and workers_in_hand(after, 0) == 1


def _planning_row():
    # Facing seat 0: 王权, 规划 (card 4 turned), 织网, 耕种, 协作 -> yellow slots facing 0: 织网, 耕种 = 2.
    return [S0, card(4, 1), card(1, 0), card(3, 0), card(5, 1)]


def test_planning_sets_declared_resource_to_yellow_count_then_gains_two():
    state = play(make(_planning_row(), ((5, 1, 0), (0, 0, 0))), 0, place(1))
    assert legal(state) == [{"type": "declare", "resource": r} for r in ("fish", "meat", "wheat")]
    state = play(state, 0, {"type": "declare", "resource": "fish"})
    assert state.resources[0] == (2, 1, 0)
    state = play(state, 0, take("meat"), take("wheat"))
    assert state.resources[0] == (2, 2, 1) and GAME.to_act(state) == {1}


def test_planning_can_raise_a_resource():
    state = play(make(_planning_row(), ((5, 1, 0), (0, 0, 0))), 0, place(1),
                 {"type": "declare", "resource": "wheat"}, take("fish"), take("fish"))
    assert state.resources[0] == (7, 1, 2)


@pytest.mark.parametrize("resource, mine, theirs", [
    ("fish", (3, 0, 2), (3, 4, 3)),
    ("meat", (7, 3, 2), (1, 3, 3)),
])
def test_law_sets_both_players_to_three(resource, mine, theirs):
    state = make([S0, card(8, 1)], ((7, 0, 2), (1, 4, 3)))
    state = play(state, 0, place(1), {"type": "declare", "resource": resource})
    assert state.resources == (mine, theirs)


def test_plunder_takes_two_with_three_red_slots_facing_you():
    # Red facing 0: 王权, 掠夺 (card 6 turned), 律法 (card 8 turned) = 3.
    state = make([S0, card(6, 1), card(8, 1)], ((0, 0, 0), (2, 1, 0)))
    state = play(state, 0, place(1))
    assert legal(state) == [{"type": "steal", "resource": "fish"}, {"type": "steal", "resource": "meat"}]
    state = play(state, 0, {"type": "steal", "resource": "fish"}, {"type": "steal", "resource": "meat"})
    assert state.resources == ((1, 1, 0), (1, 0, 0)) and GAME.to_act(state) == {1}


def test_plunder_takes_one_with_two_red_slots_facing_you():
    # Red facing 0: 王权, 掠夺 = 2 (律法 faces seat 1).
    state = make([S0, card(6, 1), card(8, 0)], ((0, 0, 0), (2, 1, 0)))
    state = play(state, 0, place(1), {"type": "steal", "resource": "meat"})
    assert state.resources == ((0, 1, 0), (2, 0, 0)) and GAME.to_act(state) == {1}


def test_plunder_takes_only_what_the_opponent_has():
    state = make([S0, card(6, 1), card(8, 1)], ((0, 0, 0), (0, 0, 1)))
    state = play(state, 0, place(1))  # the only wheat is taken at once; the second take finds none
    assert state.resources == ((0, 0, 1), (0, 0, 0)) and GAME.to_act(state) == {1}


def test_exchange_counts_blue_slots_facing_you_including_itself():
    # Blue facing 0: 婚姻 (S turned), 交易 (card 3 turned) = 2 exchanges, then gain 2.
    state = play(make([S1, card(3, 1)], ((2, 0, 0), (0, 0, 0))), 0, place(1))
    assert state.queue[0].n == 2
    assert legal(state) == [{"type": "exchange", "give": "fish", "get": "meat"},
                            {"type": "exchange", "give": "fish", "get": "wheat"}, {"type": "skip"}]
    state = play(state, 0, {"type": "exchange", "give": "fish", "get": "meat"})
    assert state.resources[0] == (1, 1, 0)
    state = play(state, 0, {"type": "exchange", "give": "meat", "get": "wheat"})
    assert state.resources[0] == (1, 0, 1)
    state = play(state, 0, take("fish"), take("fish"))
    assert state.resources[0] == (3, 0, 1) and GAME.to_act(state) == {1}


def test_exchange_counts_a_third_blue_slot_and_each_exchange_is_optional():
    # 婚姻, 交易, 劳作 (card 12 turned) = 3 exchanges.
    state = play(make([S1, card(3, 1), card(12, 1)], ((1, 0, 0), (0, 0, 0))), 0, place(1))
    assert state.queue[0].n == 3
    state = play(state, 0, {"type": "skip"}, {"type": "skip"}, {"type": "skip"})
    assert state.queue[0].kind == "gain" and state.resources[0] == (1, 0, 0)


def test_exchange_is_skipped_without_resources():
    state = play(make([S1, card(3, 1)], ((0, 0, 0), (0, 0, 0))), 0, place(1))
    assert state.queue[0].kind == "gain" and state.queue[0].n == 2


def test_commerce_counts_blue_slots_facing_you():
    # Blue facing 0: 婚姻, 劳作 (card 2 turned) = 2 give-and-takes (商贸 itself is red), gain 1.
    state = make([S1, card(7, 1), card(2, 1)], ((1, 0, 0), (0, 2, 0)))
    state = play(state, 0, place(1))
    assert state.queue[0].n == 2
    assert legal(state) == [{"type": "exchange", "give": "fish", "get": "meat"}, {"type": "skip"}]
    state = play(state, 0, {"type": "exchange", "give": "fish", "get": "meat"})
    assert state.resources == ((0, 1, 0), (1, 1, 0))
    assert legal(state) == [{"type": "exchange", "give": "meat", "get": "fish"}, {"type": "skip"}]
    state = play(state, 0, {"type": "skip"}, take("wheat"))
    assert state.resources == ((0, 1, 1), (1, 1, 0)) and GAME.to_act(state) == {1}


def test_commerce_is_skipped_when_the_opponent_has_nothing():
    state = play(make([S1, card(7, 1), card(2, 1)], ((3, 0, 0), (0, 0, 0))), 0, place(1))
    assert state.queue[0].kind == "gain" and state.queue[0].n == 1


def test_commerce_without_blue_slots_facing_you_only_gains_one():
    # Facing seat 0: 王权 (S) and 商贸 (card 7 turned); 婚姻 and 织网 face seat 1: no blue slot.
    state = play(make([S0, card(7, 1)], ((3, 0, 0), (0, 3, 0))), 0, place(1))
    assert state.queue[0].kind == "gain" and state.queue[0].n == 1 and len(state.queue) == 1


@pytest.mark.parametrize("answer, expected", [
    ({"type": "match", "set": "wheat", "to": "fish"}, (4, 1, 4)),
    ({"type": "match", "set": "fish", "to": "meat"}, (1, 1, 0)),
])
def test_cooperation_makes_one_resource_equal_to_another(answer, expected):
    state = play(make([S0, card(5, 1)], ((4, 1, 0), (0, 0, 0))), 0, place(1))
    assert len(legal(state)) == 6
    assert play(state, 0, answer).resources[0] == expected


def _after_kingship(rotate_card):
    state = make([S0, card(1, 0)], deck=(16,))
    state = play(state, 0, place(0), take("meat"))
    assert legal(state) == [{"type": "rotate", "card": 0}, {"type": "rotate", "card": 1}]
    return play(state, 0, {"type": "rotate", "card": rotate_card})


def test_kingship_gains_one_and_rotates_a_card_then_hands_on_the_start():
    state = _after_kingship(1)
    assert state.resources[0] == (0, 1, 0) and state.row[1].facing == 1
    state = play(play(state, 1, {"type": "pass"}), 0, {"type": "pass"})
    # Clean-up turned S (a worker sat on ↺ 王权): seat 1 starts the next round.
    assert state.round == 4 and state.start == 1 and state.row[0].facing == 1
    assert state.row[1].facing == 1


def test_kingship_rotating_s_itself_is_undone_at_clean_up():
    state = _after_kingship(0)
    assert state.row[0].facing == 1 and state.row[0].workers == (0, EMPTY)
    assert GAME.view(state, 0)["kingship"] == 1
    state = play(play(state, 1, {"type": "pass"}), 0, {"type": "pass"})
    assert state.row[0].facing == 0 and state.start == 0


def test_learning_places_an_unresolved_neutral_worker_facing_the_opponent():
    # Facing seat 1 and empty: 婚姻 (card 0), 耕种 (card 1), 雇佣 (card 2).
    state = make([S0, card(9, 1), card(1, 0)], ((0, 0, 0), (0, 0, 0)))
    state = play(state, 0, place(1))
    assert legal(state) == [{"type": "place_neutral", "card": i} for i in (0, 1, 2)]
    state = play(state, 0, {"type": "place_neutral", "card": 2})
    assert state.row[2].workers == (EMPTY, NEUTRAL) and state.resources == ((0, 0, 0), (0, 0, 0))
    state = play(state, 0, take("fish"), take("fish"))
    assert state.resources[0] == (2, 0, 0)


def test_breakthrough_ignores_the_facing_slot_and_gains_per_red_slot():
    # Card 1's slot facing seat 0 is taken; 突破 may still put a leader there.
    # Red facing 0 afterwards: 王权, 突破, 律法 = 3.
    row = [S0, card(10, 1), card(1, 0, workers=(0, EMPTY)), card(8, 1)]
    state = play(make(row, ((5, 6, 0), (0, 0, 0))), 0, place(1))
    assert legal(state) == [{"type": "pay", "resource": "fish"}, {"type": "pay", "resource": "meat"}]
    state = play(state, 0, {"type": "pay", "resource": "meat"})
    assert state.resources[0] == (5, 1, 0)
    assert legal(state) == [{"type": "leader", "card": i} for i in (1, 2, 3)]
    state = play(state, 0, {"type": "leader", "card": 2})
    assert state.row[2].leader == 0 and leaders_placed(state, 0) == 1
    assert state.queue[0].kind == "gain" and state.queue[0].n == 3
    state = play(state, 0, take("wheat"), take("wheat"), take("wheat"))
    assert state.resources[0] == (5, 1, 3)


def test_breakthrough_cannot_be_resolved_without_five_of_one_resource():
    state = make([S0, card(10, 1)], ((4, 4, 4), (0, 0, 0)))
    assert place(1) not in legal(state) and place(1, resolve=False) in legal(state)


def test_hiring_places_two_neutral_workers_and_resolves_them_in_chosen_order():
    # Empty and facing 0 after paying: 王权 (card 0), 狩猎 (card 2), 耕种 (card 3).
    row = [S0, card(1, 1), card(2, 0), card(3, 0)]
    state = play(make(row, ((1, 1, 1), (0, 0, 0))), 0, place(1))
    assert state.resources[0] == (0, 0, 0)
    assert legal(state) == [{"type": "place_neutral", "card": i} for i in (0, 2, 3)] + [{"type": "stop"}]
    state = play(state, 0, {"type": "place_neutral", "card": 2}, {"type": "place_neutral", "card": 3})
    assert legal(state) == [{"type": "resolve", "card": 2}, {"type": "resolve", "card": 3}]
    state = play(state, 0, {"type": "resolve", "card": 3})
    # 耕种 resolved (+3 wheat), then 狩猎, the only one left, at once (+3 meat).
    assert state.resources[0] == (0, 3, 3) and GAME.to_act(state) == {1}
    assert state.row[2].workers == (NEUTRAL, EMPTY) and state.row[3].workers == (NEUTRAL, EMPTY)


def test_hiring_may_stop_after_one_neutral_worker():
    row = [S0, card(1, 1), card(2, 0), card(3, 0)]
    state = play(make(row, ((1, 1, 1), (0, 0, 0))), 0, place(1),
                 {"type": "place_neutral", "card": 2}, {"type": "stop"})
    assert state.resources[0] == (0, 3, 0) and GAME.to_act(state) == {1}


def test_hiring_needs_one_of_each_resource():
    state = make([S0, card(1, 1), card(2, 0)], ((1, 1, 0), (0, 0, 0)))
    assert place(1) not in legal(state) and place(1, resolve=False) in legal(state)


def test_hired_labour_resolved_first_can_remove_the_other_hired_worker():
    # Hire onto 劳作 (card 2, turned) and 耕种 (card 3); 劳作 first removes the 耕种 neutral,
    # which then resolves nothing.
    row = [S0, card(1, 1), card(12, 1), card(3, 0)]
    state = play(make(row, ((2, 1, 1), (0, 0, 0))), 0, place(1),
                 {"type": "place_neutral", "card": 2}, {"type": "place_neutral", "card": 3},
                 {"type": "resolve", "card": 2})
    # The 劳作 payment is forced (only fish left): (1,0,0) -> (0,0,0).
    assert state.resources[0] == (0, 0, 0)
    assert legal(state) == [{"type": "remove", "card": 1, "slot": 1},
                            {"type": "remove", "card": 2, "slot": 1},
                            {"type": "remove", "card": 3, "slot": 0}]
    state = play(state, 0, {"type": "remove", "card": 3, "slot": 0})
    assert state.resources[0] == (0, 0, 0) and state.row[3].workers == (EMPTY, EMPTY)
    assert GAME.to_act(state) == {1}


def test_labour_returns_the_opponents_worker_which_then_triggers_no_reversal():
    # Seat 1's worker sits on ↺ 律法 of card 8 (律法 faces seat 1).
    row = [S0, card(2, 1), card(8, 0, workers=(EMPTY, 1))]
    state = make(row, ((0, 0, 2), (0, 0, 0)))
    assert workers_in_hand(state, 1) == 1
    state = play(state, 0, place(1))  # paying 1 is forced: only wheat
    assert state.resources[0] == (0, 0, 1)
    assert legal(state) == [{"type": "remove", "card": 1, "slot": 1},
                            {"type": "remove", "card": 2, "slot": 1}]
    state = play(state, 0, {"type": "remove", "card": 2, "slot": 1})
    assert workers_in_hand(state, 1) == 2
    state = play(play(state, 1, {"type": "pass"}), 0, {"type": "pass"})
    assert [c.facing for c in state.row] == [0, 1, 0]


def test_labour_needs_a_resource():
    state = make([S0, card(2, 1)])
    assert place(1) not in legal(state)


def test_marriage_unlocks_the_third_worker_usable_at_once():
    state = play(make([S1], ((3, 3, 3), (0, 0, 0))), 0, place(0))
    assert legal(state) == [{"type": "unlock"}, {"type": "decline"}]
    state = play(state, 0, {"type": "unlock"}, *[{"type": "pay", "resource": r}
                                                 for r in ("fish", "fish", "meat", "wheat")])
    # No leader placed: the 4th is not offered.
    assert state.resources[0] == (1, 2, 2) and state.unlocked == (3, 2)
    assert workers_in_hand(state, 0) == 2 and GAME.to_act(state) == {1}


def test_marriage_unlocks_the_fourth_worker_with_a_leader_placed():
    state = play(make([S1, card(1, 0, leader=0)], ((8, 0, 0), (0, 0, 0))), 0, place(0),
                 {"type": "unlock"})  # the 4 fish are paid at once (forced)
    assert state.unlocked == (3, 2) and legal(state) == [{"type": "unlock"}, {"type": "decline"}]
    state = play(state, 0, {"type": "unlock"})
    assert state.unlocked == (4, 2) and state.resources[0] == (0, 0, 0)


def test_marriage_offers_nothing_below_four_resources():
    state = play(make([S1], ((1, 1, 1), (0, 0, 0))), 0, place(0))
    assert state.unlocked == (2, 2) and GAME.to_act(state) == {1}
