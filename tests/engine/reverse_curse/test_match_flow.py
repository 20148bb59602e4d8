"""Match flow (rulings "Match flow" 1-8) on seeded and constructed 1v1 states, monsters off."""

from dataclasses import replace

import pytest

from engine.core import IllegalAction, InvalidAction, Rng
from engine.reverse_curse import GAME, ladder, resolved_count
from engine.reverse_curse.cards import DECK
from engine.reverse_curse.state import MulliganChoice, side_of

from .helpers import make_state, new_match, play

D, E, F, M, S, C = ("DOUBLE_BUBBLE", "ECHO_FLOW", "FLIP_TRAP", "MIRROR_PILLAR", "SILENCE_SIREN",
                    "REVERSE_CURSE")


def _alternating(cards, first_seat=0):
    """Field entries T1 first, seats alternating from ``first_seat``; numbers face-up."""
    return [(card, (first_seat + i) % 2, card[0] in "+-") for i, card in enumerate(cards)]


def _last_turn(eleventh, last, position, set_no=1, regulation="full", first_side="UP"):
    """Turn 12 of a set: T1-T10 cancel out, T11 is ``eleventh``; the second side holds ``last``.

    With numbers only the result is ``eleventh + last``.
    """
    first_seat = 0 if first_side == "UP" else 1
    field = _alternating(["+1", "-1"] * 5 + [eleventh], first_seat)
    hands = [[], []]
    hands[1 - first_seat] = [last]
    return make_state(hands, turn=12, field=field, position=position, set_no=set_no,
                      regulation=regulation, first_side=first_side, deck=())


# --------------------------------------------------------------------------- start of match

@pytest.mark.parametrize("seed", [b"a", b"b", b"c", b"d", b"e", b"f"])
def test_sides_first_player_and_deal_come_from_the_seed(seed):
    state = new_match(seed, monsters=False)
    up_seat = Rng.derive(seed, "sides").coin()  # coin 0: seat 0 is UP
    assert side_of(state, up_seat) == "UP" and side_of(state, 1 - up_seat) == "DOWN"
    assert GAME.view(state, None)["sides"] == {"UP": [up_seat], "DOWN": [1 - up_seat]}
    assert state.first_side == ("UP", "DOWN")[Rng.derive(seed, "first").coin()]
    shuffled = Rng.derive(seed, "set", 1).shuffled(DECK)
    assert state.hands == (tuple(shuffled[:6]), tuple(shuffled[6:12]))
    assert state.deck == tuple(shuffled[12:])
    assert state.phase == "mulligan" and GAME.to_act(state) == {0, 1}


def test_coin_toss_gives_both_sides_and_both_first_players_across_seeds():
    states = [new_match(bytes([n])) for n in range(16)]
    assert {s.up_parity for s in states} == {0, 1}
    assert {s.first_side for s in states} == {"UP", "DOWN"}


def test_options_defaults_and_errors():
    assert GAME.validate_options({}) == {"regulation": "full", "format": "1v1",
                                         "turn_seconds": 30, "shop_seconds": 30,
                                         "monsters": True}
    for bad in ({"turn_seconds": 9}, {"shop_seconds": 121}, {"format": "4v4"},
                {"regulation": "quarter"}, {"monsters": "yes"}):
        with pytest.raises(ValueError):
            GAME.validate_options(bad)
    assert [GAME.seats({"format": f}) for f in ("1v1", "2v2", "3v3")] == [2, 4, 6]
    with pytest.raises(ValueError):
        GAME.new_game(GAME.validate_options({}), 4, b"x")


# --------------------------------------------------------------------------- mulligan

HAND_UP = ["+1", "+1", "+2", "-3", D, E]
HAND_DOWN = ["-1", "-1", "-2", "+3", F, M]
DECK_REST = ["-2", S, "+1", "+1", "-1", "+2", C, "+2", "-1", "-1", "+1", "-2"]


def _mulligan_state():
    return make_state([HAND_UP, HAND_DOWN], phase="mulligan", turn=0, deck=DECK_REST)


def test_mulligan_answer_is_hidden_until_both_are_in():
    state = _mulligan_state()
    before = {v: GAME.view(state, v) for v in (1, None)}
    after, events = GAME.apply(state, 0, {"type": "mulligan", "card": D})
    assert {v: GAME.view(after, v) for v in (1, None)} == before
    assert before[1]["mulligan"] == {"mine": "pending"} and before[None]["mulligan"] is None
    mine = GAME.view(after, 0)
    assert mine["mulligan"] == {"mine": D}
    assert mine["graveyard"] == [] and mine["hands"]["0"] == HAND_UP
    assert [(e.kind, e.visible_to) for e in events] == [("mulligan_chosen", frozenset({0}))]
    assert GAME.to_act(after) == {1}


def test_mulligan_sends_cards_to_the_graveyard_and_draws_in_side_order():
    state, _ = GAME.apply(_mulligan_state(), 1, {"type": "mulligan", "card": "-2"})
    state, events = GAME.apply(state, 0, {"type": "mulligan", "card": D})
    # UP resolves first: sends DOUBLE, draws "-2"; then DOWN sends "-2", draws SIREN.
    assert state.hands == (("+1", "+1", "+2", "-3", E, "-2"), ("-1", "-1", "+3", F, M, S))
    assert state.graveyard == (D, "-2")
    assert state.deck == tuple(DECK_REST[2:])
    done = [e for e in events if e.kind == "mulligan_done"]
    assert done[0].visible_to is None
    assert done[0].data == {"sent": [{"side": "UP", "card": D}, {"side": "DOWN", "card": "-2"}]}
    assert state.phase == "deployment" and state.turn == 1 and GAME.to_act(state) == {0}
    view = GAME.view(state, 1)
    assert view["mulligan"] is None and view["graveyard"] == [D, "-2"] and view["deck_size"] == 10


def test_keeping_changes_nothing():
    state, _ = GAME.apply(_mulligan_state(), 0, {"type": "mulligan", "card": None})
    state, _ = GAME.apply(state, 1, {"type": "mulligan", "card": None})
    assert state.hands == (tuple(HAND_UP), tuple(HAND_DOWN)) and state.graveyard == ()
    assert len(state.deck) == 12


def test_mulligan_legal_list_and_errors():
    state = _mulligan_state()
    assert GAME.legal_actions(state, 0) == [{"type": "mulligan", "card": None}] + [
        {"type": "mulligan", "card": c} for c in ["+1", "+2", "-3", D, E]]
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 0, {"type": "mulligan", "card": F})
    assert info.value.code == "card_not_in_hand"
    answered, _ = GAME.apply(state, 0, {"type": "mulligan", "card": None})
    with pytest.raises(IllegalAction) as info:
        GAME.apply(answered, 0, {"type": "mulligan", "card": None})
    assert info.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 0, {"type": "play", "card": "+1"})
    assert info.value.code == "wrong_phase"


# --------------------------------------------------------------------------- deployment

def test_numbers_face_up_specials_face_down_and_turns_alternate():
    state = make_state([["+2", D], ["-1", E]])
    state = play(state, 0, D)
    assert GAME.to_act(state) == {1} and state.turn == 2
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 0, {"type": "play", "card": "+2"})
    assert info.value.code == "not_your_turn"
    state = play(state, 1, "-1")
    assert [(f.card, f.face_up) for f in state.field] == [(D, False), ("-1", True)]
    assert GAME.view(state, 0)["field"] == [
        {"turn": 1, "seat": 0, "side": "UP", "card": D, "face_up": False},
        {"turn": 2, "seat": 1, "side": "DOWN", "card": "-1", "face_up": True}]
    assert GAME.view(state, 1)["field"][0]["card"] is None
    assert GAME.view(state, None)["field"][0]["card"] is None
    assert GAME.view(state, 1)["hands"] == {"1": [E]}
    assert GAME.view(state, 1)["hand_sizes"] == {"0": 1, "1": 1}


def test_card_played_event_hides_face_down_cards():
    _, events = GAME.apply(make_state([[D], ["-1"]]), 0, {"type": "play", "card": D})
    assert events[0].kind == "card_played" and events[0].visible_to is None
    assert events[0].data == {"turn": 1, "seat": 0, "side": "UP", "face_up": False, "card": None}


def test_play_errors():
    state = make_state([["+2", D], ["-1", E]])
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 0, {"type": "play", "card": "-3"})
    assert info.value.code == "card_not_in_hand"
    for bad in ({"type": "play"}, {"type": "play", "card": "+2", "x": 1},
                {"type": "play", "card": "+4"}, {"type": "dance"}, ["play"]):
        with pytest.raises(InvalidAction):
            GAME.apply(state, 0, bad)
    with pytest.raises(InvalidAction):
        GAME.apply(state, 2, {"type": "play", "card": "+2"})


def test_legal_plays_list_each_distinct_card_once():
    state = make_state([["+1", "+1", M, "-1"], []])
    assert GAME.legal_actions(state, 0) == [
        {"type": "play", "card": "+1"}, {"type": "play", "card": M},
        {"type": "play", "card": "-1"}]
    assert GAME.legal_actions(state, 1) == []


# --------------------------------------------------------------------------- set end, order

def test_position_zero_next_set_first_is_the_side_that_went_second():
    state = play(_last_turn("+1", "-1", position=0), 1, "-1")
    assert state.position == 0 and state.set_no == 2
    assert state.first_side == "DOWN" and state.phase == "mulligan"
    state = play(_last_turn("+1", "-1", position=0, set_no=2, first_side="DOWN"), 0, "-1")
    assert state.set_no == 3 and state.first_side == "UP"


def test_set_result_moves_the_position_and_is_recorded():
    state, events = GAME.apply(_last_turn("+2", "+1", position=5), 1,
                               {"type": "play", "card": "+1"})
    assert state.position == 8
    resolved = [e for e in events if e.kind == "set_resolved"][0]
    assert resolved.data["result"] == 3 and resolved.data["position_after"] == 8
    assert resolved.data["steps"][0] == {"index": 12, "card": "+1", "identity": "+1",
                                         "silenced": False, "effect": "+1", "total": 1}
    records = ladder(state)
    assert len(records) == 1
    assert records[0]["set"] == 1 and records[0]["first_side"] == "UP"
    assert records[0]["result"] == 3 and records[0]["position_after"] == 8
    assert records[0]["field"][0] == {"card": "+1", "seat": 0, "side": "UP"}
    assert records[0]["field"][11] == {"card": "+1", "seat": 1, "side": "DOWN"}
    assert (resolved_count(state), ladder(state, 1), ladder(state, 0)) == (1, [], records)
    history = GAME.view(state, None)["history"][0]
    assert history["result"] == 3 and len(history["steps"]) == 12


def test_behind_side_chooses_the_order_after_seeing_its_hand():
    state = play(_last_turn("+2", "+1", position=0), 1, "+1")  # position 3: DOWN is behind
    assert state.phase == "order" and state.first_side is None
    assert GAME.to_act(state) == {1}
    assert GAME.view(state, 1)["side_to_act"] == "DOWN"
    assert len(GAME.view(state, 1)["hands"]["1"]) == 6
    assert GAME.legal_actions(state, 1) == [{"type": "choose_order", "first": True},
                                            {"type": "choose_order", "first": False}]
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 0, {"type": "choose_order", "first": True})
    assert info.value.code == "not_your_turn"
    second, events = GAME.apply(state, 1, {"type": "choose_order", "first": False})
    assert second.first_side == "UP" and second.phase == "mulligan"
    assert events[0].data == {"side": "DOWN", "first": False, "first_side": "UP"}
    first, _ = GAME.apply(state, 1, {"type": "choose_order", "first": True})
    assert first.first_side == "DOWN"


def test_up_chooses_when_the_position_is_negative():
    state = play(_last_turn("-2", "-1", position=1), 1, "-1")  # position -2
    assert state.phase == "order" and GAME.to_act(state) == {0}


# --------------------------------------------------------------------------- match end

def test_ko_at_exactly_24_ends_the_match_mid_match():
    state = play(_last_turn("+2", "+2", position=20, set_no=2), 1, "+2")
    assert state.position == 24 and state.phase == "finished" and not GAME.to_act(state)
    outcome = GAME.outcome(state)
    assert (outcome.ranks, outcome.reason, dict(outcome.detail)) == ((1, 2), "ko",
                                                                      {"position": 24})


def test_23_is_not_a_ko():
    state = play(_last_turn("+1", "+2", position=20, set_no=2), 1, "+2")
    assert state.position == 23 and state.phase == "order" and state.set_no == 3
    assert GAME.outcome(state) is None


def test_ko_at_minus_12_in_half_regulation():
    state = play(_last_turn("-1", "-2", position=-9, set_no=2, regulation="half"), 1, "-2")
    outcome = GAME.outcome(state)
    assert (outcome.ranks, outcome.reason, outcome.detail["position"]) == ((2, 1), "ko", -12)


def test_ko_past_the_goal_keeps_the_reached_position():
    state = play(_last_turn("+3", "+1", position=22, set_no=4), 1, "+1")
    assert GAME.outcome(state).to_json() == {"ranks": [1, 2], "reason": "ko", "winners": [0],
                                             "draw": False, "detail": {"position": 26}}


def test_decision_after_the_last_set():
    state = play(_last_turn("-1", "-1", position=5, set_no=6), 1, "-1")
    outcome = GAME.outcome(state)
    assert (outcome.ranks, outcome.reason, outcome.detail["position"]) == ((1, 2), "decision", 3)
    state = play(_last_turn("-1", "-1", position=1, set_no=3, regulation="half"), 1, "-1")
    outcome = GAME.outcome(state)
    assert (outcome.ranks, outcome.reason, outcome.detail["position"]) == ((2, 1), "decision", -1)


def test_draw_at_zero_after_the_last_set():
    state = play(_last_turn("-1", "-1", position=2, set_no=6), 1, "-1")
    outcome = GAME.outcome(state)
    assert (outcome.ranks, outcome.reason, outcome.draw) == ((1, 1), "draw", True)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, 0, {"type": "play", "card": "+1"})
    assert info.value.code == "game_over"


def test_half_regulation_continues_before_its_third_set():
    state = play(_last_turn("-1", "-1", position=2, set_no=2, regulation="half"), 1, "-1")
    assert state.set_no == 3 and state.position == 0 and GAME.outcome(state) is None


# --------------------------------------------------------------------------- clocks, resign

def test_timeout_moves():
    assert GAME.deadline_action(_mulligan_state(), 1) == {"type": "mulligan", "card": None}
    order = play(_last_turn("+2", "+1", position=0), 1, "+1")
    assert GAME.deadline_action(order, 1) == {"type": "choose_order", "first": True}
    with pytest.raises(IllegalAction):
        GAME.deadline_action(order, 0)


@pytest.mark.parametrize("seed", [b"t1", b"t2", b"t3"])
def test_turn_timeout_plays_the_seeded_random_hand_card(seed):
    hand = ["+1", "-2", D, M, "+3"]
    state = make_state([hand, ["-1"] * 5], set_no=2, turn=3, seed=seed, deck=())
    expected = hand[Rng.derive(seed, "timeout", 2, 3).randbelow(5)]
    assert GAME.deadline_action(state, 0) == {"type": "play", "card": expected}


def test_turn_timeout_reaches_every_hand_card():
    hand = ["+1", "-2", D, M, "+3"]
    picks = {GAME.deadline_action(make_state([hand, []], seed=bytes([n]), deck=()), 0)["card"]
             for n in range(60)}
    assert picks == set(hand)


def test_clock_seconds():
    state = make_state([["+1"], []])
    assert GAME.clock_seconds(state, 0) == 30
    assert GAME.clock_seconds(replace(state, phase="shop", shop_queue=("UP",)), 0) == 20


def test_resign_ends_the_match_with_that_side_losing():
    state = make_state([["+1"], ["-1"]], position=-4)
    ended, events = GAME.resign(state, 0)
    assert GAME.outcome(ended).to_json() == {"ranks": [2, 1], "reason": "resign",
                                             "winners": [1], "draw": False,
                                             "detail": {"position": -4}}
    assert events[0].kind == "match_over" and not GAME.to_act(ended)
    assert GAME.view(ended, None)["phase"] == "finished"
    with pytest.raises(IllegalAction):
        GAME.resign(ended, 1)


def test_dump_load_round_trip_mid_mulligan():
    state = replace(_mulligan_state(), mulligan=(MulliganChoice(0, D), None))
    assert GAME.load(GAME.dump(state)) == state

