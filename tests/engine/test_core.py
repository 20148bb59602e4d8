"""Unit tests for engine.core: option validation, Rng determinism and uniformity, errors."""

from dataclasses import FrozenInstanceError, replace

import pytest

from engine.core import (
    Event,
    GameBase,
    GameSpec,
    IllegalAction,
    InvalidAction,
    OptionSpec,
    Outcome,
    Rng,
    action_type,
    check_action,
    require_keys,
    validate_options,
)

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


def test_validate_options_refuses_options_that_are_not_an_object():
    specs = (OptionSpec("hands", "int", 8, minimum=1, maximum=16),)
    for bad in ([("hands", 3)], "ab", 3, ["hands"]):
        with pytest.raises(ValueError) as err:
            validate_options(specs, bad)
        assert str(err.value) == "Options must be a JSON object."
    assert validate_options(specs, None) == {"hands": 8}
    assert validate_options(specs, {}) == {"hands": 8}
    with pytest.raises(ValueError, match="Option names must be strings."):
        validate_options(specs, {1: 3})


def test_an_option_of_one_rule_set_names_it_in_the_catalog():
    rounds = OptionSpec("rounds", "int", 1, minimum=1, maximum=4, label="Rounds",
                        when=("rules", "mcr"))
    assert rounds.to_json() == {"name": "rounds", "kind": "int", "default": 1, "label": "Rounds",
                                "minimum": 1, "maximum": 4, "when": {"rules": "mcr"}}
    assert OPTS[0].to_json() == {"name": "regulation", "kind": "choice", "default": "full",
                                 "label": "regulation", "choices": ["full", "half"]}
    # Stored with its default whatever the rules; given, only with its own rules.
    rules = OptionSpec("rules", "choice", "hebei", choices=("hebei", "mcr"))
    assert validate_options((rules, rounds), {"rules": "hebei"}) == {"rules": "hebei", "rounds": 1}
    assert validate_options((rules, rounds), {"rules": "mcr", "rounds": 3}) == {
        "rules": "mcr", "rounds": 3}
    with pytest.raises(ValueError) as err:
        validate_options((rules, rounds), {"rules": "hebei", "rounds": 3})
    assert str(err.value) == "Option 'rounds' applies only with rules 'mcr'."
    with pytest.raises(ValueError) as err:
        validate_options((rules, rounds), {"rounds": 2})  # the default rules: hebei
    assert str(err.value) == "Option 'rounds' applies only with rules 'mcr'."
    # its default passes: a stored option dict (every option) is validated again
    assert validate_options((rules, rounds), {"rules": "hebei", "rounds": 1}) == {
        "rules": "hebei", "rounds": 1}


def test_rng_is_deterministic_and_label_sensitive():
    a = Rng.derive(b"seed", "deal", 1).shuffled(range(24))
    b = Rng.derive(b"seed", "deal", 1).shuffled(range(24))
    c = Rng.derive(b"seed", "deal", 2).shuffled(range(24))
    assert a == b and sorted(a) == list(range(24)) and a != c


def test_rng_shuffled_is_the_fisher_yates_of_randbelow():
    # Golden values of the stream (replays of stored matches depend on them): a shuffle, a
    # draw after it, and a shuffle of more than 256 items (two-byte draws).
    rng = Rng(b"golden")
    assert rng.shuffled(range(12)) == [3, 1, 5, 11, 10, 2, 6, 0, 8, 7, 9, 4]
    assert rng.randbelow(1000) == 906
    assert rng.shuffled("abcdef") == ["f", "d", "c", "a", "b", "e"]
    wide = Rng(b"wide").shuffled(range(300))
    assert wide[:8] == [177, 60, 22, 100, 291, 42, 12, 3] and wide[-4:] == [161, 255, 26, 153]
    for n in (0, 1, 2, 80, 256, 257, 700):
        a, b = Rng.derive(b"seed", "same", n), Rng.derive(b"seed", "same", n)
        expected = list(range(n))
        for i in range(n - 1, 0, -1):
            j = b.randbelow(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert a.shuffled(range(n)) == expected
        assert a.randbelow(10 ** 6) == b.randbelow(10 ** 6)    # the same bytes were used


def test_event_fields_and_defaults():
    event = Event("drawn", {"seat": 1}, frozenset({1}))
    assert (event.kind, event.data, event.visible_to) == ("drawn", {"seat": 1}, frozenset({1}))
    bare = Event("passed")
    assert bare.data == {} and bare.visible_to is None and bare.data is not Event("passed").data
    assert Event(kind="x", data=None).data is None
    assert Event("a", {"k": 1}) == Event("a", {"k": 1}) != Event("a", {"k": 2})
    assert replace(event, kind="shown") == Event("shown", {"seat": 1}, frozenset({1}))
    with pytest.raises(FrozenInstanceError):
        event.kind = "other"


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


SHAPES = {"play": {"card": str}, "pass": {}}


def test_check_action_returns_the_type_of_a_well_formed_action():
    assert check_action({"type": "play", "card": "+1"}, SHAPES) == "play"
    assert check_action({"type": "pass"}, SHAPES) == "pass"
    assert action_type({"type": "play", "card": 3}, SHAPES) == "play"  # fields not checked


@pytest.mark.parametrize("action, code", [
    ("pass", "malformed_action"),                       # not an object
    ({"card": "+1"}, "malformed_action"),               # no type
    ({"type": 1}, "malformed_action"),                  # type not a string
    ({"type": "draw"}, "unknown_action"),               # a type the game does not have
    ({"type": "play"}, "malformed_action"),             # missing field
    ({"type": "pass", "card": "+1"}, "malformed_action"),  # extra field
    ({"type": "play", "card": 1}, "malformed_action"),  # mistyped field
])
def test_check_action_refuses_a_bad_shape_with_its_code(action, code):
    with pytest.raises(InvalidAction) as info:
        check_action(action, SHAPES)
    assert info.value.code == code


def _spec(low: int, high: int) -> GameSpec:
    return GameSpec("toy", {"en": "Toy"}, low, high, False, 10, OPTS)


class _Toy(GameBase):
    spec = _spec(3, 3)


def test_game_base_checks_options_and_gives_the_fixed_seat_count():
    toy = _Toy()
    assert toy.validate_options({"monsters": True}) == {"regulation": "full",
                                                        "turn_seconds": 30, "monsters": True}
    with pytest.raises(ValueError):
        toy.validate_options({"turn_seconds": 121})
    assert toy.seats({}) == 3
    with pytest.raises(ValueError, match="Options must be a JSON object."):
        toy.validate_options([("turn_seconds", 30)])
    toy.spec = _spec(2, 4)
    with pytest.raises(NotImplementedError):
        toy.seats({})


def test_game_base_timeout_is_played_by_the_seat_whose_clock_ran_out():
    assert _Toy().deadline_seat(object(), 2) == 2


class _Counter(GameBase):
    """A one-counter game for the hook defaults: ``legal_actions`` lists ``inc`` until 2."""

    spec = _spec(3, 3)

    def legal_actions(self, state, seat):
        return [{"type": "inc"}] if state < 2 else []


def test_game_base_hook_defaults():
    game = _Counter()
    assert game.sides({}, 3) == ((0,), (1,), (2,))
    assert game.to_act_is_public(0) is True
    assert game.listed_actions(1, 0) == [{"type": "inc"}] and game.listed_actions(2, 0) == []
    assert game.redeal(1, 0, Rng(b"r")) == 1  # no hidden information: the state itself
    with pytest.raises(NotImplementedError, match="toy must implement sample"):
        game.sample({}, 0, Rng(b"s"))
