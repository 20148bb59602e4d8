"""Bomb and 333 variants (seed 【规则变种】; rulings "Variants")."""

from engine.numgr.effects import area_totals
from tests.engine.numgr.helpers import act, area_mains, make_state, play, put

BOMB = {"variant_bomb": True}
TRIPLE = {"variant_333": True}


def _kinds(state, seat):
    return [s.kind for s in state.area(seat)]


def test_variants_are_off_by_default():
    state = make_state([["1any"], []])
    for card in ("1atk", "1def", "1rem"):
        put(state, 0, card)
    state = play(state, 0, "1any", mode="atk")
    assert _kinds(state, 0) == ["card"] * 4
    assert area_totals(state, 0).unstoppable == 0


def test_bomb_removes_every_opponent_stack_and_adds_four_unstoppable_once():
    state = make_state([["1any", "2any"], []], options=BOMB)
    for card in ("1atk", "1def", "1rem"):
        put(state, 0, card)
    put(state, 1, "2atk")
    put(state, 1, "Tdef", base="0def")   # a held card goes too ("locked cards too")
    state = play(state, 0, "1any", mode="atk")
    assert area_mains(state, 1) == []
    assert sorted(state.discard) == ["0def", "2atk", "Tdef"] and state.pending[1] == []
    totals = area_totals(state, 0)
    assert (totals.attack, totals.unstoppable, totals.defense) == (2, 4, 1)
    state = play(state, 0, "2any", mode="atk")
    assert _kinds(state, 0).count("bomb") == 1


def test_bomb_counts_reflected_stacks_but_not_held_cards():
    state = make_state([[], ["1any"]], current=1, options=BOMB)
    for card in ("Aany", "1atk", "1def", "1rem"):
        put(state, 0, card)
    put(state, 1, "3atk")
    state = play(state, 1, "1any", mode="atk")   # reflected into seat 0's area: four 1s
    assert area_mains(state, 1) == []
    assert "bomb" in _kinds(state, 0)
    held = make_state([["1any"], []], options=BOMB)
    put(held, 0, "1atk")
    put(held, 0, "1def")
    put(held, 0, "Trem", base="1rem")
    held = play(held, 0, "1any", mode="atk")
    assert "bomb" not in _kinds(held, 0)


def _triple_position(opp_hand):
    state = make_state([["2rem"], opp_hand], options=TRIPLE)
    put(state, 0, "2atk")
    put(state, 0, "2def")
    return play(state, 0, "2rem")


def test_333_adds_a_stack_of_the_missing_attribute_with_three_unstoppable():
    state = _triple_position([])
    triple = state.area(0)[-1]
    assert (triple.kind, triple.face, triple.attr) == ("333", "2", "any")
    totals = area_totals(state, 0)
    assert (totals.attack, totals.unstoppable, totals.defense) == (2, 3, 2)


def test_circle_defense_cannot_stop_333():
    hand = ["3any", "1def", "3def", "2any", "0atk"]
    state = act(_triple_position(hand), 0, "end", "end", None)
    short = play(play(state, 1, "3any", mode="def"), 1, "1def")
    assert act(short, 1, "end").hp == [2, 1]      # 3 covers 3, then 0 + 1 < 2
    enough = play(short, 1, "3def")
    assert act(enough, 1, "end").hp == [2, 2]     # 3 covers 3, then 0 + 4 >= 2
    circle_only = play(play(state, 1, "3def"), 1, "1def")
    assert act(circle_only, 1, "end").hp == [2, 1]


def test_333_of_a_number_is_removed_by_that_number():
    state = act(_triple_position(["2any", "1def", "1rem", "1atk", "3rem"]), 0, "end", "end", None)
    state = play(state, 1, "2any", mode="rem")
    assert area_mains(state, 0) == []
    assert area_totals(state, 0).unstoppable == 0


def test_333_of_alpha_is_reflected_by_the_remaining_alpha():
    state = make_state([["Arem"], []], options=TRIPLE)
    put(state, 0, "Aatk")
    put(state, 0, "Adef")
    put(state, 1, "Aany")
    state = play(state, 0, "Arem")
    assert _kinds(state, 1) == ["card", "333"]
    assert area_totals(state, 1).unstoppable == 3


def test_333_of_theta_is_locked_by_the_remaining_theta():
    state = make_state([["Trem"], ["Tany"]], options=TRIPLE)
    put(state, 0, "Tatk")
    put(state, 0, "Tdef")
    put(state, 1, "1rem")
    state = play(state, 0, "Trem", lock=3)
    triple = state.area(0)[-1]
    assert triple.kind == "333" and triple.attr == "any"
    state = act(state, 0, "end", "end", None)
    state = play(state, 1, "Tany", lock=triple.id)
    assert area_totals(state, 0).unstoppable == 0


def test_both_variants_fire_in_turn():
    state = make_state([["1rem", "1any"], []], options={**BOMB, **TRIPLE})
    put(state, 0, "1atk")
    put(state, 0, "1def")
    state = play(state, 0, "1rem")
    assert _kinds(state, 0).count("333") == 1
    state = play(state, 0, "1any", mode="def")
    assert _kinds(state, 0).count("bomb") == 1
    assert area_totals(state, 0).unstoppable == 7
