"""The greedy bot for Reversed Civilizations (one-ply lookahead on a fixed score).

The score was written down before any balance tuning and is not changed to pass the balance
check (rulings, "Balance check"):

    score(seat) = 10 * leaders placed + 1 * resources in total + 5 * player workers unlocked
    value       = score(me) - score(opponent), or +1000 / -1000 once the match is won / lost

For each legal action the bot applies it to a state drawn from its own view only (``GAME.sample``,
the unseen deck in an order drawn from ``sample_rng``), then finishes its own follow-up decisions
of that move greedily (the answer with the best immediate value, the first on a tie), and scores
the state reached when the decision passes to someone else. It plays the best action; ties are
broken uniformly with the bot's ``Rng``. It never sees the opponent's reply nor clean-up
rotations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.bots import best_action
from engine.civilization.game import CivilizationGame
from engine.civilization.state import State, leaders_placed, total
from engine.core import Rng

__all__ = ["score", "sample_rng", "CivilizationGreedyBot", "LEADER_WEIGHT", "RESOURCE_WEIGHT", "WORKER_WEIGHT"]

LEADER_WEIGHT = 10
RESOURCE_WEIGHT = 1
WORKER_WEIGHT = 5
WIN = 1000


def score(state: State, seat: int) -> int:
    """Return ``seat``'s value of ``state`` (see the module docstring for the formula)."""
    if state.phase == "over":
        return WIN if state.winner == seat else -WIN

    def own(s: int) -> int:
        return (LEADER_WEIGHT * leaders_placed(state, s) + RESOURCE_WEIGHT * total(state, s)
                + WORKER_WEIGHT * state.unlocked[s])
    return own(seat) - own(1 - seat)


class CivilizationGreedyBot:
    """A ``Bot`` (engine/bots.py) playing the greedy one-ply policy described above."""

    def __init__(self, game: CivilizationGame | None = None) -> None:
        self._game = game or CivilizationGame()

    def _finish_move(self, state: State, seat: int) -> State:
        """Answer ``seat``'s remaining follow-ups greedily (first best on a tie)."""
        game = self._game
        while state.phase != "over" and state.queue and state.queue[0].seat == seat:
            legal = game.legal_actions(state, seat)
            best, best_value = state, None
            for action in legal:
                after, _ = game.apply(state, seat, action)
                value = score(after, seat)
                if best_value is None or value > best_value:
                    best, best_value = after, value
            state = best
        return state

    def evaluate(self, state: State, seat: int, action: Mapping[str, Any]) -> int:
        """Return the value of playing ``action`` from ``state`` for ``seat``."""
        after, _ = self._game.apply(state, seat, action)
        return score(self._finish_move(after, seat), seat)

    def choose(self, game: Any, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
               rng: Rng) -> dict[str, Any]:
        """Return the legal action with the best value for ``view["seat"]`` (uniform among ties).

        Raises:
            ValueError: when ``legal`` is empty.
        """
        if len(legal) == 1:
            return dict(legal[0])
        if not legal:
            raise ValueError("No legal action to choose from.")
        state = self._game.sample(view, view["seat"], sample_rng(view))
        return best_action(legal, lambda action: self.evaluate(state, view["seat"], action), rng)


def sample_rng(view: Mapping[str, Any]) -> Rng:
    """Return the stream the bot draws its sampled deck from: ``Rng.derive(b"civilization-bot",
    view["actions"])``, apart from the tie-breaking ``rng`` so that ties are broken by the same
    draws whatever the deck. The value of a move never reads the deck's order (``score`` counts
    leaders, resources and workers; a card revealed during the follow-ups only waits to be
    oriented), so any order gives the same choice."""
    return Rng.derive(b"civilization-bot", view["actions"])
