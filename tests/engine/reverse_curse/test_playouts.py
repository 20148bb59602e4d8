"""Random playouts in every format (the generic contract test only plays the defaults).

Invariants checked at every step: the 24 cards are all somewhere, every seat to act has legal
actions including its timeout move (and a timeout is played by a seat to act), views show only
the viewer's side's hands and face-down cards, the match ends within ``spec.max_length`` and
``load(dump(s)) == s``.
"""

import random
from collections import Counter

import pytest

from engine.reverse_curse import GAME
from engine.reverse_curse.cards import DECK
from engine.reverse_curse.state import side_of

from .helpers import all_cards, new_match


def _check_views(state):
    for viewer in range(len(state.hands)):
        view = GAME.view(state, viewer)
        side = side_of(state, viewer)
        assert {int(s) for s in view["hands"]} == set(view["sides"][side])
        for entry, card in zip(view["field"], state.field):
            shown = card.face_up or card.side == side
            assert entry["card"] == (card.card if shown else None)
    assert GAME.view(state, None)["hands"] == {}


@pytest.mark.parametrize("fmt, regulation, monsters", [
    ("1v1", "half", False), ("2v2", "full", True), ("3v3", "half", True)])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playout_keeps_the_invariants(fmt, regulation, monsters, seed):
    state = new_match(bytes([seed]), format=fmt, regulation=regulation, monsters=monsters)
    chooser = random.Random(seed)
    for _ in range(GAME.spec.max_length):
        acting = sorted(GAME.to_act(state))
        if not acting:
            break
        assert all_cards(state) == Counter(DECK)
        _check_views(state)
        assert GAME.load(GAME.dump(state)) == state
        for seat in acting:
            assert GAME.deadline_action(state, seat) in GAME.legal_actions(state, seat)
            assert GAME.deadline_seat(state, seat) in acting
        seat = chooser.choice(acting)
        state, _ = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    assert not GAME.to_act(state) and GAME.outcome(state) is not None
