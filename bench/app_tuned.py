"""A what-if server for issue 10: the real app with the fixes the benchmark recommends.

It starts ``app.main:app`` as ``uvicorn`` would, with some of these fixes patched in at start
(``BENCH_FIXES``, comma-separated; default all). Nothing in ``app/`` is changed: this module only
measures what each fix recommended in ``bench/RESULTS.md`` would give, so the lead can apply it.

- ``sqlite``: every SQLite connection runs ``journal_mode=WAL`` and ``synchronous=NORMAL`` (a
  commit appends to the WAL without fsync; safe against a process crash, the last commits can be
  lost on a power cut). Where: ``app/db/session.py::make_engine``.
- ``room-cache``: ``RoomService.room(code)`` answers from memory while the room's seats, status
  and match are unchanged, instead of three SELECTs for every update the hub fans out. Where:
  ``app/rooms/service.py::RoomService.room`` (invalidate on claim/leave/start/finish).
- ``no-catch-up``: with the in-memory broker (one process) ``MatchRunner._catch_up`` is skipped
  (no other process can have stored actions); a SELECT per act is saved. Where:
  ``app/rooms/play.py::MatchRunner.act`` (with Redis keep it, or rely on the unique
  ``(match, seq)`` IntegrityError path that already catches up).
- ``write-lock``: ``MatchRunner._store`` transactions of one process run one at a time behind an
  ``asyncio.Lock``, so concurrent SQLite writers queue in the event loop instead of colliding on
  SQLite's database lock, whose busy handler sleeps (1, 2, 5 ... 100 ms back-off) while holding a
  pooled connection. Where: ``app/rooms/play.py::MatchRunner._store`` (or one writer connection
  for SQLite in ``app/db/session.py``).

Usage: ``BENCH_FIXES=sqlite python -m bench.app_tuned --port 8200`` (``DATABASE_URL`` from the
environment).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Sequence

import uvicorn
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

import app.main
from app.db import session as db_session
from app.rooms.play import MatchRunner
from app.rooms.service import RoomService

#: The pragmas applied to every new SQLite connection.
PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")


def make_engine(database_url: str) -> AsyncEngine:
    """Return the app's engine; for SQLite, with ``PRAGMAS`` run on every new connection."""
    engine = db_session.make_engine(database_url)
    if database_url.startswith("sqlite"):
        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection, _record) -> None:
            cursor = dbapi_connection.cursor()
            for pragma in PRAGMAS:
                cursor.execute(pragma)
            cursor.close()
    return engine


def _room_key(service: RoomService, code: str) -> tuple:
    """What the cached ``Room`` JSON depends on besides seats: the live match and whether over."""
    live = getattr(service.matches, "_live", {}).get(code)
    return (None, False) if live is None else (live.match_id, live.over)


def patch_room_cache() -> None:
    """Serve ``RoomService.room`` from memory while ``_room_key`` is unchanged (see module doc)."""
    original_room = RoomService.room

    async def room(self: RoomService, code: str) -> dict:
        cache = self.__dict__.setdefault("_bench_rooms", {})
        key = _room_key(self, code)
        hit = cache.get(code)
        if hit is None or hit[0] != key:
            hit = (key, await original_room(self, code))
            cache[code] = hit
        return hit[1]

    def invalidating(method):
        async def wrapper(self: RoomService, code: str, *args, **kwargs):
            self.__dict__.setdefault("_bench_rooms", {}).pop(code, None)
            try:
                return await method(self, code, *args, **kwargs)
            finally:
                self.__dict__["_bench_rooms"].pop(code, None)
        return wrapper

    RoomService.room = room
    RoomService.claim_seat = invalidating(RoomService.claim_seat)
    RoomService.leave_seat = invalidating(RoomService.leave_seat)


def patch_no_catch_up() -> None:
    """Skip ``MatchRunner._catch_up`` (valid for one process with the in-memory broker only)."""
    async def _catch_up(self: MatchRunner, live) -> None:
        return None
    MatchRunner._catch_up = _catch_up


def patch_write_lock() -> None:
    """Run ``MatchRunner._store`` under one process-wide ``asyncio.Lock`` (see module doc)."""
    original_store = MatchRunner._store
    locks: list[asyncio.Lock] = []  # made on first use, inside the server's event loop

    async def _store(self: MatchRunner, live, step) -> None:
        if not locks:
            locks.append(asyncio.Lock())
        async with locks[0]:
            await original_store(self, live, step)
    MatchRunner._store = _store


#: Fix name -> what patches it in (``sqlite`` is applied through ``make_engine``).
FIXES = {"sqlite": lambda: setattr(app.main, "make_engine", make_engine),
         "room-cache": patch_room_cache, "no-catch-up": patch_no_catch_up,
         "write-lock": patch_write_lock}


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the tuned app on 127.0.0.1:PORT until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m bench.app_tuned")
    parser.add_argument("--port", type=int, default=8200)
    args = parser.parse_args(argv)
    for name in filter(None, os.environ.get("BENCH_FIXES", ",".join(FIXES)).split(",")):
        FIXES[name]()  # KeyError names an unknown fix
    uvicorn.run("app.main:app", host="127.0.0.1", port=args.port, access_log=False,
                log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
