"""Information leaks: a viewer's view is identical for the real state and for one where every
card it cannot see was re-dealt (opponents' hands, stock order, face-down groups)."""

import random
from collections import Counter

from engine.core import Rng
from engine.zipai import GAME
from engine.zipai.cards import deck
from tests.engine.zipai.builders import all_cards

VIEWERS = (0, 1, 2, None)


def test_views_do_not_depend_on_hidden_cards():
    changed = 0
    for seed in range(15):
        state = GAME.new_game(GAME.validate_options({"hands": 2}), 3, b"leak" + bytes([seed]))
        chooser = random.Random(seed)
        step = 0
        while GAME.to_act(state):
            if step % 5 == 0:
                for viewer in VIEWERS:
                    other = GAME.redeal(state, viewer, Rng(bytes([seed, step % 251])))
                    assert all_cards(other) == Counter(deck())
                    assert GAME.view(other, viewer) == GAME.view(state, viewer)
                    changed += GAME.dump(other) != GAME.dump(state)
            seat = chooser.choice(sorted(GAME.to_act(state)))
            state, _ = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
            step += 1
    assert changed > 100          # the re-deal really moves hidden cards


def test_redeal_keeps_the_viewers_own_cards_and_the_public_ones():
    state = GAME.new_game(GAME.validate_options({}), 3, b"keep")
    other = GAME.redeal(state, 1, Rng(b"x"))
    assert other.hand.players[1].hand == state.hand.players[1].hand
    assert other.hand.players[0].hand != state.hand.players[0].hand or \
        other.hand.players[2].hand != state.hand.players[2].hand
    dealer = state.hand.dealer
    if dealer != 1:
        assert state.hand.liang in other.hand.players[dealer].hand + [
            c for g in other.hand.players[dealer].groups for c in g.cards]
