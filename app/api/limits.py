"""Rate limits of the creating routes: players and rooms per client IP.

Used as route dependencies: ``dependencies=[LIMIT_PLAYERS]`` on ``POST /api/players`` and
``[LIMIT_ROOMS]`` on ``POST /api/rooms``. Over the limit the request is answered
``429 {"detail": {"code": "rate_limited", "message"}}`` before the body is acted on. The budgets
are the settings ``players_per_minute`` and ``rooms_per_minute`` (``app.limits``).
"""

from __future__ import annotations

import math
from typing import Any

from fastapi import Depends, Request

from app.api.schemas import ErrorOut
from app.limits import RateByKey, client_ip
from app.rooms.errors import RoomError

#: The extra documented answer of a rate-limited route (OpenAPI).
RATE_LIMITED: dict[int | str, dict[str, Any]] = {429: {"model": ErrorOut, "description": "Too many requests from this address"}}


def _check(limit: RateByKey, request: Request, what: str) -> None:
    """Count one request of the client; raise when it is over ``limit``.

    Raises:
        RoomError: ``rate_limited`` (429), naming the seconds to wait.
    """
    wait = limit.take(client_ip(request))
    if wait > 0:
        raise RoomError("rate_limited",
                        f"Too many new {what} from this address: at most {limit.count} a "
                        f"minute. Try again in {math.ceil(wait)} s.", 429, math.ceil(wait))


async def limit_players(request: Request) -> None:
    """Dependency of ``POST /api/players`` (setting ``players_per_minute``)."""
    _check(request.app.state.limits.players, request, "players")


async def limit_rooms(request: Request) -> None:
    """Dependency of ``POST /api/rooms`` (setting ``rooms_per_minute``)."""
    _check(request.app.state.limits.rooms, request, "rooms")


LIMIT_PLAYERS = Depends(limit_players)
LIMIT_ROOMS = Depends(limit_rooms)
