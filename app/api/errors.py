"""One place that turns errors into ``{"detail": {"code", "message"}}`` answers."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.routing import Match

from app.api.json_body import UnreadableBody
from app.api.pages import not_found_page
from app.api.schemas import ErrorOut
from app.metrics import count_error
from app.rooms.errors import RoomError

ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorOut} for status in (401, 404, 409, 422)}


def error_response(status: int, code: str, message: str, **more: str) -> JSONResponse:
    """Return the JSON error answer ``{"detail": {"code", "message", **more}}``."""
    return JSONResponse({"detail": {"code": code, "message": message, **more}},
                        status_code=status)


async def room_error(request: Request, exc: RoomError) -> JSONResponse:
    """Answer a ``RoomError`` with its status and code."""
    count_error(request.app, exc.code, "http")
    answer = error_response(exc.status, exc.code, exc.message)
    if exc.retry_after is not None:
        answer.headers["Retry-After"] = str(exc.retry_after)
    return answer


async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    """Answer a request that fails its schema: 422 ``validation_error`` naming the first field
    in ``message`` (``"body.name: That name belongs to the computer players."``), and apart:
    ``field`` (``"body.name"``) and ``reason``, the refused rule's code (pydantic's error type,
    e.g. ``string_too_short``, or the name rule's: ``app.api.player_name.visible_name``), so a
    client words it in its own language. A body that does not parse is ``body: The body is
    not valid JSON.``, reason ``json_invalid`` (FastAPI reports it at the character offset
    where parsing failed, ``body.9: JSON decode error``); one that is not UTF-8 text or nests
    too deeply is answered alike (``http_error``, ``app.api.json_body``)."""
    first = exc.errors()[0]
    reason = str(first.get("type", "invalid"))
    if reason == "json_invalid":
        return invalid_json(request, "body: The body is not valid JSON.")
    count_error(request.app, "validation_error", "http")
    where = ".".join(str(p) for p in first.get("loc", ())) or "request"
    return error_response(422, "validation_error", f"{where}: {first.get('msg', 'invalid')}",
                          field=where, reason=reason)


def invalid_json(request: Request, message: str) -> JSONResponse:
    """Answer a JSON body that cannot be read: 422 ``validation_error`` with ``message``
    (``"body: …"``), field ``body``, reason ``json_invalid``."""
    count_error(request.app, "validation_error", "http")
    return error_response(422, "validation_error", message, field="body", reason="json_invalid")


HTTP_CODES = {404: "not_found", 405: "method_not_allowed",
              413: "request_too_large"}  # 413: app.api.body_limit


async def http_error(request: Request, exc: HTTPException) -> Response:
    """Answer Starlette's own errors (unknown path, wrong method) in the same shape; a browser
    asking for an unknown page address gets the friendly not-found page (``pages.not_found_page``).

    A JSON body that is not UTF-8 text (UTF-16 and UTF-32 included, RFC 8259 §8.1) or nests
    deeper than the parser recurses is 422 ``validation_error`` like one that does not parse
    (``invalid_json`` with the message ``NOT_UTF8`` or ``TOO_DEEP``): FastAPI answers it as a
    400 whose cause is ``app.api.json_body.UnreadableBody``."""
    if exc.status_code == 400 and isinstance(exc.__cause__, UnreadableBody):
        return invalid_json(request, exc.__cause__.message)
    code = HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
    message = exc.detail if isinstance(exc.detail, str) else "Request refused."
    headers = getattr(exc, "headers", None)
    if exc.status_code == 405:
        headers = {**(headers or {}), "Allow": ", ".join(allowed_methods(request))}
    count_error(request.app, code, "http")
    friendly = not_found_page(request) if exc.status_code == 404 else None
    if friendly is not None:
        return friendly
    return JSONResponse({"detail": {"code": code, "message": message}},
                        status_code=exc.status_code, headers=headers)


METHODS = ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")


def allowed_methods(request: Request) -> list[str]:
    """Return every method some route fully serves at the request's path, sorted (the
    ``Allow`` header of a 405: Starlette's own names only the first route that matched)."""
    routes = request.app.router.routes
    return [method for method in METHODS
            if any(route.matches({**request.scope, "method": method})[0] is Match.FULL
                   for route in routes)]


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""
    # (FastAPI's decorator form: Starlette types a handler as taking any ``Exception``.)
    app.exception_handler(RoomError)(room_error)
    app.exception_handler(RequestValidationError)(validation_error)
    app.exception_handler(HTTPException)(http_error)
