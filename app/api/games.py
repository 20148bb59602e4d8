"""``GET /api/games``: the catalog (asked of the room service, the only engine importer)."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import ServiceDep
from app.api.json_body import JsonRoute
from app.api.schemas import GameOut
from app.rooms.catalog import Catalog
from app.rooms.errors import RoomError

router = APIRouter(route_class=JsonRoute, prefix="/api/games", tags=["games"])


@router.get("", response_model=list[GameOut], response_model_exclude_unset=True)
async def list_games(service: ServiceDep) -> list[dict]:
    """Return every hosted game's spec: ids, titles, player counts, option schema."""
    return service.catalog.specs()


def check_hosted(catalog: Catalog, game: str) -> None:
    """Check that ``game``, named in an address (a path such as ``/api/ladders/{game}``, or a
    list's ``?game=`` filter), is a game the server hosts.

    Raises:
        RoomError: ``unknown_game`` with status 404 (an address naming nothing; in a body, as
            for a new room, ``Catalog.game`` answers 422).
    """
    try:
        catalog.game(game)
    except RoomError as exc:
        raise RoomError(exc.code, exc.message, 404) from exc
