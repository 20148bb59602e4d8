"""Seats taken over mid-match: ``match_takeovers``.

- ``match_takeovers (match_id, seat, from_step, player_id)``: ``player_id`` (a bot, today) plays
  the seat of the match from action ``from_step`` (``match_actions.seq``) on; ``match_seats``
  keeps the player who sat there when the match started, who played the actions before. At
  most one row per seat (the key); it names an existing ``match_seats`` row (composite foreign
  key, deleted with it).
- Before this revision a takeover rewrote ``match_seats`` to name the bot, so a match stored then
  names the bot for the whole match: the replaced player is not stored anywhere, so nothing is
  backfilled.
- Downgrade folds each takeover back into ``match_seats`` (the seat names the player who took it
  over, as the code of 0004 expects: its bot driver plays the bot seats of ``match_seats``), then
  drops the table.

Revision ID: 0005_match_takeovers
Revises: 0004_bot_level
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_match_takeovers"
down_revision = "0004_bot_level"
branch_labels = None
depends_on = None

match_seats = sa.table("match_seats", sa.column("match_id", sa.Integer),
                       sa.column("seat", sa.Integer), sa.column("player_id", sa.Integer))
match_takeovers = sa.table("match_takeovers", sa.column("match_id", sa.Integer),
                           sa.column("seat", sa.Integer), sa.column("player_id", sa.Integer))


def upgrade() -> None:
    op.create_table(
        "match_takeovers",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("from_step", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["match_id", "seat"],
                                ["match_seats.match_id", "match_seats.seat"],
                                name="fk_match_takeovers_match_id_match_seats",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name="fk_match_takeovers_player_id_players"),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_match_takeovers"),
    )
    op.create_index("ix_match_takeovers_player_id", "match_takeovers", ["player_id"])


def downgrade() -> None:
    taken = sa.and_(match_takeovers.c.match_id == match_seats.c.match_id,
                    match_takeovers.c.seat == match_seats.c.seat)
    taker = sa.select(match_takeovers.c.player_id).where(taken).scalar_subquery()
    op.execute(match_seats.update().where(sa.exists().where(taken)).values(player_id=taker))
    op.drop_index("ix_match_takeovers_player_id", table_name="match_takeovers")
    op.drop_table("match_takeovers")
