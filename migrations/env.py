"""Alembic environment (async): run with a connection the app passes, or its own async engine."""

from __future__ import annotations

import asyncio
import logging.config

from alembic import context
from sqlalchemy.engine import Connection

from app.db.models import Base
from app.db.session import make_engine
from app.settings import Settings, ensure_sqlite_folder

config = context.config
if config.config_file_name is not None and not config.attributes.get("connection"):
    logging.config.fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or Settings().database_url


def _do_run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    url = _url()
    ensure_sqlite_folder(url)
    engine = make_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(_do_run)
    await engine.dispose()


def run_offline() -> None:
    """Emit SQL to stdout (``alembic upgrade head --sql``)."""
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
elif config.attributes.get("connection") is not None:
    _do_run(config.attributes["connection"])
else:
    asyncio.run(_run_async())
