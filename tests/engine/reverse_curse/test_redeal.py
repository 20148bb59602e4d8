"""``GAME.redeal``: what each viewer may not see is re-dealt, the rest is kept (rulings "Hidden
information"). The generic invariance test is tests/engine/test_leak_contract.py."""

from collections import Counter

from engine.core import Rng
from engine.reverse_curse import GAME
from engine.reverse_curse.cards import DECK, SPECIALS
from engine.reverse_curse.state import FieldCard, MulliganChoice

from .helpers import all_cards, make_state, new_match

D, E, S = "DOUBLE_BUBBLE", "ECHO_FLOW", "SILENCE_SIREN"
SEEDS = [bytes([n]) for n in range(40)]


def _deployment():
    """Turn 4 (DOWN to play): T1 UP's ECHO_FLOW face-down, T2 DOWN's DOUBLE_BUBBLE face-down,
    T3 DOWN's -1 face-down (a veiled number); 3 cards in each hand, +1 in the graveyard and
    the 24 - 6 - 3 - 1 = 14 other cards in the deck."""
    field = [FieldCard(E, 0, "UP", False), FieldCard(D, 1, "DOWN", False),
             FieldCard("-1", 1, "DOWN", False)]
    return make_state([["+1", "+2", "+3"], ["-2", "-3", S]], turn=4, field=field,
                      graveyard=["+1"])


def test_the_viewers_own_cards_and_public_cards_are_kept():
    state = _deployment()
    for seed in SEEDS:
        other = GAME.redeal(state, 0, Rng(seed))
        assert other.hands[0] == ("+1", "+2", "+3")
        assert other.field[0] == FieldCard(E, 0, "UP", False)
        assert other.graveyard == ("+1",)
        assert len(other.hands[1]) == 3 and len(other.deck) == 14
        assert all_cards(other) == Counter(DECK)


def test_a_face_down_special_is_replaced_by_a_special_and_a_veiled_number_by_any_card():
    state = _deployment()
    specials, veiled = set(), set()
    for seed in SEEDS:
        other = GAME.redeal(state, 0, Rng(seed))
        assert [(f.seat, f.side, f.face_up) for f in other.field] == [
            (0, "UP", False), (1, "DOWN", False), (1, "DOWN", False)]
        specials.add(other.field[1].card)
        veiled.add(other.field[2].card)
    # Hidden from seat 0: DOWN's hand (3), the deck (14) and T2, T3. The specials among them:
    # every special but ECHO_FLOW (UP's own T1): 5.
    assert specials <= set(SPECIALS) - {E} and len(specials) >= 3
    assert any(card not in SPECIALS for card in veiled)


def test_the_player_of_a_face_down_card_keeps_it():
    state = _deployment()
    for seed in SEEDS[:10]:
        other = GAME.redeal(state, 1, Rng(seed))
        assert other.field[1:] == state.field[1:] and other.hands[1] == state.hands[1]
        assert other.field[0].card in set(SPECIALS) - {D, S}


def test_teammates_see_each_other_so_only_the_other_side_is_redealt():
    state = new_match(b"teams", format="2v2")
    sides = {s: GAME.view(state, 0)["my_side"] == GAME.view(state, s)["my_side"]
             for s in range(4)}
    mates = [s for s in range(4) if sides[s]]
    changed = set()
    for seed in SEEDS[:10]:
        other = GAME.redeal(state, 0, Rng(seed))
        for seat in mates:
            assert other.hands[seat] == state.hands[seat]
        changed |= {s for s in range(4) if other.hands[s] != state.hands[s]}
    assert changed == set(range(4)) - set(mates)


def test_the_other_sides_mulligan_answer_is_rechosen_from_its_new_hand():
    state = make_state([["+1", "+2"], ["-1", D]], phase="mulligan", turn=0,
                       mulligan=(None, MulliganChoice(1, D)))
    answers = set()
    for seed in SEEDS:
        other = GAME.redeal(state, 0, Rng(seed))
        choice = other.mulligan[1]
        assert choice.seat == 1 and (choice.card is None or choice.card in other.hands[1])
        assert other.mulligan[0] is None and other.last_actor[1] == (1, 1, "mulligan")
        answers.add(choice.card is None)
        assert GAME.view(other, 0) == GAME.view(state, 0)
    assert answers == {True, False}
    assert GAME.redeal(state, 1, Rng(b"x")).mulligan == state.mulligan


def test_a_spectator_gets_every_hand_redealt_and_the_input_is_unchanged():
    state = new_match(b"spectator")
    before = GAME.dump(state)
    others = [GAME.redeal(state, None, Rng(seed)) for seed in SEEDS[:10]]
    assert GAME.dump(state) == before
    assert any(o.hands[0] != state.hands[0] for o in others)
    assert any(o.hands[1] != state.hands[1] for o in others)
    assert all(GAME.view(o, None) == GAME.view(state, None) for o in others)
