"""Rooms that manage themselves and lasting identity.

- ``rooms.private`` (never listed; long code), ``rooms.on_timeouts`` (``bot`` | ``forfeit``),
  ``rooms.active_at`` (last seat change: idle open rooms close), ``rooms.rematch`` (seats that
  asked to play again after the newest match).
- ``players.login`` (a claimed profile's case-folded name, unique) and
  ``players.password_hash`` (argon2).
- ``player_tokens``: further bearer tokens of a player (log-ins from other browsers).

Revision ID: 0003_rooms_accounts
Revises: 0002_ratings_ladders
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_rooms_accounts"
down_revision = "0002_ratings_ladders"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("private", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("on_timeouts", sa.String(8), nullable=False,
                                   server_default="bot"))
        batch.add_column(sa.Column("active_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("rematch", sa.JSON(), nullable=True))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("login", sa.String(32), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(255), nullable=True))
        batch.create_unique_constraint("uq_players_login", ["login"])
    op.create_table(
        "player_tokens",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name="fk_player_tokens_player_id_players", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash", name="pk_player_tokens"),
    )
    op.create_index("ix_player_tokens_player_id", "player_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_player_tokens_player_id", table_name="player_tokens")
    op.drop_table("player_tokens")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_login", type_="unique")
        batch.drop_column("password_hash")
        batch.drop_column("login")
    with op.batch_alter_table("rooms") as batch:
        for column in ("rematch", "active_at", "on_timeouts", "private"):
            batch.drop_column(column)
