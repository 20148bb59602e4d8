"""No information leak: re-dealing what a viewer cannot see (the deck order) never changes that
viewer's view, over many random seeded games (rulings, "Hidden information")."""

from __future__ import annotations

import random

import pytest

from engine.civilization import GAME
from engine.core import Rng


def _states(seed: int):
    state = GAME.new_game(GAME.validate_options({}), 2, seed.to_bytes(4, "big"))
    chooser = random.Random(seed)
    while GAME.to_act(state):
        yield state
        seat = next(iter(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    yield state


@pytest.mark.parametrize("seed", range(30))
def test_redeal_keeps_every_view(seed):
    moved = 0
    for n, state in enumerate(_states(seed)):
        for viewer in (0, 1, None):
            other = GAME.redeal(state, viewer, Rng(f"{seed}/{n}/{viewer}".encode()))
            assert sorted(other.deck) == sorted(state.deck)
            assert GAME.view(other, viewer) == GAME.view(state, viewer)
            moved += other.deck != state.deck
    assert moved > 0, "the re-deal never changed the hidden deck order"


def test_redeal_changes_what_is_revealed_next():
    state = GAME.new_game(GAME.validate_options({}), 2, b"leak")
    tops = {GAME.redeal(state, 0, Rng(bytes([k]))).deck[0] for k in range(40)}
    assert len(tops) > 5
