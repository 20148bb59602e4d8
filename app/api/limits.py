"""Rate limits of the creating routes: players and rooms per client IP.

Each creating route spends one unit of its budget once the request is valid, before it stores
anything: ``spend_players(request)`` first in ``POST /api/players``, ``spend_rooms(request)``
in ``POST /api/rooms`` once the engine has accepted the game and its options
(``RoomService.create_room``'s ``admit``). A route's body runs only once FastAPI has validated
the request (the body's schema, the name rule, and for a room the player's token), so a request
refused as malformed (422 ``validation_error``, a body that is not JSON), unauthenticated (401)
or for a game or options the engine refuses (422 ``unknown_game``, ``bad_option``) spends
nothing: the budget bounds what the server acts on — players and rooms made — not refusals,
which store nothing and cost what any refused request costs. (A route dependency would not do:
FastAPI runs it before it validates the body.) Over the limit the request is answered
``429 {"detail": {"code": "rate_limited", "message"}}`` before the body is acted on. The budgets
are the settings ``players_per_minute`` and ``rooms_per_minute`` (``app.limits``).
"""

from __future__ import annotations

import math
from typing import Any

from fastapi import Request

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


def spend_players(request: Request) -> None:
    """Spend one of the client's ``POST /api/players`` (setting ``players_per_minute``).

    Raises:
        RoomError: ``rate_limited`` (429) when none is left.
    """
    _check(request.app.state.limits.players, request, "players")


def spend_rooms(request: Request) -> None:
    """Spend one of the client's ``POST /api/rooms`` (setting ``rooms_per_minute``).

    Raises:
        RoomError: ``rate_limited`` (429) when none is left.
    """
    _check(request.app.state.limits.rooms, request, "rooms")
