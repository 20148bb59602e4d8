"""Who is asked in a Zipai claim window stays hidden (docs/security.md §2, "Clocks" and "Timeout
events"; engine/core.py ``Game.to_act_is_public``).

The fixed seed's hand (``SEED``, one hand): seat 1 deals and, by its clock's choice (the rightmost
discard, rulings "Clocks"), discards 大拾 (d10) at t = 1001. Only seat 2 may claim it (碰/吃; the
engine's own view marks it ``asked``), so the window has ONE asked seat. Before the fix everyone saw
``clocks {"2": 1021}`` (1001 + the default ``turn_seconds`` 20) and, when the clock answered, a
public ``timeout {seat: 2}`` event.
"""

from __future__ import annotations

from app.rooms.journal import Journal
from app.rooms.live import LiveMatch, Step, timeout_event
from engine.core import Event, Game
from engine.registry import GAMES
from tests.app.conftest import SEED

ZIPAI = GAMES["zipai"]
START = 1000.0
DISCARD_AT = 1001.0
DEADLINE = DISCARD_AT + 20  # turn_seconds' default (rulings "Clocks": one clock per decision)
D10 = {"type": "discard", "card": "d10"}


def _window() -> LiveMatch:
    """Return the fixed seed's match right after seat 1 discarded d10 (seat 2 alone asked)."""
    live = LiveMatch.start(ZIPAI, 1, 1, "LEAK", ZIPAI.validate_options({"hands": 1}), 3, SEED,
                           START)
    assert sorted(ZIPAI.to_act(live.state)) == [1] and ZIPAI.deadline_action(live.state, 1) == D10
    return live.replay(1, D10, DISCARD_AT, False)[0]


def told(step: Step, viewer: int | None) -> list[dict]:
    """Return the events of ``step`` an ``update`` shows ``viewer`` (``Journal.events``)."""
    journal = Journal(step.version - 1)
    journal.record(step.version, step.events)
    return journal.events(viewer, step.version - 1, step.version)


def test_zipai_says_a_claim_window_is_not_public():
    live = LiveMatch.start(ZIPAI, 1, 1, "LEAK", ZIPAI.validate_options({"hands": 1}), 3, SEED,
                           START)
    assert ZIPAI.to_act_is_public(live.state) is True  # seat 1 must discard: public
    live, _ = live.replay(1, D10, DISCARD_AT, False)
    assert ZIPAI.view(live.state, None)["phase"] == "claim"
    assert ZIPAI.to_act_is_public(live.state) is False


def test_other_games_count_as_public():
    """RC mulligan (both sides always asked), the grid_reversal Ban window (opens whether or not
    the opponent holds a Ban), numgr and civilization: who acts follows from public facts."""
    for name in ("reverse_curse", "grid_reversal", "numgr", "civilization"):
        game = GAMES[name]
        state = game.new_game(game.validate_options(None), game.spec.min_players, SEED)
        assert game.to_act_is_public(state) is True
    assert isinstance(ZIPAI, Game) and isinstance(GAMES["numgr"], Game)


def test_one_asked_seat_sees_its_clock_and_nobody_else_sees_any():
    live = _window()
    assert ZIPAI.view(live.state, 2)["me"]["claim"] == "asked"
    assert ZIPAI.view(live.state, 0)["me"]["claim"] is None
    mine = live.frame(2)
    assert (mine["clocks"], mine["deadline"]) == ({"2": DEADLINE}, DEADLINE)
    for viewer in (0, 1, None):
        frame = live.frame(viewer)
        assert (frame["clocks"], frame["deadline"]) == ({}, None), viewer


def test_the_discard_clock_stays_public():
    live = LiveMatch.start(ZIPAI, 1, 1, "LEAK", ZIPAI.validate_options({"hands": 1}), 3, SEED,
                           START)
    for viewer in (0, 1, 2, None):
        frame = live.frame(viewer)
        assert (frame["clocks"], frame["deadline"]) == ({"1": START + 20}, START + 20), viewer


def test_a_claim_window_timeout_is_told_only_to_the_seat_that_timed_out():
    live = _window()
    assert ZIPAI.deadline_action(live.state, 2) == {"type": "pass"}
    step = live.propose(2, {"type": "pass"}, DEADLINE, timeout=True)
    assert step.events[0] == Event("timeout", {"seat": 2}, frozenset({2}))
    timeout = {"kind": "timeout", "data": {"seat": 2}}
    assert told(step, 2)[0] == timeout
    for viewer in (0, 1, None):
        assert timeout not in told(step, viewer), viewer


def test_a_discard_timeout_stays_public():
    live = LiveMatch.start(ZIPAI, 1, 1, "LEAK", ZIPAI.validate_options({"hands": 1}), 3, SEED,
                           START)
    assert timeout_event(ZIPAI, live.state, 1) == Event("timeout", {"seat": 1}, None)
    step = live.propose(1, D10, START + 20, timeout=True)
    for viewer in (0, 1, 2, None):
        assert told(step, viewer)[0] == {"kind": "timeout", "data": {"seat": 1}}
