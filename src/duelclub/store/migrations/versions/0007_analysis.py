"""Post-game analysis (issue 17 §4): ``match_analyses``, one row per finished match whose analysis was asked
for — the game, the search iterations per decision, the lease of the bot worker computing it (``attempts``
as the lease token, ``leased_until``, ``worker``) and the result (``entries``, a JSON list with one entry per
action; ``done_at``). Rows go with their match (ON DELETE CASCADE).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "match_analyses",
        sa.Column(
            "match_id", sa.String(40), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("iterations", sa.Integer(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("leased_until", _TS, nullable=True),
        sa.Column("worker", sa.String(80), nullable=True),
        sa.Column("entries", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("requested_at", _TS, nullable=False),
        sa.Column("done_at", _TS, nullable=True),
    )
    op.create_index("ix_match_analyses_requested_at", "match_analyses", ["requested_at"])


def downgrade() -> None:
    op.drop_index("ix_match_analyses_requested_at", table_name="match_analyses")
    op.drop_table("match_analyses")
