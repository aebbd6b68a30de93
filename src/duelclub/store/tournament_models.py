"""The tables of club tournaments (issue 26; store/models.py lists every table, store/tournaments.py reads and
writes these): ``tournaments``, ``tournament_entries``, ``tournament_games``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from duelclub.store.model_base import Base, utcnow


class Tournament(Base):
    """A club tournament (issue 26; ``store/tournaments.py``): settings, status, and ``version``, the guard
    of every pairing write (compare and set)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(40))
    format: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    organiser_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    rounds: Mapped[int | None] = mapped_column(Integer)
    double: Mapped[bool] = mapped_column(Boolean, default=False)
    minutes: Mapped[int | None] = mapped_column(Integer)
    move_seconds: Mapped[int | None] = mapped_column(Integer)
    max_players: Mapped[int] = mapped_column(Integer)
    round_minutes: Mapped[int | None] = mapped_column(Integer)
    starts_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    ends_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    round_started_at: Mapped[datetime | None]
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=0)


class TournamentEntry(Base):
    """A player of a tournament: ``number`` (from 1, in joining order) is the player id of the pairers;
    a member (``user_id``) or a bot level (``bot_level``); ``seed`` its place in the seeding, set at the
    start; ``withdrawn_at`` once withdrawn; ``forfeits`` counts its no-shows."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id", name="uq_tournament_entries_member"),)

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    bot_level: Mapped[str | None] = mapped_column(String(40))
    seed: Mapped[int | None] = mapped_column(Integer)
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    withdrawn_at: Mapped[datetime | None]
    forfeits: Mapped[int] = mapped_column(Integer, default=0)


class TournamentGame(Base):
    """One board of one round: ``first``/``second`` are entry numbers (``second`` None: a bye); an ordinary
    match (``match_id``, unique), or none for a bye or a forfeit; ``score`` of the first seat once known."""

    __tablename__ = "tournament_games"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    first: Mapped[int] = mapped_column(Integer)
    second: Mapped[int | None] = mapped_column(Integer)
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id"), unique=True)
    score: Mapped[float | None] = mapped_column(Float)
    forfeit: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None]
