"""Matchmaking queue and presence repositories (DESIGN.md §Persistence; the lobby of issue 6).

The queue lives in the database so that every worker sees one queue: ``queue_entries`` has one row per
waiting member (primary key ``user_id``: one entry per member; a join is an upsert, so two joins at once
never collide). Entries with the same ``pool`` (game, options and clock, see ``play/matchmaking.py``) are
compatible. Pairing claims both rows with guarded UPDATEs in user id order (``claim_pair``), so two workers
pairing at once never use one entry twice.

``match_presence`` holds, per (match, seat), when a seated player's socket last reported in (``seen_at``,
refreshed by a heartbeat) and when its last socket left (``left_at``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, delete, literal_column, or_, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duelclub.store.matches import ENDED
from duelclub.store.models import Match, MatchPresence, QueueEntry


@dataclass(frozen=True, slots=True)
class QueueRecord:
    """One ``queue_entries`` row."""

    user_id: int
    game: str
    options: dict[str, Any]
    move_seconds: int | None
    pool: str
    client_seed: str
    created_at: datetime
    seen_at: datetime
    match_id: str | None
    rated: bool = False


def _queue(e: QueueEntry) -> QueueRecord:
    return QueueRecord(
        user_id=e.user_id,
        game=e.game,
        options=dict(e.options),
        move_seconds=e.move_seconds,
        pool=e.pool,
        client_seed=e.client_seed,
        created_at=e.created_at,
        seen_at=e.seen_at,
        match_id=e.match_id,
        rated=bool(e.rated),
    )


def join_queue(s: Session, record: QueueRecord) -> None:
    """Put ``record`` in the queue as a waiting entry, replacing the member's previous entry (one entry per
    member), in one upsert: two joins at once both succeed and the last one wins (issue 18 §2).

    An entry paired into a match that has not ended stays as it is: a join racing the pairing (or a join
    from another tab while that match is played) must not turn it back into a waiting entry, which would
    hide the match from the member and let them be paired twice. The caller reads the entry afterwards and
    answers ``matched``. The condition is evaluated on the row the upsert locks, so a pairing committed
    meanwhile is seen; a match the statement cannot see yet counts as live."""
    insert = pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert
    values = {
        "user_id": record.user_id,
        "game": record.game,
        "options": record.options,
        "move_seconds": record.move_seconds,
        "pool": record.pool,
        "client_seed": record.client_seed,
        "created_at": record.created_at,
        "seen_at": record.seen_at,
        "match_id": None,
        "rated": record.rated,
    }
    stmt = insert(QueueEntry).values(values)
    # SQLAlchemy does not correlate a subquery in ON CONFLICT's WHERE with the target table (it would add
    # a second, unrelated queue_entries to the subquery's FROM), so the existing row's column is named as SQL.
    existing_match_id: ColumnElement[str] = literal_column(f"{QueueEntry.__tablename__}.match_id")
    match_ended = select(Match.id).where(Match.id == existing_match_id, Match.status.in_(ENDED)).exists()
    s.execute(
        stmt.on_conflict_do_update(
            index_elements=[QueueEntry.user_id],
            set_={name: stmt.excluded[name] for name in values if name != "user_id"},
            where=or_(QueueEntry.match_id.is_(None), match_ended),
        ).execution_options(synchronize_session=False)
    )


def leave_queue(
    s: Session, user_id: int, *, waiting_only: bool = False, unseen_since: datetime | None = None
) -> bool:
    """Remove the member's entry (only a still-waiting one with ``waiting_only``; only one not seen at or
    after ``unseen_since`` with that); True if one was removed."""
    q = delete(QueueEntry).where(QueueEntry.user_id == user_id)
    if waiting_only:
        q = q.where(QueueEntry.match_id.is_(None))
    if unseen_since is not None:
        q = q.where(QueueEntry.seen_at < unseen_since)
    return int(getattr(s.execute(q), "rowcount", 0)) > 0


def queue_entry(s: Session, user_id: int) -> QueueRecord | None:
    e = s.get(QueueEntry, user_id, populate_existing=True)
    return _queue(e) if e is not None else None


def touch_queue(s: Session, user_id: int, now: datetime) -> None:
    """Heartbeat: the member is still waiting (an open lobby page or a polling script)."""
    s.execute(
        update(QueueEntry)
        .where(QueueEntry.user_id == user_id, QueueEntry.match_id.is_(None))
        .values(seen_at=now)
        .execution_options(synchronize_session=False)
    )


def waiting(s: Session, fresh_since: datetime, limit: int = 500) -> list[QueueRecord]:
    """Unpaired entries seen at or after ``fresh_since``, oldest first."""
    q = (
        select(QueueEntry)
        .where(QueueEntry.match_id.is_(None), QueueEntry.seen_at >= fresh_since)
        .order_by(QueueEntry.created_at, QueueEntry.user_id)
        .limit(limit)
    )
    return [_queue(e) for e in s.scalars(q)]


def drop_stale(s: Session, seen_before: datetime) -> int:
    """Remove unpaired entries whose member stopped reporting before ``seen_before``."""
    res = s.execute(delete(QueueEntry).where(QueueEntry.match_id.is_(None), QueueEntry.seen_at < seen_before))
    return int(getattr(res, "rowcount", 0))


def claim_pair(s: Session, a: QueueRecord, b: QueueRecord, match_id: str) -> bool:
    """Mark both entries as paired into ``match_id`` if both are still waiting in their pool; False (and
    the caller rolls back) otherwise. Rows are locked in user id order, so two pairers cannot deadlock."""
    for entry in sorted((a, b), key=lambda e: e.user_id):
        res = s.execute(
            update(QueueEntry)
            .where(
                QueueEntry.user_id == entry.user_id,
                QueueEntry.match_id.is_(None),
                QueueEntry.pool == entry.pool,
            )
            .values(match_id=match_id)
            .execution_options(synchronize_session=False)
        )
        if int(getattr(res, "rowcount", 0)) != 1:
            return False
    return True


# -- presence --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PresenceRecord:
    seat: int
    seen_at: datetime
    left_at: datetime | None


def seen(s: Session, match_id: str, seat: int, now: datetime) -> None:
    """A socket of ``seat`` is connected at ``now`` (connect and heartbeat)."""
    res = s.execute(
        update(MatchPresence)
        .where(MatchPresence.match_id == match_id, MatchPresence.seat == seat)
        .values(seen_at=now)
        .execution_options(synchronize_session=False)
    )
    if int(getattr(res, "rowcount", 0)) == 0:
        try:
            with s.begin_nested():
                s.add(MatchPresence(match_id=match_id, seat=seat, seen_at=now, left_at=None))
        except IntegrityError:  # another worker inserted it first
            seen(s, match_id, seat, now)


def seen_all(s: Session, seats: list[tuple[str, int]], now: datetime) -> None:
    """Heartbeat of every (match, seat) with a socket on this worker: one statement per 500 seats, in the
    caller's one transaction (issue 12 §2: one write per worker per beat, not one per socket). The rows
    exist already (:func:`seen` on connect)."""
    for i in range(0, len(seats), 500):
        chunk = seats[i : i + 500]
        s.execute(
            update(MatchPresence)
            .where(tuple_(MatchPresence.match_id, MatchPresence.seat).in_(chunk))
            .values(seen_at=now)
            .execution_options(synchronize_session=False)
        )


def left(s: Session, match_id: str, seat: int, now: datetime) -> None:
    """The last socket of ``seat`` on this worker closed at ``now``."""
    s.execute(
        update(MatchPresence)
        .where(MatchPresence.match_id == match_id, MatchPresence.seat == seat)
        .values(left_at=now)
        .execution_options(synchronize_session=False)
    )


def presence(s: Session, match_id: str) -> dict[int, PresenceRecord]:
    rows = s.scalars(select(MatchPresence).where(MatchPresence.match_id == match_id))
    return {p.seat: PresenceRecord(p.seat, p.seen_at, p.left_at) for p in rows}
