"""Unit tests for engine.core: option validation, Rng determinism and uniformity, errors."""

import pytest

from engine.core import (IllegalAction, InvalidAction, OptionSpec, Outcome, Rng, require_keys,
                         validate_options)

OPTS = (
    OptionSpec("regulation", "choice", "full", choices=("full", "half")),
    OptionSpec("turn_seconds", "int", 30, minimum=10, maximum=120),
    OptionSpec("monsters", "bool", False),
)


def test_validate_options_fills_defaults_and_checks_values():
    assert validate_options(OPTS, None) == {"regulation": "full", "turn_seconds": 30,
                                            "monsters": False}
    assert validate_options(OPTS, {"turn_seconds": 10})["turn_seconds"] == 10
    for bad in ({"turn_seconds": 9}, {"turn_seconds": True}, {"regulation": "quarter"},
                {"monsters": 1}, {"extra": 1}):
        with pytest.raises(ValueError):
            validate_options(OPTS, bad)


def test_rng_is_deterministic_and_label_sensitive():
    a = Rng.derive(b"seed", "deal", 1).shuffled(range(24))
    b = Rng.derive(b"seed", "deal", 1).shuffled(range(24))
    c = Rng.derive(b"seed", "deal", 2).shuffled(range(24))
    assert a == b and sorted(a) == list(range(24)) and a != c


def test_rng_randbelow_is_roughly_uniform():
    rng = Rng(b"uniform")
    counts = [0] * 3
    for _ in range(3000):
        counts[rng.randbelow(3)] += 1
    assert all(900 < c < 1100 for c in counts)
    with pytest.raises(ValueError):
        rng.randbelow(0)


def test_errors_are_value_errors_with_codes():
    err = IllegalAction("not_your_turn", "It is not your turn.")
    assert isinstance(err, ValueError) and err.code == "not_your_turn"
    with pytest.raises(InvalidAction) as info:
        require_keys({"type": "play", "card": 3}, {"card": str})
    assert info.value.code == "malformed_action"
    with pytest.raises(InvalidAction):
        require_keys({"type": "play", "card": "+1", "x": 1}, {"card": str})
    require_keys({"type": "play", "card": "+1"}, {"card": str})


def test_outcome_winners_and_draw():
    assert Outcome((1, 2), "ko").winners == frozenset({0})
    assert Outcome((1, 1), "draw").draw
    assert Outcome.from_json(Outcome((2, 1), "decision", {"position": -3}).to_json()) == \
        Outcome((2, 1), "decision", {"position": -3})
