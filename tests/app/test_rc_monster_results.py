"""ROLL MOLE and REBORN UNICORN change a set's resolved result (rulings "Monsters" and "LIFO
resolution"), checked on the last turn of a set with the result computed by hand.

The set: UP (seat 0) went first and played the odd turns, DOWN (seat 1) the even ones; the
field T1..T11 is +1 +1 +1 +1 +1 -1 -1 -1 -1 +2 DOUBLE_BUBBLE(face-down); DOWN plays +3 on T12.
"""

from __future__ import annotations

from engine.reverse_curse import GAME
from engine.reverse_curse.cards import REBORN_UNICORN, ROLL_MOLE
from tests.engine.reverse_curse.helpers import make_state

NUMBERS = ["+1"] * 5 + ["-1"] * 4 + ["+2"]
#: (card, seat, face-up) T1 first: seat 0 (UP) plays T1, T3, … T11, seat 1 (DOWN) T2 … T10.
FIELD = [(card, turn % 2, True) for turn, card in enumerate(NUMBERS)] + [
    ("DOUBLE_BUBBLE", 0, False)]
SUMMON = {"type": "summon"}
PLAY = {"type": "play", "card": "+3"}


def last_turn(held: str | None, graveyard: tuple[str, ...] = ()) -> object:
    """DOWN (seat 1) to play T12 holding ``held`` with 2 energy."""
    return make_state([[], ["+3"]], turn=12, field=FIELD, monsters=True, held=(None, held),
                      energy=(0, 2), graveyard=graveyard)


def resolved(state) -> tuple[int, int]:
    """Return (result, position after) of the set the state just resolved."""
    record = state.history[-1]
    return record.result, record.position_after


def test_without_a_monster_the_set_resolves_to_9():
    # LIFO from T12: +3 → 3; DOUBLE → 6; +2 → 8; -1 ×4 → 4; +1 ×5 → 9.
    state, _ = GAME.apply(last_turn(None), 1, PLAY)
    assert resolved(state) == (9, 9)


def test_roll_mole_moves_the_double_to_t1_and_the_result_becomes_12():
    state, _ = GAME.apply(last_turn(ROLL_MOLE), 1, SUMMON)
    assert [f.card for f in state.field] == ["DOUBLE_BUBBLE", *NUMBERS]
    assert state.energy == (0, 0)
    state, _ = GAME.apply(state, 1, PLAY)
    # LIFO from T12: +3 → 3; +2 → 5; -1 ×4 → 1; +1 ×5 → 6; DOUBLE (now T1) → 12.
    assert resolved(state) == (12, 12)


def test_reborn_unicorn_puts_the_graveyard_card_on_top_and_the_result_becomes_3():
    state, _ = GAME.apply(last_turn(REBORN_UNICORN, graveyard=("-3",)), 1, SUMMON)
    assert state.field[-1].card == "-3" and state.field[-1].face_up
    assert state.graveyard == ("DOUBLE_BUBBLE",) and state.energy == (0, 0)
    state, _ = GAME.apply(state, 1, PLAY)
    # LIFO from T12: +3 → 3; -3 (T11) → 0; +2 → 2; -1 ×4 → -2; +1 ×5 → 3.
    assert resolved(state) == (3, 3)
