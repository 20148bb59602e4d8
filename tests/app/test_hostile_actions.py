"""Hostile actions reach every engine the way the room service hands them over.

For every registered game, at a few states of a seeded playout, random action objects —
nonsense, and legal actions with one field replaced by random JSON — go to
``LiveMatch.propose`` (the room service's only way into ``apply``). Each must either be refused
with the engine's ``InvalidAction``/``IllegalAction`` (what the server turns into an ``error``
frame) or be one of ``legal_actions`` (one source of legality); any other exception would reach
the socket as a crash.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rooms.live import LiveMatch
from engine.core import EngineError
from engine.registry import GAMES

STEPS = (0, 3, 12)  # playout steps at which the hostile actions are tried

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8)


@cache
def matches(game_id: str) -> tuple[LiveMatch, ...]:
    """``LiveMatch``es of ``game_id`` at the ``STEPS`` of a seeded random playout."""
    game = GAMES[game_id]
    options = game.validate_options({})
    live = LiveMatch.start(game, 1, 1, "code", options, game.seats(options), bytes(32), 0.0)
    rng, found = random.Random(game_id), []
    for step in range(max(STEPS) + 1):
        if step in STEPS:
            found.append(live)
        seats = sorted(game.to_act(live.state))
        if not seats:
            break
        seat = rng.choice(seats)
        live = live.after(live.propose(seat, rng.choice(live.legal[seat]), 0.0))
    return tuple(found)


def mangled(legal: list[dict[str, Any]]) -> st.SearchStrategy:
    """A legal action with one field set to random JSON, or a random object."""
    one_field = st.builds(lambda action, key, value: {**action, key: value},
                          st.sampled_from(legal), st.sampled_from(
                              sorted({k for a in legal for k in a}) + ["type", "x"]), JSON)
    return one_field | st.dictionaries(st.sampled_from(["type", "card", "cell", "cells", "main",
                                                        "resource", "slot", "x"]), JSON,
                                       max_size=3)


@pytest.mark.parametrize("game_id", sorted(GAMES))
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_actions_are_refused_cleanly(game_id, data):
    live = data.draw(st.sampled_from(matches(game_id)), label="state")
    seat = data.draw(st.sampled_from(sorted(live.legal)), label="seat")
    action = data.draw(mangled(live.legal[seat]), label="action")
    if action == {"type": "resign"}:
        return
    try:
        live.propose(seat, action, 0.0)
    except EngineError:
        return
    assert action in live.legal[seat], action
