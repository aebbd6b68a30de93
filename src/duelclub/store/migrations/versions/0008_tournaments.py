"""Club tournaments (issue 26): ``tournaments`` (settings, status, ``version`` — the compare-and-set guard of
every pairing write), ``tournament_entries`` (its players: members or bot levels, numbered from 1) and
``tournament_games`` (one row per round and board: an ordinary match, a bye or a forfeit, and its score).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("organiser_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("double", sa.Boolean(), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("move_seconds", sa.Integer(), nullable=True),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("round_minutes", sa.Integer(), nullable=True),
        sa.Column("starts_at", _TS, nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("started_at", _TS, nullable=True),
        sa.Column("ends_at", _TS, nullable=True),
        sa.Column("finished_at", _TS, nullable=True),
        sa.Column("round_started_at", _TS, nullable=True),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_organiser_id", "tournaments", ["organiser_id"])
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id",
            sa.String(40),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("bot_level", sa.String(40), nullable=True),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("joined_at", _TS, nullable=False),
        sa.Column("withdrawn_at", _TS, nullable=True),
        sa.Column("forfeits", sa.Integer(), nullable=False),
        sa.UniqueConstraint("tournament_id", "user_id", name="uq_tournament_entries_member"),
    )
    op.create_index("ix_tournament_entries_user_id", "tournament_entries", ["user_id"])
    op.create_table(
        "tournament_games",
        sa.Column(
            "tournament_id",
            sa.String(40),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("first", sa.Integer(), nullable=False),
        sa.Column("second", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id"), nullable=True),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("forfeit", sa.Boolean(), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("ended_at", _TS, nullable=True),
        sa.UniqueConstraint("match_id", name="uq_tournament_games_match_id"),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_entries_user_id", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_organiser_id", table_name="tournaments")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
