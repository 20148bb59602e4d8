"""``/api/rooms/{code}/bots``: fill the free seats of an open room with bots (thin route)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.api.deps import CurrentPlayer, ServiceDep
from app.api.errors import ERRORS
from app.api.json_body import JsonRoute
from app.api.schemas import BodyIn, BotLevel, RoomOut
from app.rooms.bots import fill_with_bots

router = APIRouter(route_class=JsonRoute, prefix="/api/rooms", tags=["rooms"],
                   responses={**ERRORS, 403: ERRORS[401]})


class BotsIn(BodyIn):
    """The level of the bots to seat, weakest first: ``easy`` (random), ``normal`` (greedy),
    ``hard`` (search), ``expert`` (a longer search) — ``engine.bots.LEVELS``; another value is
    422 ``validation_error`` and seats nobody."""

    level: BotLevel


@router.post("/{code}/bots", response_model=RoomOut)
async def fill_bots(code: str, body: BotsIn, player: CurrentPlayer, service: ServiceDep,
                    request: Request) -> dict:
    """Seat a bot of ``level`` in every free seat (the creator only; 403 ``not_room_creator``,
    409 ``room_not_open``/``no_free_seat``); the match starts once every seat is filled.
    A match with a bot is not rated."""
    arena = request.app.state.arena
    return await fill_with_bots(service, arena.sessions, code, player.id, body.level,
                                arena.clock.now())
