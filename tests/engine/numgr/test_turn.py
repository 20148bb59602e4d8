"""The turn: HP check at the end of defense, step order, refill and reshuffle, game length
(seed 【游戏流程】; rulings "Turn" and "Game length")."""

import pytest

from engine.core import IllegalAction
from engine.numgr import GAME
from engine.numgr.effects import Totals, loses_hp
from engine.numgr.turn import LAST_TURN, QUIET_TURNS
from tests.engine.numgr.helpers import act, area_mains, card_count, make_state, play, put


def _attacked(hand, hp=(2, 2)):
    state = make_state([hand, []], hp=hp)
    put(state, 1, "3atk")
    return state


def test_hp_check_happens_when_defense_ends_counting_defense_played_in_it():
    state = play(_attacked(["2def", "1def"]), 0, "2def")
    assert act(state, 0, "end").hp == [1, 2]
    state = play(state, 0, "1def")                     # 3 defense = 3 attack: safe
    assert act(state, 0, "end").hp == [2, 2]


def test_defense_played_in_the_attack_step_is_too_late():
    state = act(_attacked(["3def"]), 0, "end")
    assert state.hp == [1, 2] and state.step == "attack"
    state = play(state, 0, "3def")
    assert state.hp == [1, 2]


def test_zero_hp_loses_the_game():
    state = act(_attacked([], hp=(1, 2)), 0, "end")
    outcome = GAME.outcome(state)
    assert state.hp == [0, 2] and outcome.reason == "ko" and outcome.winners == {1}
    assert GAME.to_act(state) == frozenset() and GAME.legal_actions(state, 0) == []


def test_the_view_names_no_current_seat_once_the_match_is_over():
    attacked = _attacked([], hp=(1, 2))
    assert [GAME.view(attacked, v)["current"] for v in (0, 1, None)] == [0, 0, 0]
    quiet = make_state([[], []], step="discard")
    quiet.quiet = QUIET_TURNS - 1
    ko = act(attacked, 0, "end")
    for over in (ko, act(quiet, 0, None), GAME.resign(attacked, 1)[0]):
        assert over.step == "over" and GAME.to_act(over) == frozenset()
        assert [GAME.view(over, v)["current"] for v in (0, 1, None)] == [None, None, None]
    assert attacked.step == "defense" and GAME.view(attacked, 0)["current"] == 0


def test_cleanup_discards_own_area_only():
    state = make_state([[], ["1def", "2def", "3def", "1rem", "2rem"]], step="discard")
    put(state, 0, "3atk", base="0atk")
    put(state, 1, "2atk")
    state = act(state, 0, None)
    assert state.current == 1 and state.step == "defense"
    assert area_mains(state, 1) == [] and area_mains(state, 0) == ["3atk"]
    assert state.discard == ["2atk"]


def test_refill_reshuffles_the_discard_pile_when_the_deck_runs_out():
    used = ["1atk", "2atk"]
    state = make_state([used, ["1def"]], step="discard", deck=["3def"],
                       discard=["0atk", "0def", "0rem", "Gatk"])
    state = act(state, 0, "1atk")
    assert len(state.hands[0]) == 5 and "3def" in state.hands[0]
    assert sorted(state.hands[0] + state.deck) == sorted(
        ["2atk", "3def", "0atk", "0def", "0rem", "Gatk", "1atk"])
    assert state.discard == [] and state.reshuffles == 1


def test_refill_is_deterministic_from_the_seed():
    state = make_state([[], []], step="discard", deck=[], discard=["1atk", "2atk", "3atk"])
    assert act(state, 0, None).hands == act(state, 0, None).hands


def test_quiet_turns_end_in_a_draw():
    state = make_state([[], []], step="discard")
    state.quiet = QUIET_TURNS - 1
    state = act(state, 0, None)
    outcome = GAME.outcome(state)
    assert outcome.draw and outcome.reason == "draw"


def test_turn_limit_ends_in_a_draw():
    state = make_state([[], []], step="discard")
    state.turn = LAST_TURN - 1
    state = act(state, 0, None)
    assert GAME.outcome(state).draw and state.turn == LAST_TURN


def test_hp_loss_resets_the_quiet_count():
    state = make_state([[], []], step="discard")
    state.quiet, state.hp_lost = QUIET_TURNS - 1, True
    state = act(state, 0, None)
    assert state.quiet == 0 and GAME.outcome(state) is None


def test_unstoppable_attack_rules():
    # 2 attack + 3 unstoppable against non-○ 3 and ○ 2: 3 covers 3, then 0 + 2 covers 2.
    assert not loses_hp(Totals(attack=2, unstoppable=3), Totals(defense_other=3,
                                                                 defense_circle=2))
    # ○ defense alone cannot stop it, however large.
    assert loses_hp(Totals(unstoppable=3), Totals(defense_other=2, defense_circle=10))
    # Non-○ 4 covers 3 and leaves 1, short of 2 ordinary attack.
    assert loses_hp(Totals(attack=2, unstoppable=3), Totals(defense_other=4))
    assert not loses_hp(Totals(attack=3), Totals(defense_circle=3))
    assert loses_hp(Totals(attack=4), Totals(defense_other=1, defense_circle=2))


def test_cards_are_conserved_through_a_turn():
    state = play(_attacked(["2def", "0def", "Tatk", "1atk"]), 0, "2def", base="0def")
    state = play(state, 0, "Tatk", base="1atk")
    state = act(state, 0, "end", "end", None)
    assert card_count(state) == 32


def test_timeouts_end_the_step_and_discard_nothing():
    state = _attacked(["2def"])
    assert GAME.deadline_action(state, 0) == {"type": "end_step"}
    state = act(state, 0, "end", "end")
    assert GAME.deadline_action(state, 0) == {"type": "discard", "card": None}
    assert GAME.clock_seconds(state, 0) == 90


def test_wrong_step_is_refused():
    state = act(_attacked(["2def"]), 0, "end", "end")
    with pytest.raises(IllegalAction) as err:
        play(state, 0, "2def")
    assert err.value.code == "wrong_step"
