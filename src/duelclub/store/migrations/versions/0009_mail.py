"""E-mail and the notice outbox (issue 28): ``users`` gains ``email``/``email_key`` (a confirmed address and
its unique casefold), ``email_notices``, ``lang`` and ``deleted_at``; ``account_tokens`` (single-use mailed
tokens, stored as SHA-256) and ``outbox`` (notices written in the transaction that causes them, sent by a
background sender with a lease).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("email_key", sa.String(254), nullable=True))
        batch.add_column(sa.Column("email_notices", sa.String(8), nullable=False, server_default="off"))
        batch.add_column(sa.Column("lang", sa.String(8), nullable=True))
        batch.add_column(sa.Column("deleted_at", _TS, nullable=True))
        batch.create_unique_constraint("uq_users_email_key", ["email_key"])
    with op.batch_alter_table("users") as batch:  # the default was for the existing rows only
        batch.alter_column("email_notices", existing_type=sa.String(8), server_default=None)
    op.create_table(
        "account_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("expires_at", _TS, nullable=False),
    )
    op.create_index("ix_account_tokens_user_id", "account_tokens", ["user_id"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
        sa.Column("recipient", sa.String(254), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("dedupe_key", sa.String(160), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("due_at", _TS, nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("leased_until", _TS, nullable=True),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("sent_at", _TS, nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.UniqueConstraint("dedupe_key", name="uq_outbox_dedupe_key"),
    )
    op.create_index("ix_outbox_user_id", "outbox", ["user_id"])
    op.create_index("ix_outbox_status_due_at", "outbox", ["status", "due_at"])


def downgrade() -> None:
    op.drop_index("ix_outbox_status_due_at", table_name="outbox")
    op.drop_index("ix_outbox_user_id", table_name="outbox")
    op.drop_table("outbox")
    op.drop_index("ix_account_tokens_user_id", table_name="account_tokens")
    op.drop_table("account_tokens")
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("uq_users_email_key", type_="unique")
        batch.drop_column("deleted_at")
        batch.drop_column("lang")
        batch.drop_column("email_notices")
        batch.drop_column("email_key")
        batch.drop_column("email")
