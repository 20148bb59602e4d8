"""Room options of Grid Reversal and the game's spec (facts as data)."""

from __future__ import annotations

from engine.core import GameSpec, OptionSpec

from .data import DRAW_PER_ROUND, HAND_LIMIT, ROUND_LIMIT

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("turn_seconds", "int", 60, minimum=10, maximum=600,
               label="Seconds per stage or setup choice"),
    OptionSpec("width", "choice", 5, choices=(3, 5, 7), label="Board width (odd: S is the middle)"),
    OptionSpec("depth", "int", 3, minimum=2, maximum=4, label="Rows of each player's board"),
    OptionSpec("number_copies", "int", 8, minimum=4, maximum=12,
               label="Copies of each number card 1-4"),
    OptionSpec("effect_copies", "int", 2, minimum=0, maximum=4,
               label="Copies of each effect card"),
)


def _max_length() -> int:
    """Return a bound on the actions of one match.

    Setup takes 4 actions. A round has at most ``2 * DRAW_PER_ROUND`` discards per player and two
    stages; a stage starts with at most ``HAND_LIMIT`` cards in each hand and nobody draws in it,
    so it holds at most 4 plays, 4 closing declines, 8 Bans and the end (17). Rounds stop at
    ``ROUND_LIMIT``; a standoff stage is at most offer, answer, swap (3 < 17).
    """
    stage = HAND_LIMIT + HAND_LIMIT + 2 * HAND_LIMIT + 1
    per_round = 2 * DRAW_PER_ROUND + 2 * stage
    return 4 + ROUND_LIMIT * per_round


SPEC = GameSpec(
    id="grid_reversal",
    titles={"en": "Grid Reversal", "zh": "逆转", "ja": "逆転"},
    min_players=2,
    max_players=2,
    hidden_information=True,
    max_length=_max_length(),
    options=OPTIONS,
)
