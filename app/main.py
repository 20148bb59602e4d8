"""The FastAPI application: ``create_app(settings)``; ``app`` for ``uvicorn app.main:app``.

On start (lifespan) it creates ``./data`` for the default SQLite file, upgrades the database to
the newest Alembic revision, starts the broker and the hub, and serves; the playing matches
(their clocks and bots) are resumed in the background, and ``/readyz`` answers 200 once they
are.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from app.api import accounts as accounts_api
from app.api import (
    api_docs,
    errors,
    ladders,
    matches,
    ops,
    pages,
    players,
    rooms,
    rules,
    security_headers,
)
from app.api import bots as bots_api
from app.api import games as games_api
from app.api import manage as manage_api
from app.api import openapi as openapi_doc
from app.api import replays as replays_api
from app.api import verify as verify_api
from app.api.body_limit import BodyLimit
from app.bus import Broker, make_broker
from app.db.session import make_engine, make_sessionmaker, migrate
from app.limits import make_limits
from app.logs import configure_logging, log_applied
from app.metrics import Metrics
from app.realtime import endpoint
from app.realtime.hub import Hub
from app.rooms.bot_lease import make_lease
from app.rooms.bot_workers import ExecutorFactory, Thinker, process_pool
from app.rooms.bots import BotDelay, BotDriver
from app.rooms.clocks import Clock, SystemClock
from app.rooms.management import RoomManager
from app.rooms.service import RoomService, SeedSource, new_seed
from app.runtime import Collector, tune_gc
from app.settings import Settings, ensure_sqlite_folder

log = logging.getLogger(__name__)


ROUTERS = (games_api.router, players.router, rooms.router, matches.router,
           pages.router, rules.router, ladders.router, verify_api.router,
           ops.router, bots_api.router,
           accounts_api.router, manage_api.router, replays_api.router)


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
    bots: BotDriver | None = None  # plays the bot seats
    thinker: Thinker | None = None  # decides the bots' actions (searches in worker processes)


#: Seconds between two tries to resume the playing matches (the database did not answer).
RESUME_RETRY_SECONDS = 1.0


async def resume_matches(service: RoomService, bots: BotDriver, manager: RoomManager) -> None:
    """Hold every playing match (``RoomService.resume``), answer its bots (``BotDriver.resume``)
    and apply the timeout rule a stopped process left unapplied
    (``RoomManager.recheck_timeouts``),
    trying again every ``RESUME_RETRY_SECONDS`` until it worked (a room resumed already is kept
    as it is)."""
    while True:
        try:
            await service.resume()
            await bots.resume()
            await manager.recheck_timeouts()
            return
        except Exception:
            log.exception("could not resume the playing matches; trying again")
            await asyncio.sleep(RESUME_RETRY_SECONDS)


def create_app(settings: Settings | None = None, *, clock: Clock | None = None,
               seed_source: SeedSource = new_seed,
               games: Mapping[str, Any] | None = None,
               broker: Broker | None = None,
               bot_pool: ExecutorFactory = process_pool) -> FastAPI:
    """Return the application.

    Args:
        settings: defaults to ``Settings()`` from the environment.
        clock: the time source of clocks and timestamps (tests pass a ``ManualClock``).
        seed_source: returns each match's 32-byte secret seed (tests fix it).
        games: ``{id: GAME}`` to host instead of ``engine.registry.GAMES``.
        broker: the room-event broker to use instead of ``make_broker(settings.redis_url)``
            (the app starts and stops it).
        bot_pool: ``bot_pool(workers)`` makes the executor of the bots' searches (a process
            pool; tests pass one that hangs).
    """
    settings = settings or Settings()
    clock = clock or SystemClock()
    given_broker = broker
    metrics = Metrics()  # this app's own registry (several apps may share a process)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        configure_logging(settings.log_format, settings.log_level)
        tune_gc()  # bench/HISTORY.md section 3: the collector's thresholds under load
        unwatch_collector = metrics.watch_collector()
        ensure_sqlite_folder(settings.database_url)
        engine = make_engine(settings.database_url)
        await migrate(engine)
        sessions = make_sessionmaker(engine)
        broker = given_broker if given_broker is not None else make_broker(settings.redis_url)
        await broker.start()
        service = RoomService(sessions, broker, clock, settings.clock_grace_seconds,
                              seed_source, games, settings.commit_delay_ms / 1000)
        hub = Hub(service, clock, settings.presence_seconds)
        app.state.arena = Arena(settings, clock, engine, sessions, broker, service, hub)
        service.observe(metrics.applied)
        service.observe(log_applied)
        metrics.bind(hub.counts, service.held)
        await service.start()
        hub.start()
        thinker = Thinker(settings.bot_workers, settings.bot_budgets, settings.bot_cpu_cap,
                          settings.bot_decide, bot_pool)
        lease = make_lease(settings.redis_url, clock, settings.bot_lease_seconds)
        bots = BotDriver(service, sessions,
                         BotDelay(settings.bot_delay_min, settings.bot_delay_max), thinker,
                         bytes.fromhex(settings.bot_secret) if settings.bot_secret else None,
                         lease=lease)
        app.state.arena.bots, app.state.arena.thinker = bots, thinker
        await bots.start()
        app.state.manager = RoomManager(sessions, clock, service)
        await app.state.manager.start()

        async def resume() -> None:
            await resume_matches(service, bots, app.state.manager)
            app.state.ready = True  # /readyz: started (migrated, matches resumed)
            log.info("arena ready", extra={"database": engine.url.get_backend_name(),
                                           "broker": type(broker).__name__})

        # The process serves from here on; the playing matches are resumed meanwhile.
        resuming = asyncio.create_task(resume())
        collector = Collector(settings.gc_freeze_seconds, settings.gc_full_seconds)
        collector.start()  # app.runtime: keeps the collector's pauses short on a big heap
        try:
            yield
        finally:
            # Graceful shutdown: uvicorn has closed every socket with 1012 (service restart:
            # clients reconnect) and waited for their handlers, so in-flight acts are stored;
            # the clocks stop after their own in-flight actions, then the hub and the broker.
            app.state.ready = False
            log.info("arena stopping")
            await collector.stop()  # first: a later step that fails leaves nothing frozen
            resuming.cancel()
            await asyncio.gather(resuming, return_exceptions=True)
            # No timeout check starts from here on, though the clocks run until
            # service.stop: a streak a clock completes meanwhile is left to the next recheck
            # (this process's next start, or another process hearing this one leave). The
            # running checks get a few seconds to finish (takeover.CLOSE_WAIT_SECONDS).
            await app.state.manager.stop()
            await bots.stop()
            await thinker.close()
            await lease.close()
            await service.stop()
            await hub.stop()
            await broker.stop()
            await engine.dispose()
            unwatch_collector()

    app = endpoint.ArenaApp(title="Reversal Arena", version="0.1.0", lifespan=lifespan,
                            docs_url=None, redoc_url=None,  # app.api.api_docs serves /docs
                            description="Rooms, matches and ladders of the Reversal Arena card "
                                        "games. The websocket protocol is in docs/protocol.md.")
    errors.install(app)
    openapi_doc.install(app)
    api_docs.install(app)
    security_headers.install(app)  # outermost: every answer, errors included
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)  # before any body is read
    app.state.metrics = metrics
    app.state.limits = make_limits(settings, clock.now)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=settings.frontend_dir, check_dir=False),
              name="static")
    return app


app = create_app()
