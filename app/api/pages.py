"""The frontend pages: ``/``, ``/room/{code}``, ``/history``, ``/matches/{id}``, ``/ladders``,
``/players/{id}`` (static files), declared in one table, ``PAGES``."""

from __future__ import annotations

from pathlib import Path
from typing import Awaitable, Callable

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from app.rooms.errors import RoomError

router = APIRouter(include_in_schema=False)

#: ``(URL path, file in frontend/, what the page shows)``. A path parameter is read by the page
#: itself from its URL; ``:int`` ones match digits only (anything else is a 404).
PAGES: tuple[tuple[str, str, str], ...] = (
    ("/", "index.html", "The lobby."),
    ("/room/{code}", "room.html", "A room (the share link)."),
    ("/history", "history.html", "The match history."),
    ("/matches/{match_id:int}", "match.html", "One match with its replay and ladder."),
    ("/ladders", "ladders.html", "The leaderboards (ratings of every game; ``?game=`` picks one)."),
    ("/players/{player_id:int}", "player.html",
     "A player: each game's rating and recent matches."),
)


def page(request: Request, name: str) -> FileResponse:
    """Return ``frontend/<name>``; 404 ``page_missing`` if the frontend has not written it."""
    path: Path = request.app.state.arena.settings.frontend_dir / name
    if not path.is_file():
        raise RoomError("page_missing", f"The page {name} is not there.", 404)
    return FileResponse(path, media_type="text/html")


def page_route(name: str, doc: str) -> Callable[[Request], Awaitable[FileResponse]]:
    """Return a GET endpoint serving ``frontend/<name>`` (see ``page``) documented by ``doc``."""
    async def endpoint(request: Request) -> FileResponse:
        return page(request, name)

    endpoint.__doc__ = doc
    endpoint.__name__ = f"{Path(name).stem}_page"
    return endpoint


for _path, _name, _doc in PAGES:
    router.add_api_route(_path, page_route(_name, _doc), methods=["GET"])
