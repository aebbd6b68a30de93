"""The match's last action on its row (issue 29 §4): ``matches.last_seq`` (0 before any action) and
``matches.last_action_at`` (None before any), written by the statement that appends each action, so the
turn notices' sweep reads a column instead of aggregating ``match_actions`` for every active match every
minute. Existing matches get the values of their log.

Revision ID: 0013
Revises: 0012 (Web Push)
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BACKFILL = (
    "UPDATE matches SET"
    " last_seq = COALESCE((SELECT MAX(seq) FROM match_actions WHERE match_actions.match_id = matches.id), 0),"
    " last_action_at = (SELECT created_at FROM match_actions WHERE match_actions.match_id = matches.id"
    " ORDER BY seq DESC LIMIT 1)"
)


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("last_seq", sa.Integer(), server_default="0", nullable=False))
        batch.add_column(sa.Column("last_action_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(_BACKFILL)


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN on both stores (SQLite 3.35+): a batch copy of ``matches`` would drop the
    # table that ``match_actions`` and others reference, which SQLite's enforced foreign keys refuse.
    op.drop_column("matches", "last_action_at")
    op.drop_column("matches", "last_seq")
