"""Balance runs: ``python -m tools.balance civilization --games 2000``.

Plays the game's greedy bot against itself on seeded matches and prints the round-1 start
player's win rate and each slot type's share of player-worker placements, then whether the
balance check of the rulings holds (start player 40–60 %, no slot type above 25 %).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Any

from engine.bots import greedy_bot
from engine.core import Rng

START_BOUNDS = (0.40, 0.60)
SLOT_SHARE_MAX = 0.25


def placed_slot(view: dict[str, Any], seat: int, action: dict[str, Any]) -> str | None:
    """Return the slot type a ``place`` action puts ``seat``'s worker on, else ``None``."""
    if action.get("type") != "place":
        return None
    slots = view["row"][action["card"]]["slots"]
    return next(s["slot"] for s in slots if s["faces"] == seat)


def play_match(game: Any, bots: list[Any], seed: bytes, slots: Counter) -> Any:
    """Play one match between ``bots`` (one per seat) and return its outcome; count placements."""
    state = game.new_game(game.validate_options({}), len(bots), seed)
    rngs = [Rng.derive(seed, "bot", seat) for seat in range(len(bots))]
    while True:
        acting = sorted(game.to_act(state))
        if not acting:
            return game.outcome(state)
        seat = acting[0]
        view = game.view(state, seat)
        action = bots[seat].choose(game, view, game.legal_actions(state, seat), rngs[seat])
        slot = placed_slot(view, seat, action)
        if slot:
            slots[slot] += 1
        state, _ = game.apply(state, seat, action)


def run(game_id: str, games: int, out=sys.stdout) -> bool:
    """Play ``games`` greedy-vs-greedy matches, print the figures and return whether they pass."""
    from engine.registry import get_game
    game = get_game(game_id)
    bots = [greedy_bot(game_id), greedy_bot(game_id)]
    slots: Counter = Counter()
    reasons: Counter = Counter()
    start_wins = 0
    began = time.perf_counter()
    for n in range(games):
        outcome = play_match(game, bots, f"balance/{game_id}/{n}".encode(), slots)
        reasons[outcome.reason] += 1
        start_wins += 0 in outcome.winners
    elapsed = time.perf_counter() - began
    rate = start_wins / games
    placements = sum(slots.values())
    print(f"{game_id}: {games} greedy-vs-greedy games in {elapsed:.1f} s", file=out)
    print(f"round-1 start player wins: {start_wins}/{games} = {rate:.1%}", file=out)
    print("endings: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()), file=out)
    print(f"player-worker placements: {placements}", file=out)
    for slot, count in slots.most_common():
        print(f"  {slot:<13} {count:>7}  {count / placements:6.1%}", file=out)
    top = max(slots.values()) / placements if placements else 0.0
    ok = START_BOUNDS[0] <= rate <= START_BOUNDS[1] and top <= SLOT_SHARE_MAX
    print(f"balance check: {'PASS' if ok else 'FAIL'} (start player 40-60 %, top slot "
          f"{top:.1%} <= 25 %)", file=out)
    return ok


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` and run; exit status 0 when the balance check passes, 1 otherwise."""
    parser = argparse.ArgumentParser(prog="python -m tools.balance", description=__doc__)
    parser.add_argument("game", help="engine id, e.g. civilization")
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args(argv)
    return 0 if run(args.game, args.games) else 1


if __name__ == "__main__":
    sys.exit(main())
