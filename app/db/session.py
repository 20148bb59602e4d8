"""The async engine, the session factory and the Alembic upgrade run at start."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
from collections.abc import AsyncIterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import URL, create_engine, event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent.parent / "migrations"
MIGRATION_LOCK = 7_245_031  # PostgreSQL advisory lock key: one process migrates at a time


#: Run on every new SQLite connection: the write-ahead log lets readers run beside the one
#: writer, and ``synchronous=NORMAL`` makes a commit an append to the log without an fsync
#: (each commit survives a crash of the process; the last ones may be lost on a power cut).
#: bench/HISTORY.md section 3, fix 1 (the default journal fsyncs several times per commit).
SQLITE_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")


#: PostgreSQL connections each process keeps open (SQLAlchemy's default pool keeps 5 and opens
#: up to 10 more for a burst, closing each again when returned): under load every act's
#: catch-up and every version message's sync takes a session, and a py-spy of a worker at
#: 1,000 rooms showed new connections being made all the time (the TLS attempt, the start-up
#: round trips). Two processes hold at most 2 × (20 + 10) of PostgreSQL's default 100.
POSTGRES_POOL = {"pool_size": 20, "max_overflow": 10}


def make_engine(database_url: str) -> AsyncEngine:
    """Return an async engine for ``database_url``.

    SQLite gets ``sqlite_setup``; PostgreSQL gets a pool of ``POSTGRES_POOL`` connections.
    """
    if not database_url.startswith("sqlite"):
        return create_async_engine(database_url, **POSTGRES_POOL)
    engine = create_async_engine(database_url, connect_args={"timeout": 30})
    sqlite_setup(engine.sync_engine)
    return engine


def make_sync_sqlite_engine(url: URL) -> Engine:
    """Return a synchronous engine (the standard ``sqlite3`` driver) on the SQLite file of the
    async engine URL ``url``, set up as ``make_engine`` sets up its own (``sqlite_setup``);
    its connections may be used from any one thread at a time."""
    engine = create_engine(url.set(drivername="sqlite"),
                           connect_args={"timeout": 30, "check_same_thread": False})
    sqlite_setup(engine)
    return engine


def file_sqlite(url: URL) -> bool:
    """Return whether ``url`` is an SQLite database in a file (which a second connection sees:
    not ``:memory:``)."""
    database = url.database or ""
    return (url.get_backend_name() == "sqlite" and database not in ("", ":memory:")
            and "mode=memory" not in str(url))


def sqlite_setup(engine: Engine) -> None:
    """Give an SQLite ``engine`` a 30 s busy timeout (its ``connect_args``), ``SQLITE_PRAGMAS``
    on every new connection, and SQLAlchemy's "insertmanyvalues" for every ``executemany`` of
    an INSERT (one multi-row ``INSERT … VALUES (…), (…)`` per 1,000 rows instead of one
    statement per row: the sqlite3 module hands the GIL over at every statement;
    ``repositories.planned_writes``)."""
    engine.dialect.use_insertmanyvalues_wo_returning = True
    event.listen(engine, "connect", _sqlite_pragmas)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """Run ``SQLITE_PRAGMAS`` on a new DB-API connection (a SQLAlchemy ``connect`` listener)."""
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def is_sqlite(sessions: async_sessionmaker) -> bool:
    """Return whether the session factory's engine (its ``bind``) is SQLite."""
    bind = sessions.kw.get("bind")
    return bind is not None and bind.dialect.name == "sqlite"


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    """Return the session factory (objects stay readable after commit)."""
    return async_sessionmaker(engine, expire_on_commit=False)


def alembic_config(database_url: str) -> Config:
    """Return an Alembic config pointing at ``migrations/`` and ``database_url``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def _run(connection: Connection, config: Config, fn, revision: str) -> None:
    config.attributes["connection"] = connection
    fn(config, revision)


async def migrate(engine: AsyncEngine, revision: str = "head", down: bool = False) -> None:
    """Upgrade (or with ``down=True`` downgrade) the database of ``engine`` to ``revision``.

    Processes that start together migrate one after the other (the later ones find the
    database at head): on PostgreSQL by a transaction-scoped advisory lock, on an SQLite file
    by ``sqlite_migration_lock``.
    """
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    fn = command.downgrade if down else command.upgrade
    async with sqlite_migration_lock(engine.url), engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": MIGRATION_LOCK})
        await conn.run_sync(_run, config, fn, revision)


@contextlib.asynccontextmanager
async def sqlite_migration_lock(url: URL) -> AsyncIterator[None]:
    """Hold an exclusive ``flock`` on ``<database file>.migrate-lock`` while the block runs, for
    an SQLite file database (nothing for another database or an in-memory one): without it two
    processes starting together on a new file both created the tables, and one failed to start
    (``table players already exists``). The lock file stays (removing it would let a third
    process lock a new file while the second waits on the old one)."""
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:" \
            or database.startswith("file:"):
        yield
        return
    with open(f"{database}.migrate-lock", "a+b") as handle:
        await asyncio.to_thread(fcntl.flock, handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
