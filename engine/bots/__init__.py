"""Computer players behind one small interface every game can implement.

A bot decides from its seat's ``view`` and ``legal`` actions only (ARCHITECTURE.md: "Bots decide
from their seat's view and legal actions only, never from raw state"); a bot that looks ahead
draws a state from the view itself (``GAME.sample``).

Levels, weakest first (``LEVELS``):

- ``easy``: ``RandomBot``, a uniformly random legal action;
- ``normal``: a one-ply bot that scores each legal action with a fixed function of the view and
  the action (``ScoringBot`` with the game's ``engine/<game>/bot.py`` ``score``), or, for
  Reversed Civilizations, its own lookahead bot. Ties are broken with the bot's ``Rng``;
- ``hard`` and ``expert``: information-set search with ``BUDGETS[level]`` iterations per
  decision (expert about five times hard), so play is reproducible from the seed.

``decide`` is the one entry point a room (or a worker process) calls: pure, from the seat's view
and legal actions and a seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from engine.core import Rng

__all__ = ["Bot", "RandomBot", "ScoringBot", "best_action", "greedy_bot", "make_bot",
           "GREEDY_GAMES", "decide", "LEVELS", "BUDGETS", "iterations", "search_profile", "Score", "StopCheck"]

#: The bot levels a room can seat, weakest first.
LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "expert")

#: Search iterations per decision of the search levels (expert about five times hard).
BUDGETS: dict[str, int] = {"hard": 200, "expert": 1000}

#: ``should_stop() -> bool``: a safety net the caller may pass (e.g. a worker's CPU-time cap);
#: the search asks it between iterations and stops when it returns True.
StopCheck = Callable[[], bool]

#: ``score(view, action) -> number``: higher is better for the seat the view belongs to.
Score = Callable[[Mapping[str, Any], Mapping[str, Any]], float]


class Bot(Protocol):
    """A computer player."""

    def choose(self, game: Any, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
               rng: Rng) -> dict[str, Any]:
        """Return one of ``legal`` for the seat ``view`` belongs to, using ``rng`` for chance."""


def best_action(legal: Sequence[dict[str, Any]], value: Callable[[dict[str, Any]], float],
                rng: Rng) -> dict[str, Any]:
    """Return a copy of the action of ``legal`` with the highest ``value(action)``.

    Ties are broken uniformly with one ``rng.choice`` among the best, in ``legal``'s order, so
    the pick is deterministic from the bot's ``Rng`` (module docstring: "Ties are broken with
    the bot's ``Rng``").

    Raises:
        ValueError: when ``legal`` is empty.
    """
    if not legal:
        raise ValueError("No legal action to choose from.")
    values = [value(action) for action in legal]
    top = max(values)
    return dict(rng.choice([a for a, v in zip(legal, values) if v == top]))


class RandomBot:
    """Plays a uniformly random legal action (works for every game)."""

    def choose(self, game: Any, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
               rng: Rng) -> dict[str, Any]:
        """Return ``rng.choice(legal)``; ``ValueError`` when ``legal`` is empty."""
        if not legal:
            raise ValueError("No legal action to choose from.")
        return dict(rng.choice(list(legal)))


class ScoringBot:
    """A greedy one-ply bot: the legal action with the highest ``score(view, action)``.

    Args:
        score: the game's fixed scoring function (documented in its ``bot.py``); it reads only
            the seat's view and the candidate action.
    """

    def __init__(self, score: Score) -> None:
        self._score = score

    def choose(self, game: Any, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
               rng: Rng) -> dict[str, Any]:
        """Return a best-scoring action of ``legal`` (uniform among ties, drawn from ``rng``).

        Raises:
            ValueError: when ``legal`` is empty.
        """
        return best_action(legal, lambda action: self._score(view, action), rng)


def _civilization() -> Bot:
    from engine.civilization.bot import CivilizationGreedyBot
    return CivilizationGreedyBot()


def _scoring(module: str) -> Callable[[], Bot]:
    def factory() -> Bot:
        from importlib import import_module
        return ScoringBot(import_module(f"engine.{module}.bot").score)
    return factory


GREEDY_GAMES: dict[str, Callable[[], Bot]] = {
    "civilization": _civilization,
    "reverse_curse": _scoring("reverse_curse"),
    "grid_reversal": _scoring("grid_reversal"),
    "numgr": _scoring("numgr"),
    "zipai": _scoring("zipai"),
    "mahjong": _scoring("mahjong"),
}


def greedy_bot(game_id: str) -> Bot:
    """Return the greedy bot of ``game_id``, or a ``RandomBot`` for a game without one."""
    factory = GREEDY_GAMES.get(game_id)
    return factory() if factory else RandomBot()


def search_profile(game_id: str) -> Any:
    """Return the search profile of ``game_id`` (``engine.bots.profiles``), built once."""
    if game_id not in _PROFILES:
        from engine.bots.profiles import profile
        _PROFILES[game_id] = profile(game_id)
    return _PROFILES[game_id]


_PROFILES: dict[str, Any] = {}


def iterations(game_id: str, level: str) -> int:
    """Return the search iterations per decision of ``level`` in ``game_id``:
    ``BUDGETS[level]`` times the game's ``budget_share`` (at least 1).

    Raises:
        KeyError: for a level without a budget (easy, normal).
    """
    return max(1, round(BUDGETS[level] * search_profile(game_id).budget_share))


def make_bot(game_id: str, level: str, should_stop: StopCheck | None = None) -> Bot:
    """Return the bot of ``level`` (one of ``LEVELS``) for ``game_id``.

    Args:
        should_stop: for the search levels, asked between iterations; the search stops early
            (and still returns a legal action) once it returns True. Ignored by easy/normal.

    Raises:
        ValueError: for a level not in ``LEVELS``.
    """
    if level == "easy":
        return RandomBot()
    if level == "normal":
        return greedy_bot(game_id)
    if level in BUDGETS:
        from engine.bots.search import SearchBot
        return SearchBot(search_profile(game_id), iterations(game_id, level), should_stop)
    raise ValueError(f"Unknown bot level {level!r}; choose one of {', '.join(LEVELS)}.")


def decide(game_id: str, level: str, view: Mapping[str, Any], legal: Sequence[dict[str, Any]],
           seed: bytes, should_stop: StopCheck | None = None) -> dict[str, Any]:
    """Return the action of ``legal`` the bot of ``level`` plays for the seat ``view`` is of.

    Pure and deterministic: the same arguments give the same action (the bot's ``Rng`` is
    seeded with ``seed``), as long as ``should_stop`` never fires. It is what a worker process
    runs: it gets only the seat's view. ``should_stop`` is the caller's safety net (the engine
    never reads a clock); see ``make_bot``.

    Raises:
        ValueError: for an unknown level, or when ``legal`` is empty.
    """
    from engine.registry import get_game
    bot = make_bot(game_id, level, should_stop)
    return bot.choose(get_game(game_id), view, legal, Rng(seed))
