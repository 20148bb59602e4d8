"""Reverse Curse ladder rows (``rc_sets``) for the sets an applied step resolved.

The engine's ``engine.reverse_curse.ladder(state)`` lists every resolved set as
``{set, first_side, field: [{card, seat, side}] (T1 first), result, position_after}``; the
step resolved those present after it and not before it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Game
from engine.reverse_curse import ladder as reverse_curse_ladder
from engine.reverse_curse import resolved_count as reverse_curse_count

#: ``{game: (ladder(state, start) -> records from the start-th, resolved_count(state))}``.
LADDERS: dict[str, tuple[Callable[[Any, int], list[dict[str, Any]]], Callable[[Any], int]]] = {
    "reverse_curse": (reverse_curse_ladder, reverse_curse_count),
}
LADDER_GAMES = frozenset(LADDERS)


def resolved_sets(game: Game, before: Any, after: Any) -> list[dict[str, Any]]:
    """Return the ladder records of the sets resolved between states ``before`` and ``after``.

    Empty for games without a ladder. Builds only the new records (a match's ladder grows with
    every set; building it twice per action was 15 % of the server's CPU under load:
    bench/HISTORY.md section 3).
    """
    functions = LADDERS.get(game.spec.id)
    if functions is None:
        return []
    ladder, count = functions
    return ladder(after, count(before))
