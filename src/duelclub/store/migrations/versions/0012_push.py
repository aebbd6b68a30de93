"""Web Push (issue 28 §3): ``push_subscriptions`` (members' browsers: the push service's endpoint, unique, and
the browser's keys) and ``push_jobs`` (one push to one subscription, leased by the push sender; deleted with
its subscription).

Revision ID: 0012
Revises: 0011 (the turn notices)
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("endpoint", sa.String(2048), nullable=False),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(50), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.UniqueConstraint("endpoint", name="uq_push_subscriptions_endpoint"),
    )
    op.create_index("ix_push_subscriptions_user_id", "push_subscriptions", ["user_id"])
    op.create_table(
        "push_jobs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "subscription_id",
            sa.Integer(),
            sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("ttl", sa.Integer(), nullable=True),
        sa.Column("dedupe_key", sa.String(200), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("due_at", _TS, nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("leased_until", _TS, nullable=True),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("sent_at", _TS, nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.UniqueConstraint("dedupe_key", name="uq_push_jobs_dedupe_key"),
    )
    op.create_index("ix_push_jobs_subscription_id", "push_jobs", ["subscription_id"])
    op.create_index("ix_push_jobs_status_due_at", "push_jobs", ["status", "due_at"])


def downgrade() -> None:
    op.drop_index("ix_push_jobs_status_due_at", table_name="push_jobs")
    op.drop_index("ix_push_jobs_subscription_id", table_name="push_jobs")
    op.drop_table("push_jobs")
    op.drop_index("ix_push_subscriptions_user_id", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
