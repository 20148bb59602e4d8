"""A resign the room played for a seat: ``match_actions.forfeit``.

- ``match_actions.forfeit`` (JSON, nullable): ``{"reason": "timeouts", "timeouts": n}`` on the
  ``{"type": "resign"}`` the room played for a seat under its ``on_timeouts: "forfeit"`` rule
  (``app.rooms.takeover``: the seat's clock played its last ``n`` decisions in a row), ``NULL``
  on every other action. The engine never reads it.
- ``ix_match_actions_forfeit``: ``match_id`` of the rows with a forfeit only (a partial index,
  on SQLite and PostgreSQL alike), so the match lists find a page's forfeits without reading
  their logs.
- A forfeit stored before this revision is a plain resign: it was not told apart from the
  player's own, so nothing is backfilled. Downgrade drops the index and the column (the
  forfeits then read as resigns again).

Revision ID: 0006_action_forfeit
Revises: 0005_match_takeovers
Create Date: 2026-12-08
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_action_forfeit"
down_revision = "0005_match_takeovers"
branch_labels = None
depends_on = None

HAS_FORFEIT = sa.text("forfeit IS NOT NULL")


def upgrade() -> None:
    with op.batch_alter_table("match_actions") as batch:
        batch.add_column(sa.Column("forfeit", sa.JSON(none_as_null=True), nullable=True))
    op.create_index("ix_match_actions_forfeit", "match_actions", ["match_id"],
                    sqlite_where=HAS_FORFEIT, postgresql_where=HAS_FORFEIT)


def downgrade() -> None:
    op.drop_index("ix_match_actions_forfeit", table_name="match_actions")
    with op.batch_alter_table("match_actions") as batch:
        batch.drop_column("forfeit")
