"""SQLAlchemy 2 models: users, matches and the append-only match log (DESIGN.md §Persistence).

Tables:
- ``users`` — accounts; ``username_key`` (``username.casefold()``) makes names unique case-insensitively
  for Cyrillic too (SQLite's ``lower()`` only folds ASCII); ``username_skeleton`` (Cyrillic look-alikes
  mapped to Latin, then casefolded, ``store.users.username_skeleton``) makes names that only differ by
  confusable letters unique too (``аdmin`` with a Cyrillic «а» vs ``admin``).
- ``user_sessions`` — server-side login sessions: the SHA-256 of the random session id the cookie carries
  (never the id itself), the user, and its times; deleting a row ends that session.
- ``matches`` — one row per match; ``id`` is the string ``G`` of rules/fairness.md.
- ``match_actions`` — the match's event log, primary key ``(match_id, seq)``; rows are only ever inserted.
- ``queue_entries`` — the matchmaking queue (one row per waiting member, ``store/lobby.py``): the game, its
  options and clock as a ``pool`` key (compatible entries share it), a heartbeat, and the match once paired.
- ``match_presence`` — per (match, seat): when a seated player's socket last reported in and when it left,
  so every worker can tell whether the opponent is connected and for how long it has been gone.
- ``chat_messages``, ``chat_reports``, ``chat_mutes`` — the match chat (issue 16 §5, ``store/chat.py``):
  messages stored with their match per channel (players / spectators), members' reports, admins' mutes.
- ``ratings`` — one Glicko-2 rating per (member, game) with the member's rated record in that game
  (matches, wins, draws, losses, best rating, current streak) and when their last rated match ended
  (issue 14; ``store/ratings.py``).
- ``rating_changes`` — one row per player of each rated match: the ratings before and after, the opponent's
  rating before, the score; unique per (match, member), so a match is rated at most once.
- ``bot_jobs`` — one decision a bot owes, primary key ``(match_id, seq)`` (the seq it decides at): the
  determinized position it thinks on, its seed and think budget, the lease of the bot worker thinking on it,
  and its answer (``store/botjobs.py``, issue 12).
- ``match_analyses`` — the post-game analysis of a finished match, one row per match: its request, the lease
  of the bot worker computing it, and the result (``store/analysis.py``, issue 17 §4).

- ``tournaments``, ``tournament_entries``, ``tournament_games`` — club tournaments (issue 26,
  ``store/tournaments.py``): the tournament's settings, status and ``version`` (bumped by every pairing,
  so two workers racing pair once); its players (``number`` is the player id the pairers use; a member or
  a bot level); and its games, one per (round, board), each an ordinary match, a bye or a forfeit.
- ``account_tokens``, ``outbox`` — mailed single-use tokens (address confirmation, password reset) and the
  notices waiting to be sent off the site (issue 28, ``store/account_tokens.py``, ``store/outbox.py``).
  ``users`` carries the member's address (``email``, confirmed; ``email_key`` its casefold, unique), the
  notices they chose (``email_notices``), their language when known (``lang``) and ``deleted_at``.
- ``blocks`` — one row per (blocker, blocked) pair of members (issue 28 §5, ``store/blocks.py``).
- ``member_presence``, ``notice_claims`` — turn notices (issue 28 §3, ``store/notices.py``): when a member's
  site socket last reported in (any worker), and one row per notice sent (member, kind, match, seq: the key
  that sends each once). ``users.push_notices`` is the member's Web Push choice.
- ``push_subscriptions``, ``push_jobs`` — members' browsers subscribed to Web Push and the pushes waiting
  for one of them (issue 28 §3, ``store/push.py``).

``matches`` also carries the lobby's facts: ``listed`` (an open match shown in the challenge table),
``opened_by`` (who created the row: the invite's author, or the player who offered a rematch) and
``rematch_of`` (the ended match a rematch follows; unique, so one rematch per match). ``rated`` says whether
the match counts for the ratings (decided when it is opened: a rated game between members, chosen rated).
``last_seq`` and ``last_action_at`` repeat the log's last row (its seq and time), written by the statement
that appends it, so the periodic passes (the turn notices' sweep) never aggregate the log (issue 29 §4).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

# Re-exported: the base, and the tables kept in modules of their own (model_base.py, notice_models.py,
# tournament_models.py), so that every table is on Base.metadata and importable from here as before.
from duelclub.store.model_base import Base as Base
from duelclub.store.model_base import UTCDateTime as UTCDateTime
from duelclub.store.model_base import utcnow as utcnow
from duelclub.store.notice_models import AccountToken as AccountToken
from duelclub.store.notice_models import MemberPresence as MemberPresence
from duelclub.store.notice_models import NoticeClaim as NoticeClaim
from duelclub.store.notice_models import OutboxItem as OutboxItem
from duelclub.store.notice_models import PushJob as PushJob
from duelclub.store.notice_models import PushSubscription as PushSubscription
from duelclub.store.tournament_models import Tournament as Tournament
from duelclub.store.tournament_models import TournamentEntry as TournamentEntry
from duelclub.store.tournament_models import TournamentGame as TournamentGame


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(40))
    username_key: Mapped[str] = mapped_column(String(40), unique=True)
    username_skeleton: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    email: Mapped[str | None] = mapped_column(String(254))
    email_key: Mapped[str | None] = mapped_column(String(254), unique=True)
    email_notices: Mapped[str] = mapped_column(String(8), default="off")
    push_notices: Mapped[bool] = mapped_column(Boolean, default=False)
    lang: Mapped[str | None] = mapped_column(String(8))
    deleted_at: Mapped[datetime | None]


class UserSession(Base):
    __tablename__ = "user_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    seat0_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    seat1_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    seat0_bot: Mapped[str | None] = mapped_column(String(40))
    seat1_bot: Mapped[str | None] = mapped_column(String(40))
    invite_token: Mapped[str | None] = mapped_column(String(64), unique=True)
    commitment: Mapped[str] = mapped_column(String(64))
    server_seed: Mapped[str] = mapped_column(String(64))
    client_seed_a: Mapped[str] = mapped_column(String(64), default="")
    client_seed_b: Mapped[str] = mapped_column(String(64), default="")
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    move_seconds: Mapped[int | None] = mapped_column(Integer)
    deadline_at: Mapped[datetime | None] = mapped_column(index=True)
    listed: Mapped[bool] = mapped_column(Boolean, default=False)
    opened_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    rematch_of: Mapped[str | None] = mapped_column(String(40), unique=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    last_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The seq of the match's last action (0 before any), written with each action (store/hot_write.py,
    store/matches.py ``append_action``): the background passes read it without scanning the log."""
    last_action_at: Mapped[datetime | None]
    """When the last action was stored (None before any), written with ``last_seq``."""


class MatchAction(Base):
    __tablename__ = "match_actions"
    __table_args__ = (UniqueConstraint("match_id", "client_action_id", name="uq_match_actions_client_id"),)

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(8))
    client_action_id: Mapped[str | None] = mapped_column(String(64))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class QueueEntry(Base):
    __tablename__ = "queue_entries"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    move_seconds: Mapped[int | None] = mapped_column(Integer)
    pool: Mapped[str] = mapped_column(String(255), index=True)
    client_seed: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)


class MatchPresence(Base):
    __tablename__ = "match_presence"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)
    left_at: Mapped[datetime | None]


class BotJob(Base):
    __tablename__ = "bot_jobs"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(40))
    level: Mapped[str] = mapped_column(String(40))
    position: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    think_seconds: Mapped[float | None] = mapped_column(Float)
    creator: Mapped[str] = mapped_column(String(80))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    leased_until: Mapped[datetime | None]
    worker: Mapped[str | None] = mapped_column(String(80))
    action: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    answered_at: Mapped[datetime | None] = mapped_column(index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ChatMessage(Base):
    """One chat message of a match (issue 16 §5; store/chat.py): ``channel`` is ``players`` or ``spectators``;
    an admin may hide it (``hidden_at``, ``hidden_by``)."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_match_id", "match_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    channel: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    hidden_at: Mapped[datetime | None]
    hidden_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))


class ChatReport(Base):
    """A member's report of a chat message and how an admin settled it (``action``: hidden / kept)."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("message_id", "reporter_id", name="uq_chat_reports_message_reporter"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id", ondelete="CASCADE"))
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    resolved_at: Mapped[datetime | None] = mapped_column(index=True)
    resolved_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    action: Mapped[str | None] = mapped_column(String(16))


class ChatMute(Base):
    """A member muted in every chat by an admin until ``until``."""

    __tablename__ = "chat_mutes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    until: Mapped[datetime]
    by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class MemberRating(Base):
    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_rating", "game", "rating"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    best: Mapped[float] = mapped_column(Float)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    last_rated_at: Mapped[datetime | None]


class RatingChange(Base):
    __tablename__ = "rating_changes"
    __table_args__ = (
        UniqueConstraint("match_id", "user_id", name="uq_rating_changes_match_user"),
        Index("ix_rating_changes_user_game", "user_id", "game", "at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int] = mapped_column(Integer)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    score: Mapped[float] = mapped_column(Float)
    rating_before: Mapped[float] = mapped_column(Float)
    rd_before: Mapped[float] = mapped_column(Float)
    volatility_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    rd_after: Mapped[float] = mapped_column(Float)
    volatility_after: Mapped[float] = mapped_column(Float)
    opponent_rating: Mapped[float] = mapped_column(Float)
    opponent_rd: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime]


class MatchAnalysis(Base):
    """The post-game analysis of a finished match (issue 17 §4; ``store/analysis.py``): requested once, taken
    by a bot worker with a lease (``attempts`` is the lease token), stored once as ``entries`` (a JSON list,
    one entry per action)."""

    __tablename__ = "match_analyses"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    iterations: Mapped[int | None] = mapped_column(Integer)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    leased_until: Mapped[datetime | None]
    worker: Mapped[str | None] = mapped_column(String(80))
    entries: Mapped[list[Any] | None] = mapped_column(JSON(none_as_null=True))
    requested_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    done_at: Mapped[datetime | None]


class Block(Base):
    """``blocker`` blocked ``blocked`` (issue 28 §5, ``store/blocks.py``): they are not seated together by
    challenges, invites or matchmaking, and do not chat with each other (play/blocks.py)."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
