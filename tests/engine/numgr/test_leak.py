"""Information leaks: a viewer's view (and legal actions) must not depend on what it cannot see.

``GAME.redeal`` shuffles the opponent's hand, the deck order and face-down held cards the viewer
did not play among those places; the viewer's view must be identical for both states.
"""

import random

import pytest

from engine.core import Rng
from engine.numgr import GAME
from tests.engine.numgr.helpers import make_state, play


def _choose(rng, legal):
    plays = [a for a in legal if a["type"] == "play"]
    return rng.choice(plays) if plays and rng.random() < 0.75 else rng.choice(legal)


def _states(seed: int):
    options = GAME.validate_options({"variant_bomb": seed % 2 == 0, "variant_333": seed % 3 == 0})
    state = GAME.new_game(options, 2, b"leak" + bytes([seed]))
    rng = random.Random(seed)
    while GAME.to_act(state):
        yield state
        state, _ = GAME.apply(state, state.current,
                              _choose(rng, GAME.legal_actions(state, state.current)))
    yield state


@pytest.mark.parametrize("seed", range(16))
def test_views_do_not_depend_on_hidden_cards(seed):
    changed = 0
    for step, state in enumerate(_states(seed)):
        for viewer in (0, 1, None):
            other = GAME.redeal(state, viewer, Rng(f"{seed}/{step}".encode()))
            assert GAME.view(other, viewer) == GAME.view(state, viewer)
            if viewer is not None:
                assert GAME.legal_actions(other, viewer) == GAME.legal_actions(state, viewer)
            changed += GAME.dump(other) != GAME.dump(state)
    assert changed > 0


def test_redeal_keeps_counts_and_the_viewers_cards():
    state = next(s for i, s in enumerate(_states(3)) if i == 8)
    other = GAME.redeal(state, 0, Rng(b"x"))
    assert other.hands[0] == state.hands[0]
    assert len(other.hands[1]) == len(state.hands[1]) and len(other.deck) == len(state.deck)
    hidden = lambda s: sorted(s.hands[1] + s.deck + [t.base or "" for t in s.stacks])  # noqa
    assert hidden(other) == hidden(state)
    assert GAME.dump(state) != GAME.dump(other)


def test_held_card_is_redealt_for_the_opponent_only():
    state = play(make_state([["Tatk", "3atk"], ["1def"]]), 0, "Tatk", base="3atk")
    for seed in range(20):
        assert GAME.redeal(state, 0, Rng(bytes([seed]))).stacks[0].base == "3atk"
    bases = {GAME.redeal(state, 1, Rng(bytes([seed]))).stacks[0].base for seed in range(20)}
    assert len(bases) > 1 and all(b.endswith("atk") for b in bases)
