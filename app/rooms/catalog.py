"""The games the server hosts (``engine.registry``), looked up by id."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rooms.errors import RoomError
from engine.core import Game


class Catalog:
    """The hosted games: ``{engine id: GAME}`` (default: ``engine.registry.GAMES``)."""

    def __init__(self, games: Mapping[str, Game] | None = None) -> None:
        if games is None:
            from engine.registry import GAMES
            games = GAMES
        self._games = dict(games)

    def specs(self) -> list[dict[str, Any]]:
        """Return every game's ``GameSpec.to_json()``, by id."""
        return [self._games[gid].spec.to_json() for gid in sorted(self._games)]

    def game(self, game_id: str) -> Game:
        """Return the game ``game_id``.

        Raises:
            RoomError: ``unknown_game`` (422).
        """
        if game_id not in self._games:
            raise RoomError("unknown_game", f"No game is called {game_id!r}.", 422)
        return self._games[game_id]

    def options(self, game_id: str, raw: Mapping[str, Any] | None) -> tuple[dict[str, Any], int]:
        """Return the full validated options and the seat count they give.

        Raises:
            RoomError: ``unknown_game`` or ``bad_option`` (422, the engine's message).
        """
        game = self.game(game_id)
        try:
            options = game.validate_options(raw)
        except ValueError as exc:
            raise RoomError("bad_option", str(exc), 422) from exc
        return options, game.seats(options)

    def teams(self, game_id: str, options: Mapping[str, Any], seats: int) -> list[list[int]]:
        """Return the seats that play as one side, in side order (the engine's ``sides``:
        Reverse Curse 2v2 ``[[0, 2], [1, 3]]``; one seat per team in a game without teams),
        for a room or match of ``game_id`` with ``seats`` seats and these validated options.

        Raises:
            RoomError: ``unknown_game`` (422).
        """
        return [list(side) for side in self.game(game_id).sides(options, seats)]
