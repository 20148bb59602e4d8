"""The OpenAPI document as the server really answers (schemathesis).

FastAPI documents every route's 422 with its own ``HTTPValidationError`` (``{"detail": [...]}``),
but this server answers every error — validation errors included — as
``{"detail": {"code", "message"}}`` (``app.api.errors``). ``install`` makes ``/openapi.json``
say so: each 422 refers to ``ErrorOut``, and FastAPI's unused validation schemas are dropped.
Every operation taking a body also lists the 413 ``request_too_large`` of ``app.api.body_limit``
(the middleware answers it before any route runs, so no route declares it itself).
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from app.api.schemas import ErrorOut

ERROR_REF = "#/components/schemas/ErrorOut"
FASTAPI_VALIDATION = ("HTTPValidationError", "ValidationError")
TOO_LARGE = {"description": "Request body too large (code ``request_too_large``)",
             "content": {"application/json": {"schema": {"$ref": ERROR_REF}}}}


def _errors_as_served(document: dict[str, Any]) -> dict[str, Any]:
    """Point every 422 answer of ``document`` at ``ErrorOut`` and add the 413 answer to every
    operation with a request body (in place); return it."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            answer = operation.get("responses", {}).get("422")
            if answer is not None:
                answer["content"] = {"application/json": {"schema": {"$ref": ERROR_REF}}}
            if "requestBody" in operation:
                operation.setdefault("responses", {})["413"] = dict(TOO_LARGE)
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name in FASTAPI_VALIDATION:
        schemas.pop(name, None)
    if "ErrorOut" not in schemas:  # no route listed it among its answers
        error_out = ErrorOut.model_json_schema(ref_template="#/components/schemas/{model}")
        schemas.update(error_out.pop("$defs", {}))
        schemas["ErrorOut"] = error_out
    return document


def install(app: FastAPI) -> None:
    """Serve ``app``'s OpenAPI document with the error shapes it really answers."""
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _errors_as_served(get_openapi(
                title=app.title, version=app.version, openapi_version=app.openapi_version,
                description=app.description, routes=app.routes, tags=app.openapi_tags,
                servers=app.servers))
        return app.openapi_schema
    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented override
