"""The level of a bot player: ``players.bot_level``.

- ``players.bot_level``: ``easy`` | ``normal`` | ``hard`` | ``expert`` for a bot player
  (``engine.bots.LEVELS``), ``NULL`` for a person. The bot driver plays a seat at its holder's
  level; the room and match JSON carry it so clients name bots in their own language.
- Bot players stored before the column existed get a level and that level's name: the uniformly
  random bot (``Random bot``) is ``easy`` (``Easy bot``), every other bot ``normal``
  (``Normal bot``).

Revision ID: 0004_bot_level
Revises: 0003_rooms_accounts
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_bot_level"
down_revision = "0003_rooms_accounts"
branch_labels = None
depends_on = None

players = sa.table("players", sa.column("name", sa.String), sa.column("bot", sa.Boolean),
                   sa.column("bot_level", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(8), nullable=True))
    bots = players.c.bot.is_(True)
    op.execute(players.update().where(bots, players.c.name == "Random bot")
               .values(bot_level="easy", name="Easy bot"))
    op.execute(players.update().where(bots, players.c.bot_level.is_(None))
               .values(bot_level="normal", name="Normal bot"))


def downgrade() -> None:
    bots = players.c.bot.is_(True)
    op.execute(players.update().where(bots, players.c.bot_level == "easy")
               .values(name="Random bot"))
    op.execute(players.update().where(bots, players.c.bot_level != "easy")
               .values(name="Greedy bot"))
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot_level")
