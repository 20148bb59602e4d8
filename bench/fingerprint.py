"""Behaviour fingerprint of an engine: one SHA-256 over many random seeded games.

Used to check that a speed change does not change behaviour: record the fingerprint
before, change the engine, and check it is identical after. For every step of every game it hashes
every seat's legal list, every seat's and the spectator's view, the raw ``dump``, the
``deadline_action`` of every acting seat, the chosen seat and action, the events of ``apply``
(kind, data, audience) and, at the end, the outcome. Games are played with uniformly random legal
actions from the fingerprint's own ``random.Random(seed)`` (never the engine's source), with match
seeds ``seed, seed + 1, ...`` as 8 bytes big-endian (like ``bench.engines``).

Usage::

    python -m bench.fingerprint --game ID [--games 200] [--seed 0] [--options '{"hands": 2}']

prints one JSON line ``{"bench": "fingerprint", "game", "games", "steps", "options", "sha256"}``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from engine.registry import GAMES


def _encode(value: Any) -> bytes:
    """Return a canonical byte form of JSON-like ``value`` (sorted keys; sets sorted; else ``repr``)."""
    def default(obj: Any) -> Any:
        if isinstance(obj, (set, frozenset)):
            return sorted(obj, key=repr)
        return repr(obj)
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=default).encode()


def _step_record(game: Any, state: Any, seats: int) -> dict[str, Any]:
    """Return everything observable about ``state`` (legal lists, views, dump, deadlines)."""
    acting = sorted(game.to_act(state))
    return {
        "to_act": acting,
        "legal": [game.legal_actions(state, s) for s in range(seats)],
        "views": [game.view(state, v) for v in [*range(seats), None]],
        "dump": game.dump(state),
        "deadline": {str(s): game.deadline_action(state, s) for s in acting},
    }


def game_fingerprint(game: Any, options: Mapping[str, Any], seed: int,
                     chooser: random.Random, digest: Any) -> int:
    """Play one random game of ``game``, feeding every observation into ``digest``; return steps.

    Raises:
        RuntimeError: when the game does not end within ``spec.max_length`` actions.
    """
    opts = game.validate_options(dict(options))
    seats = game.seats(opts)
    state = game.new_game(opts, seats, seed.to_bytes(8, "big"))
    for step in range(game.spec.max_length + 1):
        record = _step_record(game, state, seats)
        digest.update(_encode(record))
        if not record["to_act"]:
            outcome = game.outcome(state)
            digest.update(_encode(outcome.to_json() if outcome else None))
            return step
        seat = chooser.choice(record["to_act"])
        action = chooser.choice(record["legal"][seat])
        state, events = game.apply(state, seat, action)
        digest.update(_encode({"seat": seat, "action": action, "events": [
            [e.kind, e.data, sorted(e.visible_to) if e.visible_to is not None else None]
            for e in events]}))
    raise RuntimeError(f"{game.spec.id} did not end within {game.spec.max_length} actions")


def fingerprint(game_id: str, games: int = 200, seed: int = 0,
                options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Return ``{"bench", "game", "games", "steps", "options", "sha256"}`` over ``games`` games.

    Raises:
        KeyError: for an unregistered game id. ``ValueError`` (the engine's): for bad options.
    """
    game = GAMES[game_id]
    chooser = random.Random(seed)
    digest = hashlib.sha256()
    steps = sum(game_fingerprint(game, options or {}, seed + k, chooser, digest)
                for k in range(games))
    return {"bench": "fingerprint", "game": game_id, "games": games, "steps": steps,
            "options": dict(options or {}), "sha256": digest.hexdigest()}


def main(argv: Sequence[str] | None = None) -> int:
    """Print the fingerprint of one engine as a JSON line; return 0."""
    parser = argparse.ArgumentParser(prog="python -m bench.fingerprint", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=sorted(GAMES), help="engine id")
    parser.add_argument("--games", type=int, default=200, help="number of random games")
    parser.add_argument("--seed", type=int, default=0, help="first match seed (and chooser seed)")
    parser.add_argument("--options", default="{}", help="room options as a JSON object")
    args = parser.parse_args(argv)
    print(json.dumps(fingerprint(args.game, args.games, args.seed, json.loads(args.options))),
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
