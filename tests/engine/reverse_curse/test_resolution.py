"""LIFO resolution (rulings "LIFO resolution"): public examples and every special case.

All expected totals are worked by hand, processing from the top card (last played) down to T1.
"""

import pytest

from engine.reverse_curse import resolve, resolve_stack

M, E, C, S, D, F = ("MIRROR_PILLAR", "ECHO_FLOW", "REVERSE_CURSE", "SILENCE_SIREN",
                    "DOUBLE_BUBBLE", "FLIP_TRAP")


@pytest.mark.parametrize("cards, expected", [
    (["+1", M, E], 4),
    (["+3", M, C], 3),
    (["+2", M, D, S], 2),
    (["+1", "+1", M], 2),
    (["+2", M, M, S], 0),
])
def test_public_examples(cards, expected):
    assert resolve_stack(cards) == expected


def test_empty_field_is_zero():
    assert resolve_stack([]) == 0
    assert resolve([]) == (0, ())


def test_numbers_add_and_double_flip_act_on_the_running_total():
    # +3 -> 3; DOUBLE -> 6; -1 -> 5
    assert resolve_stack(["-1", D, "+3"]) == 5
    # +3 -> 3; FLIP -> -3; +2 -> -1
    assert resolve_stack(["+2", F, "+3"]) == -1


def test_mirror_on_top_copies_nothing():
    total, steps = resolve(["+2", M])
    assert total == 2
    assert steps[0].to_json() == {"index": 2, "card": M, "identity": None, "silenced": False,
                                  "effect": "nothing", "total": 0}


def test_mirror_after_mirror_copies_the_same_card_again():
    # +3 -> 3; M(+3) -> 6; M(+3) -> 9; +1 -> 10
    assert resolve_stack(["+1", M, M, "+3"]) == 10


def test_siren_then_special_then_mirror_acts_as_that_special():
    # +3 -> 3; SIREN; FLIP silenced; MIRROR acts as FLIP -> -3; -2 -> -5
    total, steps = resolve(["-2", M, F, S, "+3"])
    assert total == -5
    assert [(s.index, s.identity, s.silenced, s.total) for s in steps] == [
        (5, "+3", False, 3), (4, S, False, 3), (3, F, True, 3), (2, F, False, -3),
        (1, "-2", False, -5)]


def test_silenced_mirror_still_takes_its_identity():
    # +3 -> 3; SIREN; MIRROR silenced but becomes SIREN; next MIRROR is SIREN and silences -1
    total, steps = resolve(["-1", M, M, S, "+3"])
    assert total == 3
    assert steps[2].to_json() == {"index": 3, "card": M, "identity": S, "silenced": True,
                                  "effect": "silenced", "total": 3}
    assert steps[4].silenced is True


def test_silenced_card_still_becomes_previous():
    # SIREN; +2 silenced (previous = +2); M(+2) -> 2; M(+2) -> 4; +1 -> 5
    assert resolve_stack(["+1", M, M, "+2", S]) == 5


def test_silenced_siren_silences_nothing():
    # SIREN; SIREN silenced; +2 -> 2
    assert resolve_stack(["+2", S, S]) == 2


def test_echo_then_mirror_quadruples_numbers():
    # ECHO x2; MIRROR as ECHO x4; +3 -> 12
    assert resolve_stack(["+3", M, E]) == 12
    # ECHO then numbers double: -2 -> -4; +1 -> -2
    total, steps = resolve(["+1", "-2", E])
    assert total == -2
    assert [s.effect for s in steps] == ["echo", "-4", "+2"]


def test_mirror_copying_a_number_uses_modifiers_in_force_at_the_mirror():
    # ECHO x2; -2 -> -4; MIRROR as -2 at x2 -> -8; +1 at x2 -> -6
    assert resolve_stack(["+1", M, "-2", E]) == -6


def test_curse_flips_later_numbers_and_curse_then_mirror_cancels_out():
    assert resolve_stack(["+2", C]) == -2
    assert resolve_stack(["+2", M, C]) == 2
    # CURSE and ECHO together: -1 x2 x-1 = +2; +3 x2 x-1 = -6 -> -4
    assert resolve_stack(["+3", "-1", E, C]) == -4


@pytest.mark.parametrize("bottom, expected", [(C, 3), (E, 3), (S, 3)])
def test_curse_echo_siren_on_t1_do_nothing(bottom, expected):
    assert resolve_stack([bottom, "+3"]) == expected


def test_double_and_flip_on_zero_stay_zero():
    assert resolve_stack(["+2", D]) == 2
    assert resolve_stack(["-3", F]) == -3
    # +1 -> 1; -1 -> 0; DOUBLE -> 0; +2 -> 2
    total, steps = resolve(["+2", D, "-1", "+1"])
    assert total == 2 and steps[2].total == 0 and steps[2].effect == "x2"


def test_full_trace_of_a_public_example():
    total, steps = resolve(["+1", M, E])
    assert total == 4
    assert [s.to_json() for s in steps] == [
        {"index": 3, "card": E, "identity": E, "silenced": False, "effect": "echo", "total": 0},
        {"index": 2, "card": M, "identity": E, "silenced": False, "effect": "echo", "total": 0},
        {"index": 1, "card": "+1", "identity": "+1", "silenced": False, "effect": "+4",
         "total": 4},
    ]


def test_counts_beyond_the_deck_and_twelve_cards_are_accepted():
    assert resolve_stack(["+3"] * 12) == 36
    # seven MIRRORs on top copy "nothing" in turn; then +3 +3
    assert resolve_stack(["+3", "+3"] + [M] * 7) == 6


@pytest.mark.parametrize("cards", [["+4"], ["mirror_pillar"], ["+1", None], ["+1"] * 13])
def test_value_error_for_unknown_code_or_too_many_cards(cards):
    with pytest.raises(ValueError):
        resolve_stack(cards)


def test_trace_gives_the_steps_as_tuples_and_steps_json_as_step_to_json():
    from engine.reverse_curse.resolution import steps_json, trace
    cards = ["-2", M, F, S, "+3"]
    total, raw = trace(cards)
    assert total == -5
    assert raw[3] == (2, M, F, False, "x-1", -3)
    assert tuple(tuple(vars(s).values()) for s in resolve(cards)[1]) == raw
    assert steps_json(raw) == [s.to_json() for s in resolve(cards)[1]]
    assert steps_json(raw) is not steps_json(raw)  # new dicts every call


def test_trace_errors_are_raised_again_not_cached():
    from engine.reverse_curse.resolution import trace
    for _ in range(2):
        with pytest.raises(ValueError):
            trace(["+1", "+4"])
