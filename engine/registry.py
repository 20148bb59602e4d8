"""The explicit game registry: engine id -> the game's ``GAME`` object (no import side effects).

Every registered game is covered by ``tests/engine/test_contract.py``.
"""

from __future__ import annotations

from engine.civilization import GAME as CIVILIZATION
from engine.core import Game
from engine.grid_reversal import GAME as GRID_REVERSAL
from engine.mahjong import GAME as MAHJONG
from engine.numgr import GAME as NUMGR
from engine.reverse_curse import GAME as REVERSE_CURSE
from engine.zipai import GAME as ZIPAI

GAMES: dict[str, Game] = {
    game.spec.id: game
    for game in (
        NUMGR,
        REVERSE_CURSE,
        CIVILIZATION,
        ZIPAI,
        GRID_REVERSAL,
        MAHJONG,
    )
}


def get_game(game_id: str) -> Game:
    """Return the registered game ``game_id``.

    Raises:
        KeyError: when no game has that id.
    """
    return GAMES[game_id]
