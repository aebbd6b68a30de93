"""Turn notices (issue 28 §3, §4): ``users`` gains ``push_notices`` (the member's Web Push choice; the
e-mail choice ``email_notices`` — ``off``, ``each`` or ``digest`` — came with 0009); ``member_presence``
(when a member's site socket last reported in, from any worker) and ``notice_claims`` (one row per notice
cause: (member, kind, match, seq), the key that makes each turn notice, low-time reminder and daily digest
go out once across workers).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("push_notices", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("users") as batch:  # the default was for the existing rows only
        batch.alter_column("push_notices", existing_type=sa.Boolean(), server_default=None)
    op.create_table(
        "member_presence",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seen_at", _TS, nullable=False),
    )
    op.create_table(
        "notice_claims",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(40), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "kind", "match_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("notice_claims")
    op.drop_table("member_presence")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("push_notices")
