"""Reverse Curse ladder rows (``rc_sets``) for the sets an applied step resolved.

The engine's ``engine.reverse_curse.ladder(state)`` lists every resolved set as
``{set, first_side, field: [{card, seat, side}] (T1 first), result, position_after}``; the
step resolved those present after it and not before it.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.core import Game
from engine.reverse_curse import ladder as reverse_curse_ladder

LADDERS: dict[str, Callable[[Any], list[dict[str, Any]]]] = {
    "reverse_curse": reverse_curse_ladder,
}
LADDER_GAMES = frozenset(LADDERS)


def resolved_sets(game: Game, before: Any, after: Any) -> list[dict[str, Any]]:
    """Return the ladder records of the sets resolved between states ``before`` and ``after``.

    Empty for games without a ladder.
    """
    ladder = LADDERS.get(game.spec.id)
    if ladder is None:
        return []
    return ladder(after)[len(ladder(before)):]
