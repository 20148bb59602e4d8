"""Room management routes: ``POST /api/rooms/{code}/rematch`` ("play again").

Removing a seated player before the start is ``DELETE /api/rooms/{code}/seats/{seat}`` by the
room's creator (``app.api.rooms``); private rooms are chosen at creation (``RoomIn.private``).
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.api.deps import CurrentPlayer
from app.api.errors import ERRORS
from app.api.json_body import JsonRoute
from app.api.schemas import RoomOut

router = APIRouter(route_class=JsonRoute, prefix="/api/rooms", tags=["rooms"], responses=ERRORS)


@router.post("/{code}/rematch", response_model=RoomOut)
async def rematch(code: str, player: CurrentPlayer, request: Request) -> dict:
    """Ask to play again after the match; the rematch starts (same room, same seats) when every
    seated person asked. 404 ``room_not_found``; 409 ``room_not_finished``, ``not_seated``."""
    return await request.app.state.manager.rematch(code, player.id)
