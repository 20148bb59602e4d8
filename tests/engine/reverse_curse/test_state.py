"""``evolve``/``evolved`` and ``derived`` (fast state copies and per-state memos)."""

from dataclasses import replace

import pytest

from engine.reverse_curse.state import derived, evolve, evolved, seats_for

from .helpers import make_state


def _state():
    return make_state([["+1", "-2"], ["-1", "+3"]], turn=3, position=2)


def test_evolve_equals_replace_and_leaves_the_input_unchanged():
    state = _state()
    new = evolve(state, turn=4, position=-1)
    assert new == replace(state, turn=4, position=-1)
    assert (state.turn, state.position) == (3, 2)
    assert evolved(state, {"turn": 4, "position": -1}) == new


def test_evolve_refuses_an_unknown_field_like_replace():
    with pytest.raises(TypeError, match="'colour'"):
        evolve(_state(), colour="red")
    with pytest.raises(TypeError, match="'colour'"):
        evolved(_state(), {"turn": 2, "colour": "red"})


def test_derived_values_are_computed_once_and_never_carried_to_an_evolved_state():
    calls = []

    def build(state, seat):
        calls.append(seat)
        return state.turn * 10 + seat

    state = _state()
    assert [derived(state, build, 1), derived(state, build, 1), derived(state, build, 0)] == [
        31, 31, 30]
    assert calls == [1, 0]
    new = evolve(state, turn=5)
    assert derived(new, build, 1) == 51 and calls == [1, 0, 1]
    assert new == replace(state, turn=5)  # the memo is not a field: equality unchanged


def test_seats_for_alternates_sides_by_parity():
    assert seats_for("3v3", 0, "UP") == (0, 2, 4)
    assert seats_for("3v3", 1, "UP") == (1, 3, 5)
    assert seats_for("1v1", 1, "DOWN") == (0,)
    with pytest.raises(KeyError):
        seats_for("4v4", 0, "UP")
