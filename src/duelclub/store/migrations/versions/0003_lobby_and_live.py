"""Lobby and live play: the challenge table, matchmaking, rematches, presence, clock sweeps (issue 6).

- ``matches.listed`` (an open match shown in the challenge table), ``matches.opened_by`` (who created the
  row), ``matches.rematch_of`` (unique: one rematch per match) and an index on ``matches.deadline_at`` (the
  clock sweeper's query).
- ``queue_entries``: one waiting member per row (matchmaking).
- ``match_presence``: when a seated player was last connected to a match, per seat.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-10
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("opened_by", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("rematch_of", sa.String(40), nullable=True))
        batch.create_foreign_key("fk_matches_opened_by_users", "users", ["opened_by"], ["id"])
        batch.create_unique_constraint("uq_matches_rematch_of", ["rematch_of"])
        batch.create_index("ix_matches_deadline_at", ["deadline_at"])
    with op.batch_alter_table("matches") as batch:
        batch.alter_column("listed", existing_type=sa.Boolean(), server_default=None)
    op.create_table(
        "queue_entries",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("move_seconds", sa.Integer(), nullable=True),
        sa.Column("pool", sa.String(255), nullable=False),
        sa.Column("client_seed", sa.String(64), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("seen_at", _TS, nullable=False),
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=True),
    )
    op.create_index("ix_queue_entries_pool", "queue_entries", ["pool"])
    op.create_table(
        "match_presence",
        sa.Column(
            "match_id", sa.String(40), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("seen_at", _TS, nullable=False),
        sa.Column("left_at", _TS, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("match_presence")
    op.drop_index("ix_queue_entries_pool", table_name="queue_entries")
    op.drop_table("queue_entries")
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_deadline_at")
        batch.drop_constraint("uq_matches_rematch_of", type_="unique")
        batch.drop_constraint("fk_matches_opened_by_users", type_="foreignkey")
        batch.drop_column("rematch_of")
        batch.drop_column("opened_by")
        batch.drop_column("listed")
