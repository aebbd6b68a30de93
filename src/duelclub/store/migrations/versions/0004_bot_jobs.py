"""Bot jobs: bots think in bot worker processes, never in a web worker (issue 12 item 1).

- ``bot_jobs``: one row per decision a bot owes, primary key ``(match_id, seq)`` (the seq it decides at),
  with the determinized position, the bot's seed and think budget, the creating web worker, the lease
  (``attempts`` is the lease token, ``leased_until``, ``worker``) and the answer (``action``,
  ``answered_at``). Rows go with their match (ON DELETE CASCADE).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-20
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "bot_jobs",
        sa.Column(
            "match_id", sa.String(40), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("level", sa.String(40), nullable=False),
        sa.Column("position", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("think_seconds", sa.Float(), nullable=True),
        sa.Column("creator", sa.String(80), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("leased_until", _TS, nullable=True),
        sa.Column("worker", sa.String(80), nullable=True),
        sa.Column("action", sa.JSON(), nullable=True),
        sa.Column("answered_at", _TS, nullable=True),
        sa.Column("created_at", _TS, nullable=False),
    )
    op.create_index("ix_bot_jobs_answered_at", "bot_jobs", ["answered_at"])


def downgrade() -> None:
    op.drop_index("ix_bot_jobs_answered_at", table_name="bot_jobs")
    op.drop_table("bot_jobs")
