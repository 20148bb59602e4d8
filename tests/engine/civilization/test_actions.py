"""Main-action legality, error codes, clocks and the view (rulings, "Action phase", "Clocks",
"Hidden information")."""

from __future__ import annotations

import pytest

from engine.civilization import GAME
from engine.core import IllegalAction, InvalidAction, Rng

from .helpers import card, make, place, play

PASS = {"type": "pass"}


def test_main_actions_list_places_leaders_and_pass():
    # Facing seat 0: 王权 (S), 织网 (card 1), 雇佣 (card 2 = card 11 turned, not affordable).
    row = [card(0, 0), card(1, 0), card(11, 1)]
    state = make(row, ((0, 5, 0), (0, 0, 0)))
    assert GAME.legal_actions(state, 0) == [
        place(0), place(0, False), place(1), place(1, False), place(2, False),
        {"type": "leader", "card": 1}, {"type": "leader", "card": 2}, PASS]
    assert GAME.legal_actions(state, 1) == []


@pytest.mark.parametrize("action, code", [
    ({"type": "leader", "card": 0}, "start_card_takes_no_leader"),
    ({"type": "leader", "card": 1}, "card_has_leader"),
    ({"type": "leader", "card": 2}, "slot_occupied"),
    ({"type": "leader", "card": 3}, "cannot_afford"),
    ({"type": "leader", "card": 9}, "no_such_card"),
    (place(2), "slot_occupied"),
    (place(4), "cannot_resolve"),
    ({"type": "take", "resource": "fish"}, "not_allowed"),
])
def test_illegal_main_actions_have_codes(action, code):
    # card 2: 狩猎 facing 0 is taken; card 3 costs fish (0 held); card 4 = 雇佣 facing 0.
    row = [card(0, 0), card(1, 0, leader=1), card(2, 0, workers=(0, -1)), card(3, 0), card(1, 1)]
    state = make(row, ((0, 0, 0), (0, 0, 0)))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, action)
    assert err.value.code == code


def test_no_worker_in_hand():
    row = [card(0, 0, workers=(0, -1)), card(1, 0, workers=(0, -1)), card(2, 0)]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(make(row), 0, place(2, False))
    assert err.value.code == "no_worker_in_hand"


def test_not_your_turn_and_decision_pending():
    state = play(make([card(0, 0), card(5, 1)], ((1, 0, 0), (0, 0, 0))), 0, place(1))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, PASS)
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, PASS)
    assert err.value.code == "decision_pending"


@pytest.mark.parametrize("action, code", [
    ({"type": "place", "card": 1, "resolve": 1}, "malformed_action"),
    ({"type": "place", "card": True, "resolve": True}, "malformed_action"),
    ({"type": "take", "resource": "gold"}, "malformed_action"),
    ({"type": "pass", "extra": 1}, "malformed_action"),
    ({"type": "fly"}, "unknown_action"),
    ([], "malformed_action"),
])
def test_malformed_actions(action, code):
    with pytest.raises(InvalidAction) as err:
        GAME.apply(make([card(0, 0), card(1, 0)]), 0, action)
    assert err.value.code == code


def test_game_over_refuses_actions():
    state, _ = GAME.resign(make([card(0, 0)]), 0)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, PASS)
    assert err.value.code == "game_over"


def test_deadline_passes_or_takes_the_first_answer():
    state = make([card(0, 0), card(5, 1)], ((1, 0, 0), (0, 0, 0)))
    assert GAME.deadline_action(state, 0) == PASS
    state = play(state, 0, place(1))
    assert GAME.deadline_action(state, 0) == {"type": "match", "set": "fish", "to": "meat"}
    assert GAME.clock_seconds(state, 0) == 60


def test_turn_seconds_option():
    assert GAME.validate_options({}) == {"turn_seconds": 60}
    assert GAME.validate_options({"turn_seconds": 15}) == {"turn_seconds": 15}
    with pytest.raises(ValueError):
        GAME.validate_options({"turn_seconds": 5})
    state = GAME.new_game({"turn_seconds": 15}, 2, b"x")
    assert GAME.clock_seconds(state, 1) == 15


def test_view_shows_the_row_and_never_the_deck_order():
    row = [card(0, 1), card(8, 0, leader=1, workers=(0, 2))]
    deck = tuple(i for i in range(16, 0, -1) if i != 8)
    state = make(row, ((1, 2, 3), (4, 5, 6)), deck=deck)
    view = GAME.view(state, None)
    assert view["row"][1] == {"card": 8, "cost": "fish", "leader": 1, "slots": [
        {"slot": "hunting", "colour": "yellow", "reversal": False, "faces": 0, "worker": 0},
        {"slot": "law", "colour": "red", "reversal": True, "faces": 1, "worker": "neutral"}]}
    assert view["kingship"] == 1 and view["deck_size"] == 15
    assert view["resources"][1] == {"fish": 4, "meat": 5, "wheat": 6}
    assert view["workers"] == [{"unlocked": 2, "in_hand": 1}, {"unlocked": 2, "in_hand": 2}]
    assert view["leaders"] == [{"placed": 0, "in_hand": 5}, {"placed": 1, "in_hand": 4}]
    other = GAME.view(state._replace(deck=deck[::-1]), None)
    assert other == view
    # A sample: all public facts, the unseen cards (the deck's) in an order drawn from the rng.
    sampled = GAME.sample(GAME.view(state, 0), 0, Rng(b"s"))
    assert sampled._replace(deck=()) == state._replace(deck=())
    assert sorted(sampled.deck) == sorted(deck) and sampled.deck not in (deck, deck[::-1])
    assert GAME.sample(GAME.view(state, 0), 0, Rng(b"s")) == sampled


def test_events_report_the_action_and_forced_steps():
    state = make([card(0, 0), card(2, 1)], ((0, 0, 2), (0, 0, 0)))
    _, events = GAME.apply(state, 0, place(1))
    # Paying is forced (only wheat), and so is removing: the 劳作 worker is the only one placed.
    assert [e.kind for e in events] == ["main_action", "forced", "forced"]
    assert events[1].data == {"seat": 0, "step": "pay", "action": {"type": "pay", "resource": "wheat"}}
    assert events[2].data["action"] == {"type": "remove", "card": 1, "slot": 1}
