"""``GAME.sample``: a state drawn from one seat's view (rulings "Hidden information", "Match
flow" 4-6). The game-wide checks are tests/engine/test_sample_contract.py."""

from collections import Counter

import pytest

from engine.core import Rng
from engine.reverse_curse import GAME
from engine.reverse_curse.cards import DECK, SPECIALS
from engine.reverse_curse.state import FieldCard, MulliganChoice

from .helpers import all_cards, make_state

D, E, F, M, R, S = ("DOUBLE_BUBBLE", "ECHO_FLOW", "FLIP_TRAP", "MIRROR_PILLAR", "REVERSE_CURSE",
                    "SILENCE_SIREN")
KEYS = [bytes([n]) for n in range(40)]


def _turn_five(**more):
    """UP (seat 0) to play T5: T1 its ECHO_FLOW face-down, T2 DOWN's DOUBLE_BUBBLE face-down,
    T3 UP's +1, T4 DOWN's -1 face-down (played under VEIL_SNAIL); UP holds four specials."""
    field = [FieldCard(E, 0, "UP", False), FieldCard(D, 1, "DOWN", False),
             FieldCard("+1", 0, "UP", True), FieldCard("-1", 1, "DOWN", False)]
    return make_state([[S, M, R, F], ["-2", "-3", "+2", "+3"]], turn=5, field=field, **more)


def test_the_seats_own_and_public_cards_are_kept_and_the_rest_dealt():
    state = _turn_five(monsters=True)
    view = GAME.view(state, 0)
    hands = set()
    for key in KEYS:
        other = GAME.sample(view, 0, Rng(key))
        assert other.hands[0] == (S, M, R, F) and len(other.hands[1]) == 4
        assert [(f.seat, f.side, f.face_up) for f in other.field] == [
            (f.seat, f.side, f.face_up) for f in state.field]
        assert other.field[0] == state.field[0] and other.field[2] == state.field[2]
        assert len(other.deck) == 12 and all_cards(other) == Counter(DECK)
        assert other.seed != state.seed and (other.turn_seconds, other.shop_seconds) == (30, 30)
        hands.add(other.hands[1])
    assert len(hands) > 30


def test_one_special_left_for_two_face_down_cards_makes_the_other_a_veiled_card():
    # Unseen specials: only DOUBLE_BUBBLE (ECHO_FLOW is UP's own T1, four are in UP's hand).
    view = GAME.view(_turn_five(monsters=True), 0)
    where = set()
    for key in KEYS:
        other = GAME.sample(view, 0, Rng(key))
        t2, t4 = other.field[1].card, other.field[3].card
        assert sorted([t2 in SPECIALS, t4 in SPECIALS]) == [False, True] and D in (t2, t4)
        where.add(t2 == D)
    assert where == {True, False}


def test_without_a_possible_veil_every_face_down_card_is_a_special():
    # Seat 0 holds two specials: four unseen specials for T2 and T4. Monsters off: no veil.
    state = _turn_five()
    state = make_state([[S, M, "+3", "-3"], ["-2", "+2", F, R]], turn=5, field=state.field)
    view = GAME.view(state, 0)
    found = set()
    for key in KEYS:
        other = GAME.sample(view, 0, Rng(key))
        assert {other.field[1].card, other.field[3].card} <= {D, E, F, R} - {E}
        found.add(other.field[1].card)
    assert found == {D, F, R}


def test_a_possible_veil_lets_one_face_down_card_be_a_number():
    # As above with monsters on, DOWN holding none, this turn not veiled: T2 or T4 (not both)
    # may hold any card.
    base = _turn_five()
    state = make_state([[S, M, "+3", "-3"], ["-2", "+2", F, R]], turn=5, field=base.field,
                       monsters=True)
    view = GAME.view(state, 0)
    numbers = Counter()
    for key in KEYS:
        other = GAME.sample(view, 0, Rng(key))
        numbers[sum(other.field[i].card not in SPECIALS for i in (1, 3))] += 1
    assert set(numbers) == {0, 1} and numbers[1] > 0
    held = GAME.view(make_state([[S, M, "+3", "-3"], ["-2", "+2", F, R]], turn=5,
                                field=base.field, monsters=True, held=(None, "SPY_EYE")), 0)
    assert all(GAME.sample(held, 0, Rng(key)).field[3].card in SPECIALS for key in KEYS)


def test_the_other_sides_mulligan_answer_is_pending_once_the_seats_side_answered():
    state = make_state([["+1", "+2"], ["-1", D]], phase="mulligan", turn=0,
                       mulligan=(MulliganChoice(0, "+2"), None))
    view = GAME.view(state, 0)
    for key in KEYS[:10]:
        other = GAME.sample(view, 0, Rng(key))
        assert other.mulligan == (MulliganChoice(0, "+2"), None)
        assert other.last_actor == ((0, 1, "mulligan"), None)
        assert GAME.to_act(other) == {1}


def test_while_the_seats_side_is_pending_the_other_sides_answer_is_drawn():
    state = make_state([["+1", "+2"], ["-1", D]], phase="mulligan", turn=0,
                       mulligan=(None, MulliganChoice(1, D)))
    view = GAME.view(state, 0)
    answers = set()
    for key in KEYS:
        other = GAME.sample(view, 0, Rng(key))
        choice = other.mulligan[1]
        assert other.mulligan[0] is None
        if choice is not None:
            assert choice.seat == 1 and (choice.card is None or choice.card in other.hands[1])
            assert other.last_actor[1] == (1, 1, "mulligan")
        answers.add("pending" if choice is None else "kept" if choice.card is None else "sent")
    assert answers == {"pending", "kept", "sent"}


@pytest.mark.parametrize(("queue", "expected"), [(("DOWN", "UP"), ("DOWN", "UP")),
                                                 (("UP",), ("UP",))])
def test_the_shop_queue_follows_the_shopping_order(queue, expected):
    # Position 0, UP goes first: DOWN (the side going second) shops first.
    state = make_state([["+1"], ["-1"]], phase="shop", turn=0, monsters=True,
                       offer=("SPY_EYE", "ROLL_MOLE"), shop_queue=queue, energy=(1, 1))
    other = GAME.sample(GAME.view(state, 1), 1, Rng(b"s"))
    assert other.shop_queue == expected and other.offer == ("SPY_EYE", "ROLL_MOLE")


def test_a_spectators_view_is_refused():
    with pytest.raises(ValueError, match="a seat's own view"):
        GAME.sample(GAME.view(_turn_five(), None), 0, Rng(b"s"))
