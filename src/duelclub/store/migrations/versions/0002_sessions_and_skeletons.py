"""Server-side sessions (``user_sessions``) and confusable-proof usernames (``users.username_skeleton``).

Existing users get their skeleton computed here. Should two existing names share a skeleton (``admin`` and
``аdmin`` with a Cyrillic «а»), the older account keeps the plain skeleton and each later one gets
``<skeleton>#<id>`` — unique, and never equal to a real skeleton since ``#`` cannot be in a name — so no
account is lost; new look-alikes of either are refused at registration.

The skeleton mapping is copied from ``duelclub.store.users`` as of this revision, so that the migration
keeps computing what it computed when it was written.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)
_CONFUSABLES = str.maketrans(
    "аеорсухкмтнвіјѕАЕОРСУХКМТНВІЈЅ",
    "aeopcyxkmthbijsAEOPCYXKMTHBIJS",
)


def _skeleton(username: str) -> str:
    return username.translate(_CONFUSABLES).casefold()


def upgrade() -> None:
    op.create_table(
        "user_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("last_seen_at", _TS, nullable=False),
        sa.Column("expires_at", _TS, nullable=False),
    )
    op.create_index("ix_user_sessions_user_id", "user_sessions", ["user_id"])

    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("username_skeleton", sa.String(64), nullable=True))
    users = sa.table(
        "users",
        sa.column("id", sa.Integer()),
        sa.column("username", sa.String()),
        sa.column("username_skeleton"),
    )
    conn = op.get_bind()
    seen: set[str] = set()
    for user_id, username in conn.execute(sa.select(users.c.id, users.c.username).order_by(users.c.id)):
        skeleton = _skeleton(username)
        if skeleton in seen:
            skeleton = f"{skeleton}#{user_id}"
        seen.add(skeleton)
        conn.execute(users.update().where(users.c.id == user_id).values(username_skeleton=skeleton))
    with op.batch_alter_table("users") as batch:
        batch.alter_column("username_skeleton", existing_type=sa.String(64), nullable=False)
        batch.create_unique_constraint("uq_users_username_skeleton", ["username_skeleton"])


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("uq_users_username_skeleton", type_="unique")
        batch.drop_column("username_skeleton")
    op.drop_index("ix_user_sessions_user_id", table_name="user_sessions")
    op.drop_table("user_sessions")
