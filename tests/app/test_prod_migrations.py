"""Alembic on PostgreSQL: upgrade an empty database to head, downgrade to base,
upgrade again — and at head the schema is exactly what ``app.db.models`` declares (Alembic's
autogenerate comparison finds nothing to change), so the migrations and the models agree.
"""

from __future__ import annotations

import uuid

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from app.db.models import Base
from app.db.session import alembic_config, make_engine, migrate
from tests.app.prod import admin_execute, database_url

pytestmark = pytest.mark.postgres


def schema_diff(connection) -> list:
    """Return Alembic's differences between the database and ``Base.metadata`` (empty = same)."""
    return compare_metadata(MigrationContext.configure(connection), Base.metadata)


async def state(engine) -> tuple[set[str], list]:
    """Return the database's tables and its differences from the models."""
    async with engine.connect() as conn:
        tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        return tables, await conn.run_sync(schema_diff)


def test_the_migrations_have_one_head():
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert len(script.get_heads()) == 1


async def test_upgrade_downgrade_upgrade_on_postgresql(postgres_url):
    name = f"arena_migrate_{uuid.uuid4().hex[:12]}"
    await admin_execute(f'CREATE DATABASE "{name}"')
    engine = make_engine(database_url(postgres_url, name))
    try:
        models = set(Base.metadata.tables) | {"alembic_version"}
        await migrate(engine)
        assert await state(engine) == (models, [])
        await migrate(engine, "base", down=True)
        assert (await state(engine))[0] == {"alembic_version"}
        await migrate(engine)
        assert await state(engine) == (models, [])
    finally:
        await engine.dispose()
        await admin_execute(f'DROP DATABASE "{name}" WITH (FORCE)')
