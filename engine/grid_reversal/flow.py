"""Rounds, stages, the standoff and the draw rules: what happens between decisions.

Rule sources: rule 41 (round: draws, then the first player's stage, then the second's), rule 42
and the ruling "Standoff and end" (standoff start, no draws, the draw counters), rule 51.
"""

from __future__ import annotations

from dataclasses import replace

from engine.core import Event, Outcome

from .data import (
    DRAW_PER_ROUND,
    FLIPLESS_STAGE_LIMIT,
    HAND_LIMIT,
    IDLE_STAGE_LIMIT,
    REPETITION_LIMIT,
    ROUND_LIMIT,
)
from .deck import draw
from .grid import placement_cells, spent_pairs
from .state import DISCARD, OVER, STAGE, State

Step = tuple[State, list[Event]]


def finish(state: State, winner: int | None, reason: str) -> Step:
    """Return the finished state: ``winner`` (``None`` = draw) and the outcome ``reason``."""
    done = replace(state, phase=OVER, winner=winner, reason=reason, responder=None, stack=())
    return done, [Event("game_over", {"winner": winner, "reason": reason})]


def position_key(state: State) -> str:
    """Return the standoff position of ``state``: the seat to play, every cell's owner and
    value, and the spent pairs (by cells). Repetition counts these (ruling "Standoff")."""
    cells = ",".join("." if p is None else f"{p.owner}{p.value}" for p in state.grid)
    spent = ";".join(f"{a[0]}.{a[1]}-{b[0]}.{b[1]}" for a, b in spent_pairs(state))
    return f"{state.turn}|{cells}|{spent}"


def begin_stage(state: State, seat: int) -> Step:
    """Return the state at the start of the stage of ``seat``: one placement before the
    standoff, none in it. In the standoff the position is recorded; its third occurrence
    draws."""
    state = replace(state, phase=STAGE, turn=seat, placements=0 if state.standoff else 1,
                    busy=False, flipped=False, offered=False)
    events = [Event("stage_started", {"seat": seat, "round": state.round,
                                      "standoff": state.standoff})]
    if state.standoff:
        key = position_key(state)
        state = replace(state, positions=state.positions + (key,))
        if state.positions.count(key) >= REPETITION_LIMIT:
            state, more = finish(state, None, "repetition")
            events += more
    return state, events


def begin_draws(state: State, seat: int) -> Step:
    """Return the state after ``seat`` draws 2 at the start of a round: ``seat`` must discard
    down to 4 if it holds more, else the next player draws or the stages begin."""
    state, events = draw(state, seat, DRAW_PER_ROUND)
    if len(state.hands[seat]) > HAND_LIMIT:
        return replace(state, phase=DISCARD, turn=seat), events
    state, more = after_discards(state, seat)
    return state, events + more


def after_discards(state: State, seat: int) -> Step:
    """Return the state once ``seat`` holds at most 4 after its round draw."""
    if seat == state.first:
        return begin_draws(state, 1 - seat)
    return begin_stage(state, state.first)


def begin_round(state: State) -> Step:
    """Return the state at the start of the next round (or the round-200 draw)."""
    state = replace(state, round=state.round + 1)
    events = [Event("round_started", {"round": state.round, "standoff": state.standoff})]
    if state.round >= ROUND_LIMIT:
        state, more = finish(state, None, "round_limit")
    elif state.standoff:
        state, more = begin_stage(state, state.first)
    else:
        state, more = begin_draws(state, state.first)
    return state, events + more


def _begin_standoff(state: State) -> Step:
    """Return the state entering the standoff: both hands go to the discard pile (rule 42)."""
    discarded = state.hands[state.first] + state.hands[1 - state.first]
    state = replace(state, standoff=True, hands=((), ()), discard=state.discard + discarded)
    return state, [Event("standoff_started", {"discarded": list(discarded)})]


def end_round(state: State) -> Step:
    """Return the state after the second player's stage: the standoff begins if neither player
    has a placement cell, then the next round."""
    events: list[Event] = []
    if not state.standoff and not any(placement_cells(state, s) for s in (0, 1)):
        state, events = _begin_standoff(state)
    state, more = begin_round(state)
    return state, events + more


def end_stage(state: State) -> Step:
    """Return the state after the stage of ``state.turn`` ends: the idle-stage (before the
    standoff) or flipless-stage (in it) draw counters advance, then the next stage or round."""
    seat = state.turn
    events = [Event("stage_ended", {"seat": seat})]
    if state.standoff:
        flipless = 0 if state.flipped else state.flipless + 1
        state = replace(state, flipless=flipless)
        if flipless >= FLIPLESS_STAGE_LIMIT:
            state, more = finish(state, None, "no_flip")
            return state, events + more
    else:
        idle = 0 if state.busy else state.idle + 1
        state = replace(state, idle=idle)
        if idle >= IDLE_STAGE_LIMIT:
            state, more = finish(state, None, "idle")
            return state, events + more
    if seat == state.first:
        state, more = begin_stage(state, 1 - seat)
    else:
        state, more = end_round(state)
    return state, events + more


def outcome_of(state: State) -> Outcome | None:
    """Return the outcome once over: the winner ranks 1 and the other 2; a draw ranks both 1.

    Reasons: ``mother_flipped``, ``resign``, ``agreement``, ``no_flip``, ``repetition``,
    ``idle``, ``round_limit``.
    """
    if state.phase != OVER:
        return None
    if state.winner is None:
        return Outcome((1, 1), state.reason or "draw", {"winner": None})
    ranks = tuple(1 if s == state.winner else 2 for s in (0, 1))
    return Outcome(ranks, state.reason or "win", {"winner": state.winner})
