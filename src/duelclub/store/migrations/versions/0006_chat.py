"""Match chat (issue 16 §5): messages stored with their match, reports, and admin mutes.

- ``chat_messages``: one row per message — the match, the author, the channel (``players`` or
  ``spectators``), the text (≤ 200 characters), when it was written, and when and by whom an admin hid it.
  Rows go with their match (ON DELETE CASCADE).
- ``chat_reports``: a member's report of a message, and how an admin settled it (``resolved_at``,
  ``resolved_by``, ``action``: ``hidden`` or ``kept``).
- ``chat_mutes``: a member muted by an admin until ``until`` (the latest row counts).

Revision ID: 0006
Revises: 0005 (written beside issue 14's 0005 on 0004; re-chained after it when the two were merged)
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("text", sa.String(200), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("hidden_at", _TS, nullable=True),
        sa.Column("hidden_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
    )
    op.create_index("ix_chat_messages_match_id", "chat_messages", ["match_id", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "message_id", sa.Integer(), sa.ForeignKey("chat_messages.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("resolved_at", _TS, nullable=True),
        sa.Column("resolved_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("action", sa.String(16), nullable=True),
        sa.UniqueConstraint("message_id", "reporter_id", name="uq_chat_reports_message_reporter"),
    )
    op.create_index("ix_chat_reports_resolved_at", "chat_reports", ["resolved_at"])
    op.create_table(
        "chat_mutes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("until", _TS, nullable=False),
        sa.Column("by", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_reports_resolved_at", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_match_id", table_name="chat_messages")
    op.drop_table("chat_messages")
