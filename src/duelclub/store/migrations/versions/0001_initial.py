"""Initial schema: users, matches, match_actions (DESIGN.md §Persistence).

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(40), nullable=False),
        sa.Column("username_key", sa.String(40), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("is_admin", sa.Boolean(), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.UniqueConstraint("username_key", name="uq_users_username_key"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seat0_user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("seat1_user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("seat0_bot", sa.String(40), nullable=True),
        sa.Column("seat1_bot", sa.String(40), nullable=True),
        sa.Column("invite_token", sa.String(64), nullable=True),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("client_seed_a", sa.String(64), nullable=False),
        sa.Column("client_seed_b", sa.String(64), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("started_at", _TS, nullable=True),
        sa.Column("finished_at", _TS, nullable=True),
        sa.Column("move_seconds", sa.Integer(), nullable=True),
        sa.Column("deadline_at", _TS, nullable=True),
        sa.UniqueConstraint("invite_token", name="uq_matches_invite_token"),
    )
    op.create_index("ix_matches_game", "matches", ["game"])
    op.create_index("ix_matches_status", "matches", ["status"])
    op.create_index("ix_matches_seat0_user_id", "matches", ["seat0_user_id"])
    op.create_index("ix_matches_seat1_user_id", "matches", ["seat1_user_id"])
    op.create_table(
        "match_actions",
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("client_action_id", sa.String(64), nullable=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.UniqueConstraint("match_id", "client_action_id", name="uq_match_actions_client_id"),
    )


def downgrade() -> None:
    op.drop_table("match_actions")
    op.drop_table("matches")
    op.drop_table("users")
