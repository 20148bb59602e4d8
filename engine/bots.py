"""Computer players behind one small interface every game can implement.

A bot decides from its seat's ``view`` and ``legal`` actions only (ARCHITECTURE.md: "Bots decide
from their seat's view and legal actions only, never from raw state"); a bot that looks ahead
rebuilds a state from the view itself (e.g. ``GAME.state_from_view``).
"""

from __future__ import annotations

from typing import Any, Mapping, Protocol, Sequence

from engine.core import Rng

__all__ = ["Bot", "RandomBot", "greedy_bot", "GREEDY_GAMES"]


class Bot(Protocol):
    """A computer player."""

    def choose(self, game: Any, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
               rng: Rng) -> dict[str, Any]:
        """Return one of ``legal`` for the seat ``view`` belongs to, using ``rng`` for chance."""


class RandomBot:
    """Plays a uniformly random legal action (works for every game)."""

    def choose(self, game: Any, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
               rng: Rng) -> dict[str, Any]:
        """Return ``rng.choice(legal)``; ``ValueError`` when ``legal`` is empty."""
        if not legal:
            raise ValueError("No legal action to choose from.")
        return dict(rng.choice(list(legal)))


def _civilization() -> Bot:
    from engine.civilization.bot import CivilizationGreedyBot
    return CivilizationGreedyBot()


GREEDY_GAMES = {"civilization": _civilization}


def greedy_bot(game_id: str) -> Bot:
    """Return the greedy bot of ``game_id``, or a ``RandomBot`` for a game without one."""
    factory = GREEDY_GAMES.get(game_id)
    return factory() if factory else RandomBot()
