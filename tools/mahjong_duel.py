"""The normal (greedy) bot against the easy (random) one at mahjong: ``python -m tools.mahjong_duel --rules hebei --hands 400``.

Plays ``--hands`` seeded hands (the first hand of a match dealt from ``duel/<rules>/<n>``); in
hand ``n`` the greedy bot holds seats ``n % 4`` and ``(n + 2) % 4`` and the random bot the other
two, so each seat and each seat wind is greedy as often as random. The bots decide from their
seat's view and legal actions only (``engine.bots``). Prints the mean score per hand of a greedy
seat and of a random seat, and the mean per-hand difference (the two greedy seats' mean less the
two random seats' mean) with its 95 % interval (normal approximation, 1.96 standard errors).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from engine.bots import make_bot
from engine.core import Rng
from engine.mahjong import GAME

SEATS = 4


def greedy_seats(n: int) -> tuple[int, int]:
    """The two seats the greedy bot holds in hand ``n``."""
    return n % SEATS, (n + 2) % SEATS


def play_hand(rules: str, n: int) -> dict[str, Any]:
    """Play hand ``n`` (table in the module docstring); return its score sheet."""
    seed = f"duel/{rules}/{n}".encode()
    greedy = greedy_seats(n)
    bots = [make_bot("mahjong", "normal" if s in greedy else "easy") for s in range(SEATS)]
    options = GAME.validate_options({"rules": rules, "hands": 4})
    state = GAME.new_game(options, SEATS, seed)
    step = 0
    while not state.results:
        seat = min(GAME.to_act(state))
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        action = bots[seat].choose(GAME, view, legal, Rng.derive(seed, "bot", seat, step))
        state, _ = GAME.apply(state, seat, action)
        step += 1
    return state.results[0]


def summary(differences: Sequence[float]) -> tuple[float, float, float]:
    """Return (mean, low, high): the mean and its 95 % interval (1.96 standard errors)."""
    mean = statistics.fmean(differences)
    half = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences))
    return mean, mean - half, mean + half


def run(rules: str, hands: int, out: Any = sys.stdout) -> tuple[float, float, float]:
    """Play ``hands`` hands, print the figures and return the difference's (mean, low, high)."""
    began = time.perf_counter()
    greedy_scores, random_scores, differences = [], [], []
    wins = {"greedy": 0, "random": 0, "draw": 0}
    for n in range(hands):
        sheet = play_hand(rules, n)
        scores, greedy = sheet["scores"], greedy_seats(n)
        mine = [scores[s] for s in greedy]
        theirs = [scores[s] for s in range(SEATS) if s not in greedy]
        greedy_scores += mine
        random_scores += theirs
        differences.append(statistics.fmean(mine) - statistics.fmean(theirs))
        winner = sheet["winner"]
        wins["draw" if winner is None else "greedy" if winner in greedy else "random"] += 1
    mean, low, high = summary(differences)
    print(f"mahjong {rules}: {hands} hands in {time.perf_counter() - began:.0f} s", file=out)
    print(f"  mean score per hand: greedy seat {statistics.fmean(greedy_scores):+.2f}, "
          f"random seat {statistics.fmean(random_scores):+.2f}", file=out)
    print(f"  greedy − random per hand: {mean:+.2f} (95 % interval {low:+.2f} … {high:+.2f})",
          file=out)
    print(f"  hands won by a greedy seat {wins['greedy']}, by a random seat {wins['random']}, "
          f"drawn {wins['draw']}", file=out)
    return mean, low, high


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point; exit status 0 when greedy's lead is above 0 at 95 %."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=("hebei", "mcr"), default="hebei")
    parser.add_argument("--hands", type=int, default=400)
    args = parser.parse_args(argv)
    _, low, _ = run(args.rules, args.hands)
    return 0 if low > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
