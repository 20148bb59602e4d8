"""The frontend pages: ``/``, ``/room/{code}``, ``/history``, ``/matches/{id}``, ``/ladders``,
``/players/{id}`` (static files)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from app.rooms.errors import RoomError

router = APIRouter(include_in_schema=False)


def page(request: Request, name: str) -> FileResponse:
    """Return ``frontend/<name>``; 404 ``page_missing`` if the frontend has not written it."""
    path: Path = request.app.state.arena.settings.frontend_dir / name
    if not path.is_file():
        raise RoomError("page_missing", f"The page {name} is not there.", 404)
    return FileResponse(path, media_type="text/html")


@router.get("/")
async def lobby(request: Request) -> FileResponse:
    """The lobby."""
    return page(request, "index.html")


@router.get("/room/{code}")
async def room_page(request: Request, code: str) -> FileResponse:
    """A room (the share link)."""
    return page(request, "room.html")


@router.get("/history")
async def history_page(request: Request) -> FileResponse:
    """The match history."""
    return page(request, "history.html")


@router.get("/matches/{match_id}")
async def match_page(request: Request, match_id: int) -> FileResponse:
    """One match with its replay and ladder."""
    return page(request, "match.html")


@router.get("/ladders")
async def ladders_page(request: Request) -> FileResponse:
    """The leaderboards (ratings of every game; ``?game=`` picks one)."""
    return page(request, "ladders.html")


@router.get("/players/{player_id}")
async def player_page(request: Request, player_id: int) -> FileResponse:
    """A player: each game's rating and recent matches."""
    return page(request, "player.html")
