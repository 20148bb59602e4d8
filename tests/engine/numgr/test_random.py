"""Random playouts under every option mix: invariants hold at every step and games end."""

import json
import random

import pytest

from engine.numgr import GAME
from engine.numgr.effects import locked_ids
from tests.engine.numgr.helpers import card_count

MIXES = [{}, {"hp": 1}, {"hp": 5, "variant_bomb": True},
         {"variant_333": True}, {"hp": 3, "variant_bomb": True, "variant_333": True}]


def _choose(rng: random.Random, legal: list) -> dict:
    """Prefer plays (3 in 4) so that areas fill up and effects interact."""
    plays = [a for a in legal if a["type"] == "play"]
    return rng.choice(plays) if plays and rng.random() < 0.75 else rng.choice(legal)


def _check(state) -> None:
    assert card_count(state) == 32
    assert len({s.id for s in state.stacks}) == len(state.stacks)
    assert all(0 <= hp <= state.options["hp"] for hp in state.hp)
    assert locked_ids(state) <= {s.id for s in state.stacks}
    for stack in state.stacks:
        if stack.base is not None and stack.is_theta:
            assert stack.base[1:] == stack.attr          # a held card shares the θ's attribute
    for viewer in (0, 1, None):
        json.dumps(GAME.view(state, viewer))


@pytest.mark.parametrize("seed", range(15))
def test_random_playouts_keep_invariants(seed):
    options = GAME.validate_options(MIXES[seed % len(MIXES)])
    state = GAME.new_game(options, 2, b"rnd" + bytes([seed]))
    rng = random.Random(seed)
    for _ in range(GAME.spec.max_length):
        if not GAME.to_act(state):
            break
        seat = state.current
        state, _ = GAME.apply(state, seat, _choose(rng, GAME.legal_actions(state, seat)))
        _check(state)
    assert GAME.outcome(state) is not None
