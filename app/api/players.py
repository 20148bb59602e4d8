"""``/api/players``: create an identity (name + bearer token), read a player."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Request

from app.api.deps import ServiceDep, SessionDep
from app.api.errors import ERRORS
from app.api.json_body import JsonRoute
from app.api.ladder_schemas import PlayerProfile
from app.api.ladders import profile
from app.api.limits import RATE_LIMITED, spend_players
from app.api.params import IdPath
from app.api.schemas import PlayerCreated, PlayerIn
from app.auth import hash_token, new_token
from app.db import repositories as repo
from app.rooms.errors import RoomError

router = APIRouter(route_class=JsonRoute, prefix="/api/players", tags=["players"], responses=ERRORS)


@router.post("", status_code=201, response_model=PlayerCreated, responses=RATE_LIMITED)
async def create_player(body: PlayerIn, session: SessionDep, request: Request) -> dict:
    """Create a player; the answer carries its token (stored server-side only as SHA-256).

    A name the rule refuses is 422 ``validation_error`` (``app.api.player_name``) and spends
    none of the address's budget; 429 ``rate_limited`` past it (``app.api.limits``)."""
    spend_players(request)
    token = new_token()
    now = datetime.fromtimestamp(request.app.state.arena.clock.now(), tz=UTC)
    async with session.begin():
        player = await repo.add_player(session, body.name, hash_token(token), now)
    return {"id": player.id, "name": player.name, "token": token}


@router.get("/{player_id}", response_model=PlayerProfile)
async def get_player(player_id: IdPath, session: SessionDep, service: ServiceDep) -> dict:
    """Return ``{id, name, ratings, recent_matches}`` (``PlayerProfile``); 404
    ``player_not_found``, also for an id no row can have (0, -1, 2^31: ``repo.get_player``)."""
    player = await repo.get_player(session, player_id)
    if player is None:
        raise RoomError("player_not_found", f"No player has the id {player_id}.", 404)
    return await profile(session, player, service.catalog)
