"""Action validation and legal-action counts from hand-made positions."""

import pytest

from engine.core import IllegalAction, InvalidAction
from engine.numgr import GAME
from engine.numgr.plays import copyable_faces, play_action
from tests.engine.numgr.helpers import make_state, put


def test_legal_action_count_from_a_known_position():
    # 1any: alone 3 ☆ choices; over 0atk 3; over 0any (same ☆ attribute, doubled) 3      = 9
    # 2def: alone 1; over 0atk 1; over 0any 3 (☆ choice of the 0)                         = 5
    # Tdef: hold 2def 1; lock the opponent's ○3 1                                          = 2
    # 0atk, 0any: never main cards. Plus end_step.                                     total 17
    state = make_state([["1any", "0atk", "0any", "Tdef", "2def"], []])
    put(state, 1, "3def")
    legal = GAME.legal_actions(state, 0)
    assert len(legal) == 17 and legal[0] == {"type": "end_step"}
    assert play_action("Tdef", lock=1) in legal
    assert play_action("Tdef", "2def") in legal


def test_beta_copies_faces_of_main_cards_only():
    state = make_state([["Bany"], []])
    put(state, 1, "2atk", base="0atk")
    put(state, 0, "Gdef", base="3def", mode="def")
    assert copyable_faces(state) == ["2", "G"]
    legal = GAME.legal_actions(state, 0)
    # β☆ as 2: 3 ☆ choices; β☆ as γ: no ☆ base card in hand, so nothing.
    assert legal[1:] == [play_action("Bany", mode=m, copy="2") for m in ("atk", "def", "rem")]


def test_gamma_cannot_be_played_alone():
    state = make_state([["Gatk", "1def"], []])  # no △ card to go under the γ
    assert GAME.legal_actions(state, 0) == [{"type": "end_step"}, play_action("1def")]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, play_action("Gatk", mode="atk"))
    assert err.value.code == "illegal_play"


def test_discard_step_lists_none_then_each_card():
    state = make_state([["3atk", "1def"], []], step="discard")
    assert GAME.legal_actions(state, 0) == [
        {"type": "discard", "card": None}, {"type": "discard", "card": "1def"},
        {"type": "discard", "card": "3atk"}]


@pytest.mark.parametrize("action, code", [
    ({"type": "play", "main": "1atk"}, "malformed_action"),
    ({**play_action("1atk"), "lock": True}, "malformed_action"),
    ({**play_action("1atk"), "main": "9xyz"}, "malformed_action"),
    ({"type": "fly"}, "unknown_action"),
    ("play", "malformed_action"),
])
def test_malformed_actions(action, code):
    with pytest.raises(InvalidAction) as err:
        GAME.apply(make_state([["1atk"], []]), 0, action)
    assert err.value.code == code


def test_illegal_actions_have_stable_codes():
    state = make_state([["1atk", "0def"], ["2atk"]])
    cases = [(1, play_action("2atk"), "not_your_turn"),
             (0, play_action("2atk"), "card_not_in_hand"),
             (0, play_action("1atk", "0rem"), "card_not_in_hand"),
             (0, play_action("1atk", mode="atk"), "illegal_play"),
             (0, {"type": "discard", "card": None}, "wrong_step")]
    for seat, action, code in cases:
        with pytest.raises(IllegalAction) as err:
            GAME.apply(state, seat, action)
        assert err.value.code == code
    over, _ = GAME.resign(state, 1)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(over, 0, {"type": "end_step"})
    assert err.value.code == "game_over"
    assert GAME.outcome(over).winners == {0} and GAME.outcome(over).reason == "resign"


def test_options_and_spec():
    assert GAME.validate_options({}) == {"hp": 2, "variant_bomb": False, "variant_333": False,
                                         "turn_seconds": 90}
    for bad in ({"hp": 0}, {"hp": 6}, {"variant_bomb": 1}, {"colour": "red"}):
        with pytest.raises(ValueError):
            GAME.validate_options(bad)
    assert GAME.seats(GAME.validate_options({})) == 2
    assert {"en", "zh", "ja"} <= set(GAME.spec.titles)


def test_new_game_deals_five_each_with_hp_from_options():
    state = GAME.new_game(GAME.validate_options({"hp": 4}), 2, b"seed")
    assert [len(h) for h in state.hands] == [5, 5] and len(state.deck) == 22
    assert state.hp == [4, 4] and state.step == "defense" and state.turn == 1
    assert GAME.dump(GAME.new_game(GAME.validate_options({}), 2, b"seed"))["hands"] == state.hands


def test_only_star_matches_star_for_theta_and_gamma():
    state = make_state([["Tany", "Gany", "2atk"], []])
    put(state, 1, "3any", mode="atk")
    put(state, 1, "3atk")
    plays = GAME.legal_actions(state, 0)[1:]
    # ☆θ: hold the ☆γ, or lock the ☆3 (a ☆ that chose attack is still ☆; the △3 is not).
    assert [(a["base"], a["lock"]) for a in plays if a["main"] == "Tany"] == [
        ("Gany", None), (None, 1)]
    assert {a["base"] for a in plays if a["main"] == "Gany"} == {"Tany"}
