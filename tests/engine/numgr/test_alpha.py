"""α reflection (seed {字母牌α} ①–④; rulings "α reflects")."""

from engine.numgr import GAME
from engine.numgr.effects import area_totals
from tests.engine.numgr.helpers import act, area_mains, make_state, play, put


def _circle_alpha_position(hand):
    """Seat 1 has ○α and a △3 (3 attack); seat 0 is in its defense step with ``hand``."""
    state = make_state([hand, []])
    put(state, 1, "Adef")
    put(state, 1, "3atk")
    return state


def test_circle_alpha_reflects_a_later_circle_defense_so_the_defender_loses_hp():
    state = play(_circle_alpha_position(["3def"]), 0, "3def")
    moved = state.area(1)[-1]
    assert moved.main == "3def" and moved.reflected and moved.owner == 0
    assert area_totals(state, 0).defense == 0
    assert area_totals(state, 1).defense == 3
    state = act(state, 0, "end")
    assert state.hp == [1, 2]


def test_star_defense_avoids_the_circle_alpha():
    state = play(_circle_alpha_position(["3any"]), 0, "3any", mode="def")
    assert area_mains(state, 0) == ["3any"]
    state = act(state, 0, "end")
    assert state.hp == [2, 2]


def test_gamma_synergy_defense_is_reflected_by_circle_alpha_only_if_circle():
    # A □γ synergy defense (attribute □) is not reflected by ○α: 3 defense stops 3 attack.
    state = play(_circle_alpha_position(["Grem", "Trem"]), 0, "Grem", base="Trem", mode="def")
    assert area_mains(state, 0) == ["Grem"]
    assert act(state, 0, "end").hp == [2, 2]


def test_alpha_reflects_stacks_already_there_and_works_for_the_reflector():
    state = make_state([["Aatk"], []])
    put(state, 1, "3atk")
    put(state, 1, "2atk", base="0def")
    put(state, 1, "1def")
    state = play(state, 0, "Aatk")
    assert area_mains(state, 0) == ["3atk", "2atk", "Aatk"]  # id order
    assert area_mains(state, 1) == ["1def"]
    assert area_totals(state, 0).attack == 5 and area_totals(state, 0).defense == 2


def test_reflected_remove_removes_again_from_the_other_area():
    # Seat 1's □α reflects seat 0's □2: it lands in seat 1's area and removes seat 0's 2s.
    state = make_state([["2rem"], []])
    put(state, 1, "Arem")
    put(state, 1, "2atk")
    put(state, 0, "2def")
    state = play(state, 0, "2rem")
    assert area_mains(state, 1) == ["Arem", "2atk", "2rem"]
    assert area_mains(state, 0) == []


def test_reflection_never_happens_twice():
    state = make_state([["Gdef", "1def", "Brem", "0rem", "Adef"], []])
    put(state, 1, "Bdef", copy="A")  # a β copying α: seat 1's ○α
    put(state, 1, "1atk")
    state = play(state, 0, "Gdef", base="1def", mode="def")
    assert area_mains(state, 1) == ["Bdef", "1atk", "Gdef"]
    state = play(state, 0, "Brem", base="0rem", copy="1")  # □β□0: numbers and βs go
    assert area_mains(state, 1) == ["Gdef"]
    state = play(state, 0, "Adef")  # seat 0's own ○α cannot bring the γ back
    assert area_mains(state, 1) == ["Gdef"]
    assert area_mains(state, 0) == ["Brem", "Adef"]
    assert area_totals(state, 1).defense == 2


def test_locked_stacks_are_not_reflected():
    state = make_state([["Aatk"], []])
    put(state, 1, "3atk")
    put(state, 0, "Tatk", lock=1)
    state = play(state, 0, "Aatk")
    assert area_mains(state, 1) == ["3atk"]


def test_reflected_theta_turns_and_releases_its_held_card():
    state = make_state([["Adef"], []])
    put(state, 1, "Tdef", base="0def")
    state = play(state, 0, "Adef")
    theta = next(s for s in state.area(0) if s.main == "Tdef")
    assert theta.main == "Tdef" and theta.base is None and theta.reflected
    assert state.pending[1] == ["0def"]


def test_reflected_theta_is_discarded_at_the_reflectors_next_cleanup():
    state = make_state([["Adef"], []], step="attack")
    put(state, 1, "Tdef", base="2def")
    state = play(state, 0, "Adef")
    # The held ○2 needs no choice: it takes effect at once in its owner's area, and the ○α that
    # reflected its θ does not reflect it.
    assert area_mains(state, 1) == ["2def"]
    assert area_mains(state, 0) == ["Tdef", "Adef"]
    assert area_totals(state, 1).defense == 2 and area_totals(state, 0).defense == 0
    state = act(state, 0, "end", None)          # seat 1's clean-up discards its own ○2
    assert area_mains(state, 1) == []
    assert area_mains(state, 0) == ["Tdef", "Adef"]
    state = act(state, 1, "end", "end", None)    # seat 0's clean-up discards the θ too
    assert area_mains(state, 0) == []


def _held_attack_reflected():
    """Seat 1's △θ holds △1; seat 0, in its defense step, plays △α and reflects the θ."""
    state = make_state([["Aatk", "2atk"], []])
    put(state, 1, "Tatk", base="1atk")
    return play(state, 0, "Aatk")


def test_the_held_card_of_a_reflected_theta_stays_with_its_owner():
    state = _held_attack_reflected()
    assert area_mains(state, 0) == ["Tatk", "Aatk"]
    assert area_mains(state, 1) == ["1atk"]
    released = state.area(1)[0]
    assert (released.owner, released.reflected, released.spared_by) == (1, False, 2)
    assert area_totals(state, 0).attack == 0 and area_totals(state, 1).attack == 1
    # The △1 attacks for its owner in seat 0's HP check; seat 0 has no defense.
    state = act(state, 0, "end")
    assert state.hp == [1, 2]
    # Seat 1's clean-up discards its △1; seat 0's area has no attack, so seat 1 loses nothing.
    state = act(state, 0, "end", None)
    assert area_mains(state, 1) == []
    state = act(state, 1, "end")
    assert state.hp == [1, 2]


def test_the_same_alpha_never_reflects_the_released_card_later():
    state = play(_held_attack_reflected(), 0, "2atk")  # another arrival settles the areas again
    assert area_mains(state, 0) == ["Tatk", "Aatk", "2atk"]
    assert area_mains(state, 1) == ["1atk"]
    state = GAME.load(GAME.dump(state))              # the spared α survives a stored state
    assert state.area(1)[0].spared_by == 2
    state = act(state, 0, "end")
    assert area_mains(state, 1) == ["1atk"] and state.hp == [1, 2]


def test_a_theta_holding_a_card_played_into_an_alpha_keeps_the_card_on_its_side():
    state = make_state([[], ["Tatk", "1atk"]], current=1)
    put(state, 0, "Aatk")
    state = play(state, 1, "Tatk", base="1atk")
    assert area_mains(state, 0) == ["Aatk", "Tatk"]
    assert area_mains(state, 1) == ["1atk"]
    assert area_totals(state, 0).attack == 0 and area_totals(state, 1).attack == 1


def test_another_alpha_reflects_the_released_card_like_any_stack():
    # Only the α that reflected the θ spares the held card; a later △α (β copying α) takes it.
    state = make_state([["Aatk", "Batk"], []])
    put(state, 1, "Tatk", base="1atk")
    state = play(state, 0, "Aatk")
    state = play(state, 0, "Batk", copy="A")
    assert area_mains(state, 0) == ["Tatk", "Aatk", "1atk", "Batk"]  # id order
    assert area_mains(state, 1) == []
    assert area_totals(state, 0).attack == 1


def test_a_locked_alpha_reflects_nothing_until_released():
    state = make_state([["Tdef", "3def"], []])
    put(state, 1, "Adef")
    put(state, 1, "3atk")
    state = play(state, 0, "Tdef", lock=1)
    state = play(state, 0, "3def")
    assert area_mains(state, 0) == ["Tdef", "3def"]
    assert act(state, 0, "end").hp == [2, 2]


def test_a_released_alpha_reflects_a_card_released_with_it():
    # Seat 1's △α is locked by seat 0's △θ, and seat 0's β (copying θ) holds △3. Seat 0's
    # clean-up discards both: the α takes effect again and the released △3 is reflected at once.
    state = make_state([[], ["1def", "2def", "3def", "1rem", "2rem"]], current=1, step="discard")
    put(state, 1, "Aatk")
    put(state, 0, "Tatk", lock=1)
    put(state, 0, "Batk", copy="T", base="3atk")
    state = act(state, 1, None)
    assert area_mains(state, 0) == []
    assert area_mains(state, 1) == ["Aatk", "3atk"]
    assert area_totals(state, 1).attack == 3
