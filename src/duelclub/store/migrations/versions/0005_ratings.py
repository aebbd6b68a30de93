"""Ratings (issue 14): Glicko-2 per member per game, the changes each rated match made, rated or casual.

- ``matches.rated`` and ``queue_entries.rated``: whether a match (a seeker) is rated or casual. Matches
  stored before this revision are casual: they were played before ratings existed (``duelclub ratings
  rebuild`` rates only matches marked rated).
- ``ratings``: one row per (member, game): rating, RD, volatility, rated matches, wins/draws/losses, best
  rating, current streak, when the last rated match ended; indexed by (game, rating) for the leaderboard.
- ``rating_changes``: one row per player of a rated match (ratings before and after, the opponent's rating
  before, the score), unique per (match, member); indexed by (member, game, time) for profiles.

Revision ID: 0005
Revises: 0004
Create Date: 2027-01-10
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def _users(ondelete: str = "CASCADE") -> sa.ForeignKey:
    return sa.ForeignKey("users.id", ondelete=ondelete)


def upgrade() -> None:
    for table in ("matches", "queue_entries"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
        with op.batch_alter_table(table) as batch:
            batch.alter_column("rated", existing_type=sa.Boolean(), server_default=None)
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), _users(), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("best", sa.Float(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("last_rated_at", _TS, nullable=True),
    )
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer(), _users(), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), _users(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rd_before", sa.Float(), nullable=False),
        sa.Column("volatility_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("rd_after", sa.Float(), nullable=False),
        sa.Column("volatility_after", sa.Float(), nullable=False),
        sa.Column("opponent_rating", sa.Float(), nullable=False),
        sa.Column("opponent_rd", sa.Float(), nullable=False),
        sa.Column("at", _TS, nullable=False),
        sa.UniqueConstraint("match_id", "user_id", name="uq_rating_changes_match_user"),
    )
    op.create_index("ix_rating_changes_user_game", "rating_changes", ["user_id", "game", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_user_game", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_game_rating", table_name="ratings")
    op.drop_table("ratings")
    for table in ("queue_entries", "matches"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("rated")
