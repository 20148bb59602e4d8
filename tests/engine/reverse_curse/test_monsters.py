"""Energy, the shop and the six monsters (rulings "Match flow" 5-6, "Monsters"), 1v1."""

from dataclasses import replace

import pytest

from engine.core import IllegalAction
from engine.reverse_curse import GAME
from engine.reverse_curse.cards import MONSTERS
from engine.reverse_curse.monsters import summon_block
from engine.reverse_curse.state import MulliganChoice

from .helpers import make_state, new_match, play

D, E, F, M, S, C = ("DOUBLE_BUBBLE", "ECHO_FLOW", "FLIP_TRAP", "MIRROR_PILLAR", "SILENCE_SIREN",
                    "REVERSE_CURSE")
VEIL, SWITCH, SPY, SHARE, MOLE, UNICORN = MONSTERS
SUMMON = {"type": "summon"}


def _turn(hands, held, energy=(3, 3), **kw):
    """A deployment state, monsters on, UP (seat 0) first."""
    return make_state(hands, monsters=True, held=held, energy=energy, **kw)


def _summon(state, seat=0):
    return GAME.apply(state, seat, SUMMON)


def _error(state, seat, action):
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    return info.value.code


# --------------------------------------------------------------------------- energy

def test_energy_starts_at_one_in_set_one():
    state = new_match(b"energy")
    assert state.energy == (1, 1) and state.held == (None, None)
    assert GAME.view(state, None)["energy"] == {"UP": 1, "DOWN": 1}


def test_energy_gains_one_per_set_capped_at_three_and_carries_over():
    field = [(c, i % 2, True) for i, c in enumerate(["+1", "-1"] * 5 + ["+1"])]
    state = make_state([[], ["-1"]], turn=12, field=field, monsters=True, energy=(3, 1),
                       deck=())
    state = play(state, 1, "-1")
    assert state.set_no == 2 and state.energy == (3, 2)


def test_monsters_off_has_no_energy_and_no_shop():
    state = make_state([["+1"], ["-1"]], phase="mulligan", turn=0)
    state, _ = GAME.apply(state, 0, {"type": "mulligan", "card": None})
    state, _ = GAME.apply(state, 1, {"type": "mulligan", "card": None})
    assert state.phase == "deployment" and state.energy == (0, 0)


# --------------------------------------------------------------------------- shop

def _after_mulligan(position=0, first_side="UP", held=(None, None), energy=(1, 1)):
    state = make_state([["+1"] * 2, ["-1"] * 2], phase="mulligan", turn=0, monsters=True,
                       position=position, first_side=first_side, held=held, energy=energy,
                       mulligan=(MulliganChoice(0, None), None))
    return GAME.apply(state, 1, {"type": "mulligan", "card": None})


@pytest.mark.parametrize("position, first_side, shopper", [
    (0, "UP", "DOWN"), (0, "DOWN", "UP"), (3, "DOWN", "DOWN"), (3, "UP", "DOWN"),
    (-3, "UP", "UP"), (-3, "DOWN", "UP")])
def test_shop_order_behind_first_or_second_player_at_zero(position, first_side, shopper):
    state, _ = _after_mulligan(position, first_side)
    assert state.phase == "shop" and state.turn == 0
    seat = 0 if shopper == "UP" else 1
    assert GAME.to_act(state) == {seat}
    assert GAME.view(state, 1 - seat)["side_to_act"] == shopper
    state, _ = GAME.apply(state, seat, {"type": "pass"})
    assert GAME.to_act(state) == {1 - seat}


def test_offer_is_four_monsters_held_by_no_one_seen_by_everyone():
    state, events = _after_mulligan()
    assert len(state.offer) == 4 and len(set(state.offer)) == 4
    held, _ = _after_mulligan(held=(SPY, MOLE))
    assert sorted(held.offer) == sorted([VEIL, SWITCH, SHARE, UNICORN])
    views = [GAME.view(held, v)["shop"] for v in (0, 1, None)]
    assert views[0] == views[1] == views[2] == {"offer": list(held.offer), "side": "DOWN"}
    assert [e.data for e in events if e.kind == "shop_opened"] == [
        {"offer": list(state.offer), "side": "DOWN"}]


def test_recruit_pays_one_energy_and_the_taken_monster_leaves_the_offer():
    state, _ = _after_mulligan(held=(SPY, MOLE))
    assert GAME.legal_actions(state, 1) == [
        {"type": "recruit", "monster": m} for m in state.offer] + [{"type": "pass"}]
    state, events = GAME.apply(state, 1, {"type": "recruit", "monster": VEIL})
    assert state.held == (SPY, VEIL) and state.energy == (1, 0)
    assert events[0].data == {"side": "DOWN", "seat": 1, "monster": VEIL}
    assert {"type": "recruit", "monster": VEIL} not in GAME.legal_actions(state, 0)
    assert len(GAME.legal_actions(state, 0)) == 4  # three recruits and pass
    # UP replaces SPY_EYE; deployment starts.
    state, _ = GAME.apply(state, 0, {"type": "recruit", "monster": SWITCH})
    assert state.held == (SWITCH, VEIL) and state.energy == (0, 0)
    assert state.phase == "deployment" and state.turn == 1 and state.offer == ()


def test_replaced_monster_returns_to_the_pool():
    state, _ = _after_mulligan(held=(SPY, MOLE))
    state, _ = GAME.apply(state, 1, {"type": "recruit", "monster": VEIL})  # MOLE back to pool
    state, _ = GAME.apply(state, 0, {"type": "pass"})
    again = replace(state, phase="mulligan", turn=0, set_no=2,
                    mulligan=(MulliganChoice(0, None), None))
    again, _ = GAME.apply(again, 1, {"type": "mulligan", "card": None})
    assert sorted(again.offer) == sorted([SWITCH, SHARE, MOLE, UNICORN])


def test_shop_errors_timeout_and_clock():
    state, _ = _after_mulligan(energy=(0, 0))
    assert GAME.legal_actions(state, 1) == [{"type": "pass"}]
    assert _error(state, 1, {"type": "recruit", "monster": state.offer[0]}) == (
        "not_enough_energy")
    full, _ = _after_mulligan(held=(SPY, MOLE))
    assert _error(full, 1, {"type": "recruit", "monster": SPY}) == "not_offered"
    assert _error(full, 0, {"type": "pass"}) == "not_your_turn"
    assert GAME.deadline_action(full, 1) == {"type": "pass"}
    assert GAME.clock_seconds(full, 1) == 20


# --------------------------------------------------------------------------- summoning

def test_summon_is_listed_first_pays_and_returns_the_monster():
    state = _turn([["+1", "+2"], ["-1"]], held=(SPY, None), energy=(2, 0),
                  field=[(D, 1, False)], turn=2, first_side="DOWN")
    assert GAME.legal_actions(state, 0) == [SUMMON, {"type": "play", "card": "+1"},
                                            {"type": "play", "card": "+2"}]
    after, events = _summon(state)
    assert after.energy == (1, 0) and after.held == (None, None)
    assert after.turn == 2 and GAME.to_act(after) == {0}
    assert GAME.legal_actions(after, 0) == [{"type": "play", "card": "+1"},
                                            {"type": "play", "card": "+2"}]
    assert events[0].data == {"side": "UP", "seat": 0, "monster": SPY}


def test_summon_errors():
    none = _turn([["+1"], ["-1"]], held=(None, None))
    assert _error(none, 0, SUMMON) == "no_monster"
    poor = _turn([["+1"], ["-1"]], held=(MOLE, None), energy=(1, 3), turn=3,
                 field=[("+1", 0, True), ("-1", 1, True)])
    assert SUMMON not in GAME.legal_actions(poor, 0)
    assert _error(poor, 0, SUMMON) == "not_enough_energy"
    assert _error(_turn([["+1"], ["-1"]], held=(None, VEIL)), 1, SUMMON) == "not_your_turn"


def test_veil_snail_turns_the_next_card_face_down_for_that_turn_only():
    state = _turn([["+2", "+1"], ["-1", "-2"]], held=(VEIL, None), energy=(0, 0))
    state, _ = _summon(state)
    assert state.energy == (0, 0) and state.veiled
    state, events = GAME.apply(state, 0, {"type": "play", "card": "+2"})
    assert state.field[0].face_up is False and not state.veiled
    assert events[0].data["card"] is None
    assert GAME.view(state, 0)["field"][0]["card"] == "+2"
    assert GAME.view(state, 1)["field"][0]["card"] is None
    assert GAME.view(state, None)["field"][0]["card"] is None
    state = play(state, 1, "-1")
    assert state.field[1].face_up is True


def test_switch_witch_discards_a_hand_card_face_up_and_draws_from_the_deck():
    state = _turn([["+3"], ["-1"]], held=(SWITCH, None), deck=["-2"], energy=(0, 0))
    state, events = _summon(state)
    assert state.hands == (("-2",), ("-1",)) and state.graveyard == ("+3",)
    assert state.deck == ()
    drawn = [e for e in events if e.kind == "card_drawn"][0]
    assert drawn.data == {"seat": 0, "card": "-2"} and drawn.visible_to == frozenset({0})
    assert [e.data for e in events if e.kind == "monster_effect"] == [
        {"monster": SWITCH, "discarded": "+3"}]


def test_switch_witch_keeps_the_card_counts():
    state = _turn([["+3", "+1", D, M], ["-1"] * 4], held=(SWITCH, None),
                  deck=["-2", "+2", E, C])
    after, _ = _summon(state)
    assert len(after.hands[0]) == 4 and len(after.deck) == 3 and len(after.graveyard) == 1
    assert sorted(after.hands[0] + after.deck + after.graveyard) == sorted(
        state.hands[0] + state.deck)


def test_switch_witch_not_allowed_with_an_empty_deck_or_hand():
    state = _turn([["+3"], ["-1"]], held=(SWITCH, None), deck=[])
    assert SUMMON not in GAME.legal_actions(state, 0)
    assert _error(state, 0, SUMMON) == "summon_not_allowed"
    empty_hand = _turn([[], ["-1"]], held=(SWITCH, None), deck=["+1"])
    assert summon_block(empty_hand, 0) == "summon_not_allowed"


def test_spy_eye_reveals_a_face_down_top_card_even_a_veiled_number():
    for top in [(M, 1, False), ("-3", 1, False)]:
        state = _turn([["+1"], ["-1"]], held=(SPY, None), energy=(1, 0), turn=2,
                      field=[top], first_side="DOWN")
        after, events = _summon(state)
        assert after.field[0].face_up is True and after.energy == (0, 0)
        assert GAME.view(after, 0)["field"][0]["card"] == top[0]
        assert GAME.view(after, None)["field"][0]["card"] == top[0]
        assert events[-1].data == {"monster": SPY, "turn": 1, "card": top[0]}


def test_spy_eye_not_allowed_on_an_empty_field_or_a_face_up_top():
    assert SUMMON not in GAME.legal_actions(_turn([["+1"], ["-1"]], held=(SPY, None)), 0)
    face_up = _turn([["+1"], ["-1"]], held=(SPY, None), turn=3,
                    field=[(M, 0, False), ("-1", 1, True)])
    assert _error(face_up, 0, SUMMON) == "summon_not_allowed"


def test_share_bear_swaps_one_card_of_each_side():
    state = _turn([["+3"], ["-3"]], held=(SHARE, None), energy=(1, 0), deck=())
    after, events = _summon(state)
    assert after.hands == (("-3",), ("+3",)) and after.energy == (0, 0)
    swaps = {e.visible_to: e.data for e in events if e.kind == "cards_swapped"}
    assert swaps == {frozenset({0}): {"gave": "+3", "received": "-3", "seat": 0},
                     frozenset({1}): {"gave": "-3", "received": "+3", "seat": 1}}


def test_share_bear_keeps_hand_sizes():
    state = _turn([["+3", "+1", D], ["-3", "-1", F]], held=(SHARE, None), deck=())
    after, _ = _summon(state)
    assert [len(h) for h in after.hands] == [3, 3]
    assert sorted(after.hands[0] + after.hands[1]) == sorted(state.hands[0] + state.hands[1])
    assert len(set(after.hands[0]) - set(state.hands[0])) == 1


def test_share_bear_not_allowed_on_turn_12():
    field = [("+1", i % 2, True) for i in range(11)]
    state = _turn([[], ["-1"]], held=(None, SHARE), turn=12, field=field, deck=())
    assert GAME.legal_actions(state, 1) == [{"type": "play", "card": "-1"}]
    assert _error(state, 1, SUMMON) == "summon_not_allowed"


def test_roll_mole_moves_the_top_card_to_the_bottom():
    field = [("+1", 0, True), ("-2", 1, True), (M, 0, False), (C, 1, False)]
    state = _turn([["+3"], ["-1"]], held=(MOLE, None), energy=(2, 0), turn=5, field=field)
    after, _ = _summon(state)
    assert [f.card for f in after.field] == [C, "+1", "-2", M] and after.energy == (0, 0)
    view = GAME.view(after, 0)["field"]
    assert [(v["turn"], v["card"], v["side"]) for v in view] == [
        (1, None, "DOWN"), (2, "+1", "UP"), (3, "-2", "DOWN"), (4, M, "UP")]


def test_roll_mole_not_allowed_on_turn_1():
    state = _turn([["+3"], ["-1"]], held=(MOLE, None), turn=1)
    assert _error(state, 0, SUMMON) == "summon_not_allowed"


def test_reborn_unicorn_brings_a_graveyard_card_onto_the_top():
    field = [("+1", 0, True), (E, 1, False)]
    state = _turn([["+3"], ["-1"]], held=(UNICORN, None), energy=(3, 0), turn=3, field=field,
                  graveyard=["-3"])
    after, events = _summon(state)
    assert [(f.card, f.seat, f.side, f.face_up) for f in after.field] == [
        ("+1", 0, "UP", True), ("-3", 0, "UP", True)]
    assert after.graveyard == (E,) and after.energy == (1, 0)
    assert events[-1].data == {"monster": UNICORN, "revived": "-3", "replaced": E}


def test_reborn_unicorn_not_allowed_without_graveyard_or_field():
    no_grave = _turn([["+3"], ["-1"]], held=(UNICORN, None), turn=3,
                     field=[("+1", 0, True), ("-1", 1, True)])
    assert _error(no_grave, 0, SUMMON) == "summon_not_allowed"
    no_field = _turn([["+3"], ["-1"]], held=(UNICORN, None), graveyard=["-3"])
    assert _error(no_field, 0, SUMMON) == "summon_not_allowed"
