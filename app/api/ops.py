"""Operations endpoints: ``/healthz`` (process up), ``/readyz`` (dependencies), ``/metrics``.

``/metrics`` answers only clients whose address is in ``Settings.metrics_allow`` (default the
loopback addresses); others get 404 as for an unknown path: the counters show every stored
action live, hidden answers included (docs/security.md §2, §3).

``/readyz`` answers 200 only once the app has started (migrations done, playing matches resumed
in the background: the app serves before that) and the database and, when ``REDIS_URL`` is
set, Redis answer within ``CHECK_SECONDS`` and the room channel's subscription is in place;
otherwise 503 with the failing check (a process started while Redis is down starts, answers
503 naming ``redis``, and subscribes once Redis answers). Load balancers and
``docker-compose.yml`` health checks use it.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Awaitable, Iterable
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel
from sqlalchemy import text

from app.api.json_body import JsonRoute

router = APIRouter(route_class=JsonRoute, tags=["ops"])

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
    except TimeoutError:
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
        if checks["redis"] == "ok" and not arena.service.publisher.connected:
            checks["redis"] = "not subscribed to the room channel yet"
    ready = all(result == "ok" for result in checks.values())
    return JSONResponse({"status": "ready" if ready else "unavailable", "checks": checks},
                        status_code=200 if ready else 503)


def address_allowed(host: str | None, networks: Iterable[ipaddress.IPv4Network
                                                         | ipaddress.IPv6Network]) -> bool:
    """Whether the client address ``host`` (as the server reports it; ``None`` or a name that
    is not an IP counts as outside) lies in one of ``networks``; an IPv4-mapped IPv6 address
    (``::ffff:10.0.0.1``) counts as its IPv4 address."""
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


@router.get("/metrics", response_class=Response, responses={
    200: {"description": "Prometheus text exposition format.",
          "content": {"text/plain": {"schema": {"type": "string"}}}},
    404: {"description": "The client address is not in ``ARENA_METRICS_ALLOW``."}})
async def metrics(request: Request) -> Response:
    """Answer the Prometheus text exposition of this process's metrics (``app.metrics``).

    Raises:
        HTTPException: 404 (``not_found``) for a client outside ``Settings.metrics_allow``.
    """
    host = request.client.host if request.client is not None else None
    if not address_allowed(host, request.app.state.arena.settings.metrics_networks):
        raise HTTPException(404, "Not Found")
    return Response(request.app.state.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
