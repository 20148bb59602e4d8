"""``/api/rooms``: create, list and read rooms; claim and leave seats (thin: the service acts)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request

from app.api.deps import CurrentPlayer, ServiceDep
from app.api.errors import ERRORS
from app.api.json_body import JsonRoute
from app.api.limits import RATE_LIMITED, spend_rooms
from app.api.params import IN_DIGITS, CursorQuery, SeatPath, parse_cursor
from app.api.schemas import RoomIn, RoomOut, RoomPage

router = APIRouter(route_class=JsonRoute, prefix="/api/rooms", tags=["rooms"], responses=ERRORS)

RoomStatusQuery = Literal["open", "playing", "finished", "abandoned"]


@router.post("", status_code=201, response_model=RoomOut, responses=RATE_LIMITED)
async def create_room(body: RoomIn, player: CurrentPlayer, service: ServiceDep,
                      request: Request) -> dict:
    """Open a room for ``game`` with ``options`` (validated by the engine: 422
    ``unknown_game``, ``bad_option``); 429 ``rate_limited`` past the address's budget, which a
    refused request (a body refused by its schema: 422 ``validation_error``; a missing token:
    401; a game or options the engine refuses) does not spend (``app.api.limits``)."""
    return await service.create_room(player.id, body.game, body.options, private=body.private,
                                     on_timeouts=body.on_timeouts,
                                     admit=lambda: spend_rooms(request))


@router.get("", response_model=RoomPage)
async def list_rooms(service: ServiceDep, status: RoomStatusQuery | None = None,
                     cursor: CursorQuery = None,
                     limit: Annotated[int, Query(ge=1, le=200), IN_DIGITS] = 50) -> dict:
    """Return ``{items, next_cursor}``: public rooms newest first, ``status`` if given, else
    the open and playing ones; ``next_cursor`` is ``null`` on the last page (422
    ``bad_cursor`` for a cursor this server did not give)."""
    items, after = await service.rooms([status] if status else ["open", "playing"], limit,
                                       parse_cursor(cursor))
    return {"items": items, "next_cursor": None if after is None else str(after)}


@router.get("/{code}", response_model=RoomOut)
async def get_room(code: str, service: ServiceDep) -> dict:
    """Return one room; 404 ``room_not_found``."""
    return await service.room(code)


@router.post("/{code}/seats/{seat}", response_model=RoomOut)
async def claim_seat(code: str, seat: SeatPath, player: CurrentPlayer, service: ServiceDep) -> dict:
    """Claim ``seat`` (404 ``no_such_seat``; 409 ``seat_taken``/``already_seated``/
    ``room_not_open``); the match starts when every seat is filled. Claiming a seat one holds
    already (a retry after a lost answer) changes nothing and is answered with the room as it
    is now, whatever its status since."""
    return await service.claim_seat(code, seat, player.id)


@router.delete("/{code}/seats/{seat}", response_model=RoomOut)
async def leave_seat(code: str, seat: SeatPath, player: CurrentPlayer, service: ServiceDep) -> dict:
    """Leave ``seat`` before the start (404 ``no_such_seat``; 409 ``not_seated`` for a seat
    someone else holds, the creator excepted; 409 ``room_not_open`` once the match started or
    the room closed, ``match_ended`` once it is over). Leaving a seat of an open room that
    nobody holds (a retry after a lost answer) changes nothing and is answered with the room
    as it is now."""
    return await service.leave_seat(code, seat, player.id)
