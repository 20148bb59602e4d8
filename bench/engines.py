"""Engine speed: random full games per registered engine, games/s and actions/s on one core.

An *action* is what the server does for one move: ``legal_actions``
of the acting seat + ``apply`` of a random one of them + that seat's ``view`` of the new state.
``to_act`` (needed to pick the acting seat) and ``new_game`` are inside the timed loop too, so
the figures are a slight under-estimate of the three calls alone.

Usage::

    python -m bench.engines [--game ID ...] [--seconds N] [--seed N]

prints one JSON line per engine: ``{"bench": "engines", "game", "games", "actions", "seconds",
"cpu_seconds", "games_per_s", "actions_per_s", "actions_per_cpu_s", "target_actions_per_s",
"met"}``. The process is single-threaded, so ``actions_per_cpu_s`` is the per-core figure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.registry import GAMES

#: The targets, actions per second per core (engines without a target report ``null``).
TARGETS: dict[str, int] = {"reverse_curse": 20_000, "zipai": 10_000}


@dataclass(frozen=True)
class EngineRun:
    """The totals of one engine's timed run.

    Attributes:
        game: the engine id. games: finished games. actions: actions taken (see module doc).
        seconds: wall-clock seconds. cpu_seconds: this process's CPU seconds over the run.
    """

    game: str
    games: int
    actions: int
    seconds: float
    cpu_seconds: float

    def to_json(self) -> dict[str, Any]:
        """Return the JSON line's fields; rates are per wall second and per CPU second."""
        target = TARGETS.get(self.game)
        per_cpu = self.actions / self.cpu_seconds if self.cpu_seconds else 0.0
        return {
            "bench": "engines", "game": self.game, "games": self.games,
            "actions": self.actions, "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "games_per_s": round(self.games / self.seconds, 2),
            "actions_per_s": round(self.actions / self.seconds),
            "actions_per_cpu_s": round(per_cpu),
            "target_actions_per_s": target,
            "met": None if target is None else per_cpu >= target,
        }


def play_random_game(game: Any, seed: int, chooser: random.Random) -> int:
    """Play one full game of ``game`` with uniformly random legal actions; return its actions.

    Args:
        game: a registered ``engine.core.Game``.
        seed: the match seed as an int (8 bytes big-endian, like the contract test).
        chooser: the bench's own random source for seats and actions (not the engine's).

    Raises:
        RuntimeError: when the game does not end within ``spec.max_length`` actions or a seat
            that is to act has no legal action (either is an engine bug).
    """
    options = game.validate_options({})
    state = game.new_game(options, game.seats(options), seed.to_bytes(8, "big"))
    for taken in range(game.spec.max_length + 1):
        acting = sorted(game.to_act(state))
        if not acting:
            return taken
        seat = chooser.choice(acting)
        legal = game.legal_actions(state, seat)
        if not legal:
            raise RuntimeError(f"{game.spec.id}: seat {seat} is to act with no legal action")
        state, _ = game.apply(state, seat, chooser.choice(legal))
        game.view(state, seat)
    raise RuntimeError(f"{game.spec.id} did not end within {game.spec.max_length} actions")


def bench_engine(game_id: str, seconds: float, seed: int = 0) -> EngineRun:
    """Play random games of ``game_id`` for about ``seconds`` (whole games only).

    Raises:
        KeyError: for an unregistered game id.
    """
    game = GAMES[game_id]
    chooser = random.Random(seed)
    games = actions = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds or games == 0:
        actions += play_random_game(game, seed + games, chooser)
        games += 1
    return EngineRun(game_id, games, actions, time.perf_counter() - wall0,
                     time.process_time() - cpu0)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the engine benchmark; print one JSON line per engine; return 0.

    Exit status is 0 even when a target is missed: the figures go to ``bench/RESULTS.md``.
    """
    parser = argparse.ArgumentParser(prog="python -m bench.engines", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=sorted(GAMES),
                        help="engine id (repeatable; default: every registered engine)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per engine")
    parser.add_argument("--seed", type=int, default=0, help="first match seed")
    args = parser.parse_args(argv)
    for game_id in args.game or sorted(GAMES):
        try:
            line = bench_engine(game_id, args.seconds, args.seed).to_json()
        except Exception as exc:  # an engine still being written must not stop the others
            line = {"bench": "engines", "game": game_id, "error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
