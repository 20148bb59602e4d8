"""The async engine, the session factory and the Alembic upgrade run at start."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent.parent / "migrations"
MIGRATION_LOCK = 7_245_031  # PostgreSQL advisory lock key: one process migrates at a time


def make_engine(database_url: str) -> AsyncEngine:
    """Return an async engine for ``database_url`` (SQLite gets a 30 s busy timeout)."""
    connect_args = {"timeout": 30} if database_url.startswith("sqlite") else {}
    return create_async_engine(database_url, connect_args=connect_args)


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

    On PostgreSQL a transaction-scoped advisory lock makes processes that start together
    migrate one after the other (the later ones find the database at head).
    """
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    fn = command.downgrade if down else command.upgrade
    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": MIGRATION_LOCK})
        await conn.run_sync(_run, config, fn, revision)
