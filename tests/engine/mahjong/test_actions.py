"""Action shapes, their canonical forms, the stable error codes and the deadline action
(rulings "Match, clocks and bots": win when legal, else pass, else the drawn tile, else the
last tile in sort order)."""

import pytest

from engine.core import IllegalAction, InvalidAction
from engine.mahjong import GAME
from tests.engine.mahjong.builders import JUNK, discarded, player, table, turn

WIN, PASS, PUNG = {"type": "win"}, {"type": "pass"}, {"type": "pung"}
OTHERS = [player("2288m2288p2468s6z"), player("3377m3377p3468s6z"), player("1199m1199p1289s4z")]
SHANPON = "123m456p789s1122z"


def _turn(drawn="9m", **kw):
    return turn(table([player(SHANPON), *OTHERS], head="5s", **kw), 0, drawn=drawn)


@pytest.mark.parametrize("action, code", [
    ({"type": "discard"}, "malformed_action"),
    ({"type": "discard", "tile": "9m", "extra": 1}, "malformed_action"),
    ({"type": "discard", "tile": "9m", "ready": "yes"}, "malformed_action"),
    ({"type": "discard", "tile": "0m"}, "unknown_tile"),
    ({"type": "discard", "tile": "1f"}, "unknown_tile"),
    ({"type": "chow", "tiles": ["3m"]}, "malformed_action"),
    ({"type": "fly"}, "unknown_action"),
    ("discard", "malformed_action"),
])
def test_malformed_actions_are_refused(action, code):
    state = _turn()
    with pytest.raises(InvalidAction) as refused:
        GAME.apply(state, 0, action)
    assert refused.value.code == code


@pytest.mark.parametrize("seat, action, code", [
    (1, {"type": "discard", "tile": "2m"}, "not_your_turn"),
    (0, {"type": "discard", "tile": "5m"}, "tile_not_in_hand"),
    (0, WIN, "not_complete"),
    (0, PUNG, "not_allowed"),
    (0, {"type": "kong", "tile": "1z"}, "tile_not_in_hand"),
])
def test_illegal_turn_actions_have_stable_codes(seat, action, code):
    state = _turn()
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, seat, action)
    assert refused.value.code == code and GAME.dump(state) == before


def test_canonical_forms_are_accepted():
    state = _turn()
    plain, _ = GAME.apply(state, 0, {"type": "discard", "tile": "9m"})
    same, _ = GAME.apply(state, 0, {"type": "discard", "tile": "9m", "ready": False})
    assert GAME.dump(plain) == GAME.dump(same)


def _chow_window(rules):
    base = [player("4m 123p 456p 789p 11s 7z", discards="9s"), player("2356m 17s 258s 1234z"),
            player("44m 28s 39s 369p 5677z"), player("19m 47s 147p 223356z")]
    return discarded(table(base, rules=rules, head="1s"), 0, "4m", drawn_tile="8s")[0]


def test_chow_codes_and_either_tile_order():
    state = _chow_window("mcr")
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 2, {"type": "chow", "tiles": ["3m", "5m"]})
    assert refused.value.code == "no_chow"                # seat 2 is not the 下家
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 1, {"type": "chow", "tiles": ["5m", "7m"]})
    assert refused.value.code == "tile_not_in_hand"
    state, _ = GAME.apply(state, 1, {"type": "chow", "tiles": ["5m", "3m"]})
    assert state.hand.answers[1] == {"type": "chow", "tiles": ["3m", "5m"]}
    hebei = _chow_window("hebei")
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(hebei, 2, {"type": "chow", "tiles": ["3m", "5m"]})
    assert refused.value.code == "no_chow"


def test_wins_only_on_the_last_discard_and_no_pung_for_a_locked_hand():
    last = discarded(table([player("1z " + JUNK, discards="8s"), player(SHANPON), *OTHERS[1:]]),
                     0, "1z", drawn_tile="2s")[0]
    assert GAME.legal_actions(last, 1) == [WIN, PASS]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(last, 1, PUNG)
    assert refused.value.code == "wins_only"
    locked = discarded(table([player("1z " + JUNK, discards="8s"), player(SHANPON, ready=True),
                              *OTHERS[1:]], head="5s"), 0, "1z", drawn_tile="2s")[0]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(locked, 1, PUNG)
    assert refused.value.code == "ready_locked"


def test_game_over_after_a_resignation():
    ended, events = GAME.resign(_turn(), 2)
    assert [e.kind for e in events] == ["resigned", "match_over"]
    assert GAME.outcome(ended).ranks[2] == 4 and GAME.outcome(ended).reason == "resign"
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(ended, 0, {"type": "discard", "tile": "9m"})
    assert refused.value.code == "game_over"


# --------------------------------------------------------------------------- deadline


def test_the_deadline_wins_when_a_win_is_listed():
    assert GAME.deadline_action(_turn(drawn="1z"), 0) == WIN


def test_the_deadline_discards_the_drawn_tile():
    assert GAME.deadline_action(_turn(drawn="9m"), 0) == {"type": "discard", "tile": "9m"}


def test_the_deadline_passes_a_claim_window_without_a_win():
    state = _chow_window("mcr")
    assert GAME.deadline_action(state, 1) == PASS and GAME.deadline_action(state, 2) == PASS


def test_the_deadline_wins_a_claim_when_it_may():
    last = discarded(table([player("1z " + JUNK, discards="8s"), player(SHANPON), *OTHERS[1:]]),
                     0, "1z", drawn_tile="2s")[0]
    assert GAME.deadline_action(last, 1) == WIN


def test_on_the_dealers_first_turn_the_deadline_discards_the_last_tile_in_sort_order():
    state = turn(table([player(SHANPON + "3z"), *OTHERS], head="5s"), 0, step="deal")
    assert GAME.deadline_action(state, 0) == {"type": "discard", "tile": "3z"}


def test_after_a_pung_the_deadline_discards_the_last_tile_in_sort_order():
    state = _chow_window("mcr")
    state, _ = GAME.apply(state, 1, PASS)
    state, _ = GAME.apply(state, 2, PUNG)
    assert GAME.deadline_action(state, 2) == {"type": "discard", "tile": "7z"}
    assert GAME.clock_seconds(state, 2) == 15
