"""Rules for players: ``GET /api/rules/{game}/{lang}`` (rendered Markdown) and the page ``/rules``.

The rule texts are ``docs/rules/<game>.<lang>.md`` (English, 简体中文, 日本語).
They are rendered on the server with markdown-it-py (CommonMark plus tables) with raw HTML
disabled, so a rules file can never put markup of its own on the page: ``<`` in the text comes
out escaped, and markdown-it's link validation drops ``javascript:``/``data:`` links. When the
asked language has no file yet, the English text is returned with ``fallback: true`` so the page
can say so.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from markdown_it import MarkdownIt

from app.api.deps import ServiceDep
from app.api.errors import ERRORS
from app.api.games import check_hosted
from app.api.json_body import JsonRoute
from app.api.pages import page
from app.rooms.errors import RoomError
from app.rooms.service import RoomService

#: The languages a rules page exists in (the site's languages); English is the fallback.
LANGUAGES = ("en", "zh", "ja")
FALLBACK = "en"
#: Where the rule texts live: ``<repo>/docs/rules``.
RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
#: Pages of the rules section that are no game: ``docs/rules/<topic>.<lang>.md`` as well.
TOPICS = ("fair_play",)

router = APIRouter(route_class=JsonRoute, tags=["rules"])


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    """The one Markdown renderer: CommonMark with tables and strikethrough, raw HTML off."""
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable(["table", "strikethrough"])


def render_markdown(text: str) -> str:
    """Return ``text`` (Markdown) as HTML; raw HTML in ``text`` is escaped, never passed on."""
    return markdown().render(text)


def rules_file(folder: Path, game: str, lang: str) -> Path | None:
    """Return ``folder/<game>.<lang>.md`` if it exists, else ``None``."""
    path = folder / f"{game}.{lang}.md"
    return path if path.is_file() else None


def load_rules(folder: Path, game: str, lang: str) -> dict[str, Any]:
    """Return ``{game, lang, requested, fallback, html}`` for ``game`` in ``lang``.

    ``lang`` is the language asked for; ``lang`` in the answer is the language of the text
    (English when the asked one has no file: ``fallback`` is then true).

    Raises:
        RoomError: ``unknown_language`` (404) for a language the site does not speak;
            ``rules_not_found`` (404) when not even the English file exists.
    """
    if lang not in LANGUAGES:
        raise RoomError("unknown_language", f"Rules exist in {', '.join(LANGUAGES)}, not {lang!r}.", 404)
    path, used = rules_file(folder, game, lang), lang
    if path is None:
        path, used = rules_file(folder, game, FALLBACK), FALLBACK
    if path is None:
        raise RoomError("rules_not_found", f"There is no rules text for {game!r} yet.", 404)
    return {"game": game, "lang": used, "requested": lang, "fallback": used != lang,
            "html": render_markdown(path.read_text("utf-8"))}


@router.get("/api/rules/{game}/{lang}", responses={404: ERRORS[404]})
async def get_rules(game: str, lang: str, service: ServiceDep) -> dict[str, Any]:
    """Return the rules of ``game`` (or of a topic in ``TOPICS``, e.g. ``fair_play``) in ``lang``
    rendered to HTML (see ``load_rules``).

    Raises:
        RoomError: ``unknown_game`` (404, like ``/api/ladders/{game}``: the path names no
            hosted game) for a game the server does not host; the errors of ``load_rules``.
    """
    check_game(service, game)
    return load_rules(RULES_DIR, game, lang)


def check_game(service: RoomService, game: str) -> None:
    """Check that ``game`` has a rules page: a topic of ``TOPICS`` or a game the server hosts.

    Raises:
        RoomError: ``unknown_game`` (404, like ``/api/ladders/{game}``: the path names no
            hosted game).
    """
    if game not in TOPICS:
        check_hosted(service.catalog, game)


@router.get("/rules", include_in_schema=False)
async def rules_index_page(request: Request) -> FileResponse:
    """The rules page listing every game (frontend/rules.html)."""
    return page(request, "rules.html")


@router.get("/rules/{game}", include_in_schema=False)
async def rules_page(request: Request, game: str, service: ServiceDep) -> FileResponse:
    """The rules of one game in the page's language (frontend/rules.html); with status 404 for
    a game that has none (``check_game``: the page says so, as ``app.api.pages`` does for an
    unknown room, match or player)."""
    try:
        check_game(service, game)
    except RoomError:
        return page(request, "rules.html", 404)
    return page(request, "rules.html")
