"""``GAME.sample``: a state drawn from one seat's view (ruling "Hidden information", "Effect
cards", "Setup", TIPS 1). The game-wide checks are tests/engine/test_sample_contract.py."""

from collections import Counter
from dataclasses import replace

import pytest

from engine.core import Rng
from engine.grid_reversal import GAME
from engine.grid_reversal.data import build_deck, is_number
from engine.grid_reversal.state import MOTHER

from .boards import SWAP_BOARD, act, make

KEYS = [bytes([n]) for n in range(40)]


def _complete(state):
    """Return ``state`` with every card of the default deck (8 of each number, 2 of each effect)
    not in a hand, on the grid or in the discard pile put in the deck (canonical order)."""
    rest = Counter(build_deck(8, 2))
    rest.subtract(state.hands[0] + state.hands[1] + state.discard)
    rest.subtract(str(p.value) for p in state.grid if p)
    return replace(state, deck=tuple(rest.elements()))


def _pending_swap_in():
    # Seat 0 plays Swap (b): its 2 is to replace the a1 on (4, 1); seat 1's Ban window is open.
    state = _complete(make(SWAP_BOARD, hands=(("2", "3", "SWAP"), ("1", "BAN", "4"))))
    return act(state, 0, {"type": "swap_in", "cell": [4, 1], "card": "2"})[0]


def test_the_view_shows_the_deck_make_up_and_the_clock():
    view = GAME.view(GAME.new_game(GAME.validate_options({"number_copies": 5}), 2, b"x"), 0)
    assert (view["number_copies"], view["effect_copies"], view["turn_seconds"]) == (5, 2, 60)


def test_the_seats_own_and_public_cards_are_kept_and_the_rest_dealt():
    state = _pending_swap_in()
    view = GAME.view(state, 0)
    hands = set()
    for key in KEYS:
        other = GAME.sample(view, 0, Rng(key))
        assert other.hands[0] == state.hands[0] and len(other.hands[1]) == 3
        assert Counter(other.hands[1] + other.deck) == Counter(state.hands[1] + state.deck)
        assert other.stack == state.stack and other.responder == 1
        assert [(p.owner, p.value) if p else None for p in other.grid] == [
            (p.owner, p.value) if p else None for p in state.grid]
        hands.add(other.hands[1])
    assert len(hands) > 20


def test_the_opponents_waiting_swap_card_stays_in_its_hand():
    state = _pending_swap_in()
    view = GAME.view(state, 1)
    for key in KEYS:
        other = GAME.sample(view, 1, Rng(key))
        assert "2" in other.hands[0] and len(other.hands[0]) == 2
        after, events = act(other, 1, {"type": "decline"})
        assert [e.kind for e in events][:2] == ["window_closed", "swapped_in"]


def test_spent_pairs_stay_on_their_cells():
    state = _complete(make(SWAP_BOARD, hands=(("2",), ("3",)), spent=[((3, 1), (4, 1))]))
    other = GAME.sample(GAME.view(state, 1), 1, Rng(b"s"))
    assert GAME.view(other, 1)["spent"] == [[[3, 1], [4, 1]]]
    assert GAME.legal_actions(other, 1) == GAME.legal_actions(state, 1)


def test_a_hand_still_choosing_its_mother_holds_a_number_and_its_choice_is_drawn():
    state = GAME.new_game(GAME.validate_options({}), 2, b"mother")
    assert state.phase == MOTHER
    view = GAME.view(state, 0)
    choices = set()
    for key in KEYS:
        other = GAME.sample(view, 0, Rng(key))
        assert any(is_number(c) for c in other.hands[1])
        choice = other.choices[1]
        assert choice is None or (is_number(choice) and choice in other.hands[1])
        choices.add(choice is None)
    assert choices == {True, False}
    chosen, _ = act(state, 0, {"type": "choose_mother", "card": state.hands[0][0]})
    view = GAME.view(chosen, 0)
    assert all(GAME.sample(view, 0, Rng(key)).choices == (state.hands[0][0], None)
               for key in KEYS[:10])


def test_a_spectators_view_is_refused():
    with pytest.raises(ValueError, match="a seat's own view"):
        GAME.sample(GAME.view(_pending_swap_in(), None), 0, Rng(b"s"))
