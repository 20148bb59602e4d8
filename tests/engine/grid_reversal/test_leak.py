"""Information leak: a viewer's view (and legal list) is the same for the real state and for
any re-deal of what that viewer cannot see (ruling "Hidden information")."""

import random
from collections import Counter

import pytest

from engine.core import Rng
from engine.grid_reversal import GAME

VIEWERS = (0, 1, None)


def _cards(state):
    return Counter(state.deck) + Counter(state.hands[0]) + Counter(state.hands[1])


@pytest.mark.parametrize("seed", range(16))
def test_views_do_not_depend_on_hidden_cards(seed):
    chooser = random.Random(seed)
    state = GAME.new_game(GAME.validate_options({}), 2, b"leak" + bytes([seed]))
    changed = 0
    for step in range(400):
        acting = sorted(GAME.to_act(state))
        if not acting:
            break
        for viewer in VIEWERS:
            other = GAME.redeal(state, viewer, Rng(f"{seed}/{step}".encode()))
            assert _cards(other) == _cards(state)
            assert GAME.view(other, viewer) == GAME.view(state, viewer)
            if viewer is not None:
                assert other.hands[viewer] == state.hands[viewer]
                assert GAME.legal_actions(other, viewer) == GAME.legal_actions(state, viewer)
            changed += GAME.dump(other) != GAME.dump(state)
        seat = chooser.choice(acting)
        state, _ = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    assert changed > 0  # the re-deal really moved hidden cards


def test_a_secret_setup_choice_is_not_visible_to_the_other_seat():
    state = GAME.new_game(GAME.validate_options({}), 2, b"leak-choice")
    card = next(c for c in state.hands[0] if c in "1234")
    chosen, _ = GAME.apply(state, 0, {"type": "choose_mother", "card": card})
    for viewer in (1, None):
        assert GAME.view(chosen, viewer) == GAME.view(state, viewer)
