"""A what-if server for issue 10: the real app with the SQLite fix the benchmark recommends.

It starts ``app.main:app`` exactly as ``uvicorn`` would, except that every SQLite connection is
opened with ``journal_mode=WAL`` and ``synchronous=NORMAL`` (a commit appends to the WAL with no
fsync; durability is kept against a process crash and lost only for the last commits on a power
cut). Nothing in ``app/`` is changed: this module only measures what the fix recommended in
``bench/RESULTS.md`` (``app/db/session.py::make_engine``) would give.

Usage: ``python -m bench.app_tuned --port 8200`` (``DATABASE_URL`` from the environment).
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

import uvicorn
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

import app.main
from app.db import session as db_session

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


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the tuned app on 127.0.0.1:PORT until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m bench.app_tuned")
    parser.add_argument("--port", type=int, default=8200)
    args = parser.parse_args(argv)
    app.main.make_engine = make_engine  # the lifespan looks the name up at start
    uvicorn.run("app.main:app", host="127.0.0.1", port=args.port, access_log=False,
                log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
