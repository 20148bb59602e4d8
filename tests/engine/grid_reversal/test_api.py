"""The engine protocol around the rules: options, errors, clocks, timeouts, views, dump/load."""

import json

import pytest

from engine.core import IllegalAction, InvalidAction
from engine.grid_reversal import GAME

from .boards import act, make

BOARD = """
    . . b2 . .
    . . b1 . .
    . . .  . .
    . . .  . .
    . . a1 . .
    . . a3 . .
"""


def test_options_and_spec():
    assert GAME.validate_options({}) == {"turn_seconds": 60, "width": 5, "depth": 3,
                                         "number_copies": 8, "effect_copies": 2}
    for bad in ({"width": 4}, {"depth": 9}, {"turn_seconds": 5}, {"colour": "red"}):
        with pytest.raises(ValueError):
            GAME.validate_options(bad)
    assert GAME.spec.titles == {"en": "Grid Reversal", "zh": "逆转", "ja": "逆転"}
    assert GAME.seats({}) == 2
    with pytest.raises(ValueError):
        GAME.new_game(GAME.validate_options({}), 3, b"x")


def test_a_smaller_board_from_the_options():
    state = GAME.new_game(GAME.validate_options({"width": 3, "depth": 2}), 2, b"x")
    view = GAME.view(state, None)
    assert (view["width"], view["rows"]) == (3, 4)
    starts = {s["seat"]: s["start"] for s in view["seats"]}
    assert starts[state.first] == [3, 1] and starts[1 - state.first] == [0, 1]


@pytest.mark.parametrize("action, code", [
    ({"type": "teleport"}, "unknown_action"),
    ({"kind": "place"}, "malformed_action"),
    ({"type": "place", "card": "1"}, "malformed_action"),
    ({"type": "place", "card": "1", "cell": [4]}, "malformed_action"),
    ({"type": "place", "card": "1", "cell": [4, True]}, "malformed_action"),
    ({"type": "swap_cells", "cells": [[4, 2]]}, "malformed_action"),
    ({"type": "end_stage", "extra": 1}, "malformed_action"),
])
def test_malformed_actions(action, code):
    with pytest.raises(InvalidAction) as err:
        GAME.apply(make(BOARD, hands=(("1",), ())), 0, action)
    assert err.value.code == code


def test_swap_cells_must_be_listed_in_row_major_order():
    state = make(BOARD, hands=(("SWAP",), ()))
    assert {"type": "swap_cells", "cells": [[4, 2], [5, 2]]} in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, {"type": "swap_cells", "cells": [[5, 2], [4, 2]]})
    assert err.value.code == "not_adjacent_own_cards"


def test_deadline_actions_and_clocks():
    state = make(BOARD, hands=(("1", "LIGHTNING"), ("BAN",)))
    assert GAME.deadline_action(state, 0) == {"type": "end_stage"}
    assert GAME.clock_seconds(state, 0) == 60
    window, _ = act(state, 0, {"type": "lightning"})
    assert GAME.deadline_action(window, 1) == {"type": "decline"}
    assert GAME.clock_seconds(window, 1) == 15
    deal = GAME.new_game(GAME.validate_options({"turn_seconds": 30}), 2, b"clock")
    hand = deal.hands[0]
    first_number = next(c for c in hand if c in "1234")
    assert GAME.deadline_action(deal, 0) == {"type": "choose_mother", "card": first_number}
    assert GAME.clock_seconds(deal, 0) == 30
    discarding = make(BOARD, phase="discard", hands=(("1", "2", "3", "4", "BAN"), ()))
    assert GAME.deadline_action(discarding, 0) == {"type": "discard", "card": "BAN"}
    offer = make(BOARD, standoff=True, phase="draw_offer", offered=True)
    assert GAME.deadline_action(offer, 1) == {"type": "decline_draw"}


def test_resign_and_game_over():
    state = make(BOARD, hands=(("1",), ()))
    over, events = GAME.resign(state, 0)
    assert [e.kind for e in events] == ["resigned", "game_over"]
    assert GAME.outcome(over).ranks == (2, 1) and GAME.outcome(over).reason == "resign"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(over, 0, {"type": "end_stage"})
    assert err.value.code == "game_over"
    assert GAME.legal_actions(over, 0) == [] and GAME.to_act(over) == frozenset()


def test_the_view_names_no_seat_in_turn_once_the_match_is_over():
    end = {"type": "end_stage"}
    last_round = make(BOARD, turn=1, round=199, deck=("1",) * 4)
    offered, _ = act(make(BOARD, standoff=True), 0, {"type": "offer_draw"})
    state = make(BOARD, hands=(("1",), ()))
    assert [GAME.view(s, v)["turn"] for s in (state, last_round, offered)
            for v in (0, 1, None)] == [0, 0, 0, 1, 1, 1, 0, 0, 0]
    overs = [GAME.resign(state, 0)[0], GAME.resign(state, 1)[0], act(last_round, 1, end)[0],
             act(offered, 1, {"type": "accept_draw"})[0]]
    assert [GAME.outcome(s).reason for s in overs] == ["resign", "resign", "round_limit",
                                                       "agreement"]
    assert [s.turn for s in overs] == [0, 0, 1, 0]
    for over in overs:
        assert over.phase == "over" and GAME.to_act(over) == frozenset()
        assert [GAME.view(over, v)["turn"] for v in (0, 1, None)] == [None, None, None]


def test_views_hide_hands_and_deck():
    state = make(BOARD, hands=(("1", "BAN"), ("4",)), deck=("2", "3"))
    mine, theirs, spectator = (GAME.view(state, v) for v in (0, 1, None))
    assert mine["hands"] == {"0": ["1", "BAN"]} and theirs["hands"] == {"1": ["4"]}
    assert spectator["hands"] == {} and mine["hand_sizes"] == {"0": 2, "1": 1}
    assert mine["deck_size"] == 2 and "deck" not in mine
    assert "BAN" not in json.dumps(theirs) and "BAN" not in json.dumps(spectator)


def test_dump_load_round_trip_in_a_response_window():
    state = make(BOARD, hands=(("SWAP",), ("BAN",)), spent=[((4, 2), (5, 2))])
    state, _ = act(state, 0, {"type": "swap_cells", "cells": [[4, 2], [5, 2]]})
    data = json.loads(json.dumps(GAME.dump(state)))
    assert GAME.load(data) == state


REFUSALS = """
    . .  b2 .  .
    . .  .  .  .
    . .  .  .  .
    . .  .  b1 .
    . a1 a4 .  .
    . .  a3 .  .
"""


@pytest.mark.parametrize("action, code", [
    ({"type": "super_add_pair", "cells": [[4, 1], [4, 2]]}, "not_a_spent_pair"),
    ({"type": "super_add_line", "cells": [[4, 1], [4, 2], [4, 3]]}, "not_a_firing_line"),
    ({"type": "swap_in", "cell": [3, 3], "card": "2"}, "not_own_card"),
    ({"type": "swap_in", "cell": [4, 1], "card": "3"}, "card_not_in_hand"),
    ({"type": "swap_cells", "cells": [[4, 1], [3, 3]]}, "not_adjacent_own_cards"),
    ({"type": "lightning"}, "card_not_in_hand"),
    ({"type": "bomb", "cell": [4, 1]}, "card_not_in_hand"),
    ({"type": "choose_mother", "card": "2"}, "not_now"),
    ({"type": "decline"}, "not_now"),
])
def test_refusal_codes(action, code):
    state = make(REFUSALS, hands=(("2", "SUPER_ADD", "SWAP"), ()))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, action)
    assert err.value.code == code
