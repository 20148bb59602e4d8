"""The FastAPI application: ``create_app(settings)``; ``app`` for ``uvicorn app.main:app``.

On start (lifespan) it creates ``./data`` for the default SQLite file, upgrades the database to
the newest Alembic revision, starts the broker, the hub and the clocks of playing matches.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, AsyncIterator, Mapping

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from app.api import errors, games as games_api, matches, pages, players, rooms, rules
from app.api import ladders
from app.api import verify as verify_api
from app.bus import Broker, make_broker
from app.db.session import make_engine, make_sessionmaker, migrate
from app.limits import make_limits
from app.realtime import endpoint
from app.realtime.hub import Hub
from app.rooms.clocks import Clock, SystemClock
from app.rooms.service import RoomService, SeedSource, new_seed
from app.settings import Settings, ensure_sqlite_folder


ROUTERS = (games_api.router, players.router, rooms.router, matches.router, endpoint.router,
           pages.router, rules.router, ladders.router, verify_api.router)


@dataclass
class Arena:
    """Everything a request handler may need, kept on ``app.state.arena`` while running."""

    settings: Settings
    clock: Clock
    engine: AsyncEngine
    sessions: async_sessionmaker
    broker: Broker
    service: RoomService
    hub: Hub


def create_app(settings: Settings | None = None, *, clock: Clock | None = None,
               seed_source: SeedSource = new_seed,
               games: Mapping[str, Any] | None = None) -> FastAPI:
    """Return the application.

    Args:
        settings: defaults to ``Settings()`` from the environment.
        clock: the time source of clocks and timestamps (tests pass a ``ManualClock``).
        seed_source: returns each match's 32-byte secret seed (tests fix it).
        games: ``{id: GAME}`` to host instead of ``engine.registry.GAMES``.
    """
    settings = settings or Settings()
    clock = clock or SystemClock()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ensure_sqlite_folder(settings.database_url)
        engine = make_engine(settings.database_url)
        await migrate(engine)
        sessions = make_sessionmaker(engine)
        broker = make_broker(settings.redis_url)
        await broker.start()
        service = RoomService(sessions, broker, clock, settings.clock_grace_seconds,
                              seed_source, games)
        hub = Hub(service, broker)
        await hub.start()
        app.state.arena = Arena(settings, clock, engine, sessions, broker, service, hub)
        await service.start()
        try:
            yield
        finally:
            await hub.stop()
            await service.stop()
            await broker.stop()
            await engine.dispose()

    app = FastAPI(title="Reversal Arena", version="0.1.0", lifespan=lifespan,
                  description="Rooms, matches and ladders of the Reversal Arena card games. "
                              "The websocket protocol is in docs/protocol.md.")
    errors.install(app)
    app.state.limits = make_limits(settings, clock.now)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=settings.frontend_dir, check_dir=False),
              name="static")
    return app


app = create_app()
