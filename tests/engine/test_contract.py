"""One contract test for every registered game (OpenSpiel's random simulation test).

For many seeds, random legal playouts to the end check at every step: determinism from the seed,
``load(dump(s))`` round-trips, ``apply`` never mutates its input, every listed legal action is
accepted, a made-up action raises and changes nothing, views are JSON-serialisable for every seat
and a spectator, and the game ends within ``spec.max_length`` actions.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine.core import EngineError, Event, Outcome
from engine.registry import GAMES

SEEDS = range(12)
MADE_UP = ({"type": "__made_up__"}, {"no_type": 1}, {"type": "play", "card": "NOT_A_CARD"})
#: Room options per game for the playouts (seed ``n`` plays ``OPTIONS[id][n % len]``; other
#: games play their defaults): a short match of each rule set.
OPTIONS: dict[str, list[dict]] = {"mahjong": [{"hands": 4}, {"rules": "mcr"}]}


def _options(game, seed: int) -> dict:
    variants = OPTIONS.get(game.spec.id, [{}])
    return game.validate_options(variants[seed % len(variants)])


def _playout(game, seed: int, check: bool):
    """Play one random game; return the list of (seat, action) taken and the final state."""
    options = _options(game, seed)
    players = game.seats(options)
    state = game.new_game(options, players, seed.to_bytes(8, "big"))
    chooser = random.Random(seed)
    history = []
    for _ in range(game.spec.max_length + 1):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        if check:
            _check_step(game, state, players, acting)
        seat = chooser.choice(acting)
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        action = chooser.choice(legal)
        state, events = game.apply(state, seat, action)
        assert all(isinstance(e, Event) for e in events)
        history.append((seat, action))
    assert not game.to_act(state), f"{game.spec.id} did not end within {game.spec.max_length}"
    outcome = game.outcome(state)
    assert isinstance(outcome, Outcome) and len(outcome.ranks) == players
    return history, state


def _check_step(game, state, players, acting):
    dumped = game.dump(state)
    json.dumps(dumped)
    assert game.dump(game.load(copy.deepcopy(dumped))) == dumped
    for viewer in [*range(players), None]:
        json.dumps(game.view(state, viewer))
    for seat in acting:
        for action in game.legal_actions(state, seat):
            json.dumps(action)
            _, events = game.apply(state, seat, action)
            json.dumps([e.to_json() for e in events])
        assert game.dump(state) == dumped, "apply mutated its input"
        for bad in MADE_UP:
            with pytest.raises(EngineError):
                game.apply(state, seat, bad)
        assert game.deadline_action(state, seat) in game.legal_actions(state, seat)
        plays_for = game.deadline_seat(state, seat)
        assert plays_for in acting
        assert game.deadline_action(state, plays_for) in game.legal_actions(state, plays_for)
        assert game.clock_seconds(state, seat) > 0
    idle = [s for s in range(players) if s not in acting]
    for seat in idle[:1]:
        with pytest.raises(EngineError):
            game.apply(state, seat, {"type": "__made_up__"})
    assert game.dump(state) == dumped
    assert game.outcome(state) is None


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_contract(game_id, seed):
    game = GAMES[game_id]
    history, final = _playout(game, seed, check=seed < 4)
    # Same seed, same actions: identical dumps.
    options = _options(game, seed)
    state = game.new_game(options, game.seats(options), seed.to_bytes(8, "big"))
    for seat, action in history:
        state, _ = game.apply(state, seat, action)
    assert game.dump(state) == game.dump(final)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_resign_ends_the_match(game_id):
    game = GAMES[game_id]
    options = game.validate_options({})
    players = game.seats(options)
    state = game.new_game(options, players, b"resign")
    before = game.dump(state)
    ended, _ = game.resign(state, 0)
    assert game.dump(state) == before
    assert not game.to_act(ended)
    outcome = game.outcome(ended)
    assert outcome is not None and outcome.reason == "resign" and 0 not in outcome.winners


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_spec_is_consistent(game_id):
    game = GAMES[game_id]
    assert game.spec.id == game_id
    assert {"en", "zh", "ja"} <= set(game.spec.titles)
    names = [o.name for o in game.spec.options]
    assert "turn_seconds" in names
    with pytest.raises(ValueError):
        game.validate_options({"no_such_option": 1})
