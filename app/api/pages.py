"""The frontend pages: ``/``, ``/room/{code}``, ``/history``, ``/matches/{id}``,
``/replay/{id}``, ``/ladders``, ``/players/{id}`` (static files), declared in one table,
``PAGES``; and the friendly 404 page a browser gets for any other address
(``not_found_page``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

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
    ("/replay/{match_id:int}", "replay.html",
     "A match's replay (``?step=k`` opens step ``k``; ``?viewer=s`` a seat's view)."),
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


NOT_FOUND_PAGE = "not_found.html"
#: Path prefixes that are never pages: their unknown addresses keep the JSON error shape.
NOT_PAGE_PREFIXES = ("/api/", "/static/", "/ws/")


def wants_page(request: Request) -> bool:
    """True for a browser navigating to a page address: a GET or HEAD outside the API, static
    and websocket prefixes whose ``Accept`` header names ``text/html`` (a script asking with
    ``*/*`` or ``application/json`` keeps the JSON ``not_found``)."""
    return (request.method in ("GET", "HEAD")
            and not request.url.path.startswith(NOT_PAGE_PREFIXES)
            and "text/html" in request.headers.get("accept", ""))


def not_found_page(request: Request) -> FileResponse | None:
    """Return ``frontend/not_found.html`` with status 404 when ``wants_page(request)`` and the
    file exists (the page translates itself into the visitor's language), else None so the
    caller answers with the JSON ``not_found`` error."""
    path: Path = request.app.state.arena.settings.frontend_dir / NOT_FOUND_PAGE
    if not wants_page(request) or not path.is_file():
        return None
    return FileResponse(path, status_code=404, media_type="text/html")
