"""``GAME.sample``: a state drawn from one seat's view (rulings "Hidden information"). The
game-wide checks are tests/engine/test_sample_contract.py."""

from collections import Counter

import pytest

from engine.core import Rng
from engine.numgr import GAME
from engine.numgr import cards as C
from tests.engine.numgr.helpers import card_count, make_state, play, put

KEYS = [bytes([n]) for n in range(40)]


def _held():
    """Seat 0 holds 3atk face-down under its Tatk; seat 1 holds 1def; the rest is the deck."""
    return play(make_state([["Tatk", "3atk", "2def"], ["1def"]]), 0, "Tatk", base="3atk")


def test_the_seats_own_and_public_cards_are_kept_and_the_rest_dealt():
    state = _held()
    view = GAME.view(state, 0)
    hands = set()
    for key in KEYS:
        other = GAME.sample(view, 0, Rng(key))
        assert other.hands[0] == ["2def"] and len(other.hands[1]) == 1
        assert other.stacks[0].base == "3atk" and len(other.deck) == len(state.deck)
        assert Counter(other.hands[1] + other.deck) == Counter(state.hands[1] + state.deck)
        assert card_count(other) == 32 and other.seed != state.seed
        hands.add(other.hands[1][0])
    assert len(hands) > 20


def test_a_hidden_held_card_has_its_thetas_attribute_and_is_never_a_theta():
    view = GAME.view(_held(), 1)
    bases = {GAME.sample(view, 1, Rng(key)).stacks[0].base for key in KEYS}
    # Unseen atk cards but the θ itself: 1atk 2atk 0atk Aatk Batk Gatk (3atk is hidden too).
    assert bases <= {"1atk", "2atk", "3atk", "0atk", "Aatk", "Batk", "Gatk"}
    assert len(bases) >= 5 and all(C.face(b) != C.THETA for b in bases)


def test_a_theta_held_by_a_beta_copying_theta_is_shown_and_kept():
    # Seed θ ④: a β copying θ that holds a θ from hand must show it.
    state = make_state([["Batk", "Tatk", "2def"], ["1def"]])
    put(state, 1, "Tdef")
    state = play(state, 0, "Batk", base="Tatk", copy="T")
    view = GAME.view(state, 1)
    assert view["areas"][0][0]["base"] == "Tatk" and not view["areas"][0][0]["held_hidden"]
    for key in KEYS[:5]:
        other = GAME.sample(view, 1, Rng(key))
        assert (other.stacks[1].base, other.stacks[1].shown) == ("Tatk", True)


def test_what_the_view_does_not_show_is_filled_in():
    state = make_state([["1any"], ["2def"]], options={"variant_bomb": True, "variant_333": True})
    for card in ("1atk", "1def", "1rem"):
        put(state, 0, card)
    other = GAME.sample(GAME.view(state, 1), 1, Rng(b"s"))
    # Three 1s stand in seat 0's area: the 333 trigger stands (never the Bomb's: four needed).
    assert other.triggered == [[0, "1", "333"]]
    assert other.next_id == 4 and other.reshuffles == 0 and other.kept == []
    assert other.options == {"hp": 2, "variant_bomb": True, "variant_333": True,
                             "turn_seconds": 90}


def test_a_spectators_view_is_refused():
    with pytest.raises(ValueError, match="a seat's own view"):
        GAME.sample(GAME.view(_held(), None), 0, Rng(b"s"))
