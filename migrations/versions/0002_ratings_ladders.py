"""Ratings and ladders: ``ratings.kos`` and a ``players.bot`` marker.

- ``ratings.kos``: how many of the player's rated Reverse Curse wins were KOs (0 elsewhere).
- ``players.bot``: nullable; set (to anything true) for a player that is a bot. A match with a
  bot in any seat is not rated (``app.rooms.ratings``).

Revision ID: 0002_ratings_ladders
Revises: 0001_initial
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_ratings_ladders"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("kos", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot", sa.Boolean(), nullable=True))
    op.create_index("ix_ratings_game", "ratings", ["game"])


def downgrade() -> None:
    op.drop_index("ix_ratings_game", table_name="ratings")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot")
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("kos")
