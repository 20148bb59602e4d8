"""The shortcuts taken for engine speed give exactly what the plain paths give.

States share unchanged player records (``state.clone``/``own_player``), claim windows share
their answer dicts, and ``apply`` asks ``_deciding`` instead of building ``to_act``. Each is
checked here against the behaviour it replaces, on random games; ``normalise``'s canonical 吃
and its errors on hand-made actions.
"""

import copy
import random

import pytest

from engine.core import InvalidAction
from engine.zipai import GAME
from engine.zipai.game import _deciding, normalise
from engine.zipai.state import Match, clone, own_player
from tests.engine.zipai.builders import player, table

SEEDS = range(6)


def _random_game(seed: int) -> list[Match]:
    """Return every state of one random 2-hand match, in order."""
    options = GAME.validate_options({"hands": 2})
    state = GAME.new_game(options, 3, seed.to_bytes(8, "big"))
    chooser = random.Random(seed)
    states = [state]
    while GAME.to_act(state):
        seat = chooser.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
        states.append(state)
    return states


@pytest.mark.parametrize("seed", SEEDS)
def test_no_later_action_changes_an_earlier_state(seed):
    states = _random_game(seed)
    dumps = [copy.deepcopy(GAME.dump(s)) for s in states]
    # Play every legal action of every state once more: shared player records must stay put.
    for state in states:
        for seat in GAME.to_act(state):
            for action in GAME.legal_actions(state, seat):
                GAME.apply(state, seat, action)
    assert [GAME.dump(s) for s in states] == dumps


@pytest.mark.parametrize("seed", SEEDS)
def test_deciding_is_membership_of_to_act(seed):
    for state in _random_game(seed):
        assert {s for s in range(3) if _deciding(state, s)} == GAME.to_act(state)


def test_own_player_copies_a_shared_record_once():
    base = table([player("一二三"), player("四五六"), player("七八九")])
    copied = clone(base)
    assert copied.hand.shared == {0, 1, 2}
    assert copied.hand.players[1] is base.hand.players[1]
    mine = own_player(copied.hand, 1)
    assert mine is not base.hand.players[1] and mine == base.hand.players[1]
    assert copied.hand.shared == {0, 2}
    assert own_player(copied.hand, 1) is mine          # owned now: no second copy
    mine.hand.append("x1")
    assert base.hand.players[1].hand == ["x4", "x5", "x6"]
    assert "shared" not in GAME.dump(copied)["hand"]
    assert GAME.load(GAME.dump(copied)).hand.shared == frozenset()


def test_window_answers_are_shared_but_legal_actions_are_copies():
    states = _random_game(3)
    claim = next(s for s in states if s.hand.phase == "claim" and
                 any(a["type"] == "chi" for o in s.hand.window.options.values() for a in o))
    seat = next(s for s, o in claim.hand.window.options.items()
                if any(a["type"] == "chi" for a in o))
    before = copy.deepcopy(claim.hand.window.options)
    for action in GAME.legal_actions(claim, seat):
        action["type"] = "changed"
        for group in action.get("bi", []):
            group.append("x1")
        action.get("cards", []).append("x1")
    assert claim.hand.window.options == before
    assert GAME.legal_actions(claim, seat) == before[seat]


@pytest.mark.parametrize("action, canonical", [
    ({"type": "chi", "cards": ["x3", "x2"], "bi": []},
     {"type": "chi", "cards": ["x2", "x3"], "bi": []}),
    # 比 groups: each in card order (x before d), then the groups sorted as lists of codes.
    ({"type": "chi", "cards": ["d1", "x1"], "bi": [["x2", "x1", "x3"], ["d1", "x1", "d1"]]},
     {"type": "chi", "cards": ["x1", "d1"], "bi": [["x1", "d1", "d1"], ["x1", "x2", "x3"]]}),
])
def test_a_plain_chi_is_put_in_canonical_form(action, canonical):
    assert normalise(action) == canonical


@pytest.mark.parametrize("action, code", [
    ({"type": "chi", "cards": ["x1"], "bi": []}, "malformed_action"),
    ({"type": "chi", "cards": ["x1", "x2"], "bi": [["x1", "x2"]]}, "malformed_action"),
    ({"type": "chi", "cards": ["x1", "x2"], "bi": ["x1x2x3"]}, "malformed_action"),
    ({"type": "chi", "cards": ["x1", "y2"], "bi": []}, "unknown_card"),
    ({"type": "chi", "cards": ["x1", "x2"], "bi": [["x1", "x2", 3]]}, "unknown_card"),
    ({"type": "chi", "cards": ["x1", "x2"]}, "malformed_action"),
    ({"type": "chi", "cards": ["x1", "x2"], "bi": [], "x": 1}, "malformed_action"),
    ({"type": "chi", "cards": ("x1", "x2"), "bi": []}, "malformed_action"),
])
def test_a_bad_chi_still_gets_its_error(action, code):
    with pytest.raises(InvalidAction) as info:
        normalise(action)
    assert info.value.code == code
