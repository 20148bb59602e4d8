"""Lasting identity and "my games": thin routes over ``app.accounts``.

- ``GET /api/account`` (auth): ``{id, name, claimed}``.
- ``POST /api/players/{id}/claim`` (auth, that player): save the profile with a password.
- ``POST /api/login``: a new token for a saved profile (another browser); rate limited per IP.
- ``GET /api/account/rooms`` (auth): the open, playing and finished rooms one is seated in.
"""

from __future__ import annotations

import math

from fastapi import APIRouter, Request

from app import accounts
from app.api.account_schemas import AccountOut, ClaimIn, LoginIn
from app.api.deps import CurrentPlayer, ServiceDep
from app.api.errors import ERRORS
from app.api.json_body import JsonRoute
from app.api.limits import RATE_LIMITED
from app.api.params import IdPath
from app.api.schemas import ErrorOut, PlayerCreated, RoomOut
from app.limits import RateByKey, client_ip
from app.rooms.errors import RoomError
from app.rooms.store import to_datetime

router = APIRouter(route_class=JsonRoute, tags=["accounts"], responses=ERRORS)

#: Log-in attempts one client IP may make per minute.
LOGINS_PER_MINUTE = 10
MY_ROOM_STATUSES = ("open", "playing", "finished")


def _login_limit(request: Request) -> RateByKey:
    """Return this app's log-in counter (made on first use, on the app's clock)."""
    state = request.app.state
    if getattr(state, "login_limit", None) is None:
        state.login_limit = RateByKey(LOGINS_PER_MINUTE, 60.0, state.arena.clock.now)
    return state.login_limit


@router.get("/api/account", response_model=AccountOut)
async def account(player: CurrentPlayer) -> dict:
    """Return the caller's profile and whether it is saved with a password."""
    return {"id": player.id, "name": player.name, "claimed": player.password_hash is not None}


@router.post("/api/players/{player_id}/claim", response_model=AccountOut,
             responses={403: {"model": ErrorOut, "description": "Not the caller's profile"}})
async def claim(player_id: IdPath, body: ClaimIn, player: CurrentPlayer, request: Request) -> dict:
    """Save the caller's profile with a password (403 ``not_your_profile`` for another id;
    409 ``already_claimed``/``name_taken``; 422 ``bad_password``)."""
    if player.id != player_id:
        raise RoomError("not_your_profile", "You can only save your own profile.", 403)
    return await accounts.claim(request.app.state.arena.sessions, player, body.password,
                                body.name)


@router.post("/api/login", response_model=PlayerCreated, responses=RATE_LIMITED)
async def login(body: LoginIn, request: Request) -> dict:
    """Log in to a saved profile: ``{id, name, token}`` with a new token for this browser
    (401 ``bad_login``; 429 ``rate_limited`` after ``LOGINS_PER_MINUTE`` tries a minute)."""
    wait = _login_limit(request).take(client_ip(request))
    if wait > 0:
        raise RoomError("rate_limited", f"Too many log-in attempts; try again in "
                                        f"{math.ceil(wait)} s.", 429, math.ceil(wait))
    arena = request.app.state.arena
    return await accounts.login(arena.sessions, body.name, body.password,
                                to_datetime(arena.clock.now()))


@router.get("/api/account/rooms", response_model=list[RoomOut])
async def my_rooms(player: CurrentPlayer, service: ServiceDep) -> list[dict]:
    """Return the rooms the caller holds a seat in (open, playing, finished), newest first."""
    return await service.rooms_of(player.id, MY_ROOM_STATUSES)
