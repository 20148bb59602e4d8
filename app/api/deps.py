"""Typed dependencies of the routes: the session, the room service, the current player."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth import player_for_token
from app.db.models import Player
from app.rooms.errors import RoomError
from app.rooms.service import RoomService


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    """Yield a session of the app's database (read-only use in routes)."""
    async with request.app.state.arena.sessions() as session:
        yield session


def get_service(request: Request) -> RoomService:
    """Return the app's room service."""
    return request.app.state.arena.service


async def current_player(request: Request,
                         authorization: Annotated[str | None, Header()] = None) -> Player:
    """Return the player of ``Authorization: Bearer <token>``.

    Raises:
        RoomError: ``unauthorized`` (401) when the header is missing or the token unknown.
    """
    scheme, _, token = (authorization or "").partition(" ")
    player = None
    if scheme.lower() == "bearer" and token:
        player = await player_for_token(request.app.state.arena.sessions, token.strip())
    if player is None:
        raise RoomError("unauthorized", "Send a valid 'Authorization: Bearer <token>'.", 401)
    return player


SessionDep = Annotated[AsyncSession, Depends(get_session)]
ServiceDep = Annotated[RoomService, Depends(get_service)]
CurrentPlayer = Annotated[Player, Depends(current_player)]
