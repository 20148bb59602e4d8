"""Exact values of number, 0, β and γ stacks (rulings "What a play does"; seed 【卡牌细则】)."""

from engine.numgr.effects import area_totals
from engine.numgr.state import Stack
from tests.engine.numgr.helpers import area_mains, make_state, play, put


def _totals(state, seat):
    t = area_totals(state, seat)
    return t.attack, t.defense


def test_zero_of_other_attribute_gives_both_effects():
    # ○0△2: 2 attack and 2 defense; the stack's attribute stays △ (its main card's).
    state = play(make_state([["2atk", "0def"], []]), 0, "2atk", base="0def")
    assert _totals(state, 0) == (2, 2)
    assert state.area(0)[0].attr == "atk"
    assert area_totals(state, 0).defense_other == 2  # not ○ defense


def test_zero_of_same_attribute_doubles():
    state = play(make_state([["3atk", "0atk"], []]), 0, "3atk", base="0atk")
    assert _totals(state, 0) == (6, 0)
    state = play(make_state([["2def", "0def"], []]), 0, "2def", base="0def")
    assert _totals(state, 0) == (0, 4)


def test_star_zero_adds_its_choice():
    # ☆0△3 with the ☆ choosing defense: 3 attack and 3 defense.
    state = play(make_state([["3atk", "0any"], []]), 0, "3atk", base="0any", base_mode="def")
    assert _totals(state, 0) == (3, 3)
    # ☆0☆2, same attribute, choosing attack: 4 attack.
    state = play(make_state([["2any", "0any"], []]), 0, "2any", base="0any", mode="atk")
    assert _totals(state, 0) == (4, 0)


def test_remove_zero_removes_every_number_stack_but_no_beta():
    state = make_state([["2rem", "0rem"], []])
    put(state, 1, "1atk")
    put(state, 1, "3def", base="0atk")
    put(state, 1, "Batk", copy="1")
    put(state, 1, "Gdef", base="1def", mode="def")
    state = play(state, 0, "2rem", base="0rem")
    assert area_mains(state, 1) == ["Batk", "Gdef"]
    assert sorted(state.discard) == ["0atk", "1atk", "3def"]


def test_remove_beta_remove_zero_removes_numbers_and_betas():
    state = make_state([["Brem", "0rem"], []])
    put(state, 1, "1atk")
    put(state, 1, "Batk", copy="1")
    put(state, 1, "Bdef", copy="A")
    put(state, 1, "Gdef", base="1def", mode="def")
    state = play(state, 0, "Brem", base="0rem", copy="1")
    assert area_mains(state, 1) == ["Gdef"]
    assert area_mains(state, 0) == ["Brem"]


def test_remove_n_removes_only_that_number():
    state = make_state([["2rem"], []])
    put(state, 1, "2atk", base="0atk")
    put(state, 1, "3atk")
    state = play(state, 0, "2rem")
    assert area_mains(state, 1) == ["3atk"]
    assert _totals(state, 1) == (3, 0)


def test_beta_copying_three_attacks_three_and_survives_remove_three():
    state = make_state([["Batk"], []])
    put(state, 1, "3def")
    state = play(state, 0, "Batk", copy="3")
    assert _totals(state, 0) == (3, 0)
    # Later the opponent's □3 removes the 3 number stacks, never the β.
    later = make_state([[], ["3rem"]], current=1)
    put(later, 0, "Batk", copy="3")
    put(later, 0, "3atk")
    later = play(later, 1, "3rem")
    assert area_mains(later, 0) == ["Batk"]
    assert _totals(later, 0) == (3, 0)


def test_beta_copying_a_number_takes_a_zero():
    state = make_state([["Bdef", "0def"], []])
    put(state, 1, "2atk")
    state = play(state, 0, "Bdef", base="0def", copy="2")
    assert _totals(state, 0) == (0, 4)


def test_gamma_with_number_base_gives_two():
    state = play(make_state([["Gatk", "1atk"], []]), 0, "Gatk", base="1atk", mode="atk")
    assert _totals(state, 0) == (2, 0)


def test_gamma_with_letter_base_gives_three_and_the_base_does_nothing():
    state = make_state([["Gatk", "Aatk"], []])
    put(state, 1, "2atk")
    state = play(state, 0, "Gatk", base="Aatk", mode="def")
    assert _totals(state, 0) == (0, 3)
    # The α under the γ reflects nothing (the base's own effect does not apply).
    assert area_mains(state, 1) == ["2atk"]


def test_gamma_with_zero_base_counts_as_number_base():
    state = play(make_state([["Gdef", "0def"], []]), 0, "Gdef", base="0def", mode="atk")
    assert _totals(state, 0) == (2, 0)


def test_star_keeps_its_attribute():
    state = play(make_state([["3any"], []]), 0, "3any", mode="def")
    stack: Stack = state.area(0)[0]
    assert stack.attr == "any" and _totals(state, 0) == (0, 3)
    assert area_totals(state, 0).defense_circle == 0


def test_pending_gamma_and_beta_are_completed_from_the_hand():
    from tests.engine.numgr.helpers import act
    state = make_state([["2def", "Bdef"], ["1atk"]], current=1, step="discard")
    put(state, 0, "Tdef", base="Gdef")
    put(state, 0, "Bany", copy="T", base="Tany")  # β copying θ showing a held θ
    state = act(state, 1, None)
    assert sorted(state.pending[0]) == ["Gdef", "Tany"]
    state = play(state, 0, "Gdef", base="2def", mode="def")
    assert _totals(state, 0) == (0, 2)
    assert state.pending[0] == ["Tany"]


def test_view_shapes_for_players_and_spectators():
    from engine.numgr import GAME
    state = make_state([["2atk", "0def"], ["1def"]])
    state = play(state, 0, "2atk", base="0def")
    mine, spectator = GAME.view(state, 0), GAME.view(state, None)
    assert mine["hand"] == [] and spectator["hand"] is None
    assert mine["hand_sizes"] == [0, 1] and mine["totals"][0] == {
        "attack": 2, "unstoppable": 0, "defense": 2, "defense_circle": 0}
    stack = mine["areas"][0][0]
    assert (stack["main"], stack["base"], stack["base_role"]) == ("2atk", "0def", "zero")
    assert (stack["attack"], stack["defense"]) == (2, 2)
