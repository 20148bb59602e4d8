"""Seeded positions for the search tests: greedy-vs-greedy playouts stopped at a given step."""

from __future__ import annotations

from typing import Any

from engine.bots import greedy_bot
from engine.core import Rng
from engine.registry import GAMES

#: Options per game for the search tests (zipai and mahjong: the shortest matches).
OPTIONS: dict[str, dict[str, Any]] = {"zipai": {"hands": 1}, "mahjong": {"hands": 4},
                                      "mahjong_mcr": {"rules": "mcr"}}


def game_of(name: str) -> Any:
    """Return the engine of a test game name (``mahjong_mcr`` is mahjong)."""
    return GAMES["mahjong" if name.startswith("mahjong") else name]


def position(name: str, seed: bytes, step: int) -> tuple[Any, int]:
    """Return ``(state, seat)``: the match of ``name`` dealt from ``seed``, played by the greedy
    bot on every seat (the lowest acting seat first, its ``Rng`` derived from the seed, the seat
    and the step) for ``step`` actions; ``seat`` is the lowest seat to act then.

    Raises:
        ValueError: when the match ends before ``step``.
    """
    game = game_of(name)
    options = game.validate_options(OPTIONS.get(name, {}))
    state = game.new_game(options, game.seats(options), seed)
    bots = {}
    for n in range(step + 1):
        acting = sorted(game.to_act(state))
        if not acting:
            raise ValueError(f"{name}: the match ended at step {n}.")
        seat = acting[0]
        if n == step:
            return state, seat
        bot = bots.setdefault(seat, greedy_bot(game.spec.id))
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, bot.choose(game, view, legal,
                                                      Rng.derive(seed, "bot", seat, n)))
    raise AssertionError("unreachable")
