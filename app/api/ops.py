"""Operations endpoints: ``/healthz`` (process up), ``/readyz`` (dependencies), ``/metrics``.

``/readyz`` answers 200 only once the app has started (migrations done, matches resumed) and
the database and, when ``REDIS_URL`` is set, Redis answer within ``CHECK_SECONDS``; otherwise
503 with the failing check. Load balancers and ``docker-compose.yml`` health checks use it.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel
from sqlalchemy import text

router = APIRouter(tags=["ops"])

CHECK_SECONDS = 2.0  # how long a dependency may take to answer /readyz


class Health(BaseModel):
    """``/healthz``: ``{"status": "ok"}``."""

    status: str


class Readiness(BaseModel):
    """``/readyz``: ``status`` is ``ready``, ``unavailable`` or ``not_started``; ``checks`` maps
    ``database`` and ``redis`` (when configured) to ``"ok"`` or the problem."""

    status: str
    checks: dict[str, str]


@router.get("/healthz", response_model=Health)
async def healthz() -> dict[str, str]:
    """Answer ``{"status": "ok"}`` while the process serves requests (liveness)."""
    return {"status": "ok"}


async def check(probe: Awaitable[Any]) -> str:
    """Return ``"ok"`` when ``probe`` finishes within ``CHECK_SECONDS``, else the problem."""
    try:
        await asyncio.wait_for(probe, CHECK_SECONDS)
    except asyncio.TimeoutError:
        return f"no answer within {CHECK_SECONDS:g} s"
    except Exception as exc:  # any failure of the dependency is "not ready"
        return f"{type(exc).__name__}: {exc}"
    return "ok"


async def database_ping(engine) -> None:
    """Run ``SELECT 1`` on a pooled connection of ``engine``."""
    async with engine.connect() as conn:
        await conn.execute(text("SELECT 1"))


@router.get("/readyz", response_model=Readiness,
            responses={503: {"model": Readiness, "description": "Not ready."}})
async def readyz(request: Request) -> JSONResponse:
    """Answer 200 ``{"status": "ready", "checks": {...}}`` or 503 ``{"status": …}``.

    ``checks`` maps ``database`` and ``redis`` (when configured) to ``"ok"`` or the problem.
    """
    arena = getattr(request.app.state, "arena", None)
    if arena is None or not getattr(request.app.state, "ready", False):
        return JSONResponse({"status": "not_started", "checks": {}}, status_code=503)
    checks = {"database": await check(database_ping(arena.engine))}
    if arena.settings.redis_url:
        checks["redis"] = await check(arena.broker.ping())
    ready = all(result == "ok" for result in checks.values())
    return JSONResponse({"status": "ready" if ready else "unavailable", "checks": checks},
                        status_code=200 if ready else 503)


@router.get("/metrics", response_class=Response, responses={200: {
    "description": "Prometheus text exposition format.",
    "content": {"text/plain": {"schema": {"type": "string"}}}}})
async def metrics(request: Request) -> Response:
    """Answer the Prometheus text exposition of this process's metrics (``app.metrics``)."""
    return Response(request.app.state.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
