"""The frontend pages: ``/``, ``/room/{code}``, ``/history``, ``/matches/{id}``,
``/replay/{id}``, ``/ladders``, ``/players/{id}`` (static files), declared in one table,
``PAGES``; and the friendly 404 page a browser gets for any other address
(``not_found_page``).

A page of one thing (a room, a match, a player) that names nothing is answered with status
404, as the API answers for it: the page's file is still served, and says in the visitor's
language that the thing does not exist (a link back where it makes sense). An address no page
has (``/players/-1``, ``/matches/abc``) gets the not-found page, also 404."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NamedTuple

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.json_body import JsonRoute
from app.db import repositories as repo
from app.rooms.errors import RoomError

router = APIRouter(route_class=JsonRoute, include_in_schema=False)

#: ``exists(session, value)``: whether the thing a page's path parameter names exists.
Exists = Callable[[AsyncSession, Any], Awaitable[bool]]


async def room_exists(session: AsyncSession, code: str) -> bool:
    """Whether a room has the code ``code`` (``GET /api/rooms/{code}`` answers it, not 404)."""
    return await repo.room_by_code(session, code) is not None


async def match_exists(session: AsyncSession, match_id: int) -> bool:
    """Whether a match has the id ``match_id`` (``GET /api/matches/{id}`` answers it)."""
    return await repo.get_match(session, match_id) is not None


async def player_exists(session: AsyncSession, player_id: int) -> bool:
    """Whether a player has the id ``player_id`` (``GET /api/players/{id}`` answers it)."""
    return await repo.get_player(session, player_id) is not None


class Page(NamedTuple):
    """A page route: its URL ``path``, its ``file`` in ``frontend/``, what it shows (``doc``),
    and for a page of one thing, ``exists`` checking its one path parameter (``None``: the page
    is always there)."""

    path: str
    file: str
    doc: str
    exists: Exists | None = None


#: Every page. A path parameter is read by the page itself from its URL; ``:int`` ones match
#: digits only (anything else is a 404).
PAGES: tuple[Page, ...] = (
    Page("/", "index.html", "The lobby."),
    Page("/room/{code}", "room.html", "A room (the share link).", room_exists),
    Page("/history", "history.html", "The match history."),
    Page("/matches/{match_id:int}", "match.html", "One match with its replay and ladder.",
         match_exists),
    Page("/replay/{match_id:int}", "replay.html",
         "A match's replay (``?step=k`` opens step ``k``; ``?viewer=s`` a seat's view).",
         match_exists),
    Page("/ladders", "ladders.html",
         "The leaderboards (ratings of every game; ``?game=`` picks one)."),
    Page("/players/{player_id:int}", "player.html",
         "A player: each game's rating and recent matches.", player_exists),
)


def page(request: Request, name: str, status_code: int = 200) -> FileResponse:
    """Return ``frontend/<name>`` with ``status_code``; 404 ``page_missing`` if the frontend has
    not written it."""
    path: Path = request.app.state.arena.settings.frontend_dir / name
    if not path.is_file():
        raise RoomError("page_missing", f"The page {name} is not there.", 404)
    return FileResponse(path, status_code=status_code, media_type="text/html")


def page_route(entry: Page) -> Callable[[Request], Awaitable[FileResponse]]:
    """Return a GET endpoint serving ``frontend/<entry.file>`` (see ``page``), documented by
    ``entry.doc``: with status 404 when ``entry.exists`` says its path parameter names nothing
    (module doc), else 200."""
    async def endpoint(request: Request) -> FileResponse:
        status = 200
        if entry.exists is not None:
            (value,) = request.path_params.values()
            async with request.app.state.arena.sessions() as session:
                status = 200 if await entry.exists(session, value) else 404
        return page(request, entry.file, status)

    endpoint.__doc__ = entry.doc
    endpoint.__name__ = f"{Path(entry.file).stem}_page"
    return endpoint


for _entry in PAGES:
    router.add_api_route(_entry.path, page_route(_entry), methods=["GET"])


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
