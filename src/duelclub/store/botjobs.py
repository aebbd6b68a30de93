"""Bot jobs: the decisions bots owe, handed from web workers to bot worker processes (issue 12 item 1).

One row per ``(match_id, seq)`` — the seq the bot decides at. A web worker *enqueues* a job (the bot's
determinized position, its seed and think budget); a bot worker *takes* one due job with a lease (PostgreSQL:
``SELECT … FOR UPDATE SKIP LOCKED``; SQLite: a guarded UPDATE), thinks, and *answers* guarded by its lease
token (``attempts``, incremented on every take), so a worker whose lease ran out cannot overwrite the answer
of the worker that took the job next. A web worker then lists answered jobs, applies them through the match
service and deletes them.

On PostgreSQL, enqueue and answer also ``NOTIFY`` (:data:`JOBS_CHANNEL`, :data:`ANSWERS_CHANNEL` with the
creator's name as payload) in the same transaction, so listeners wake when the row is committed.

All functions take an open session (``Database.session()``) and leave the commit to it; times are aware UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from duelclub.store.leases import is_postgres, take_oldest, write_leased
from duelclub.store.matches import ACTIVE
from duelclub.store.models import BotJob, Match

JOBS_CHANNEL = "duelclub_bot_jobs"
"""PostgreSQL NOTIFY channel: a job was enqueued or released (payload empty)."""
ANSWERS_CHANNEL = "duelclub_bot_answers"
"""PostgreSQL NOTIFY channel: a job was answered (payload: the job's creator)."""
MAX_ATTEMPTS = 5
"""A job is taken at most this many times (a bot that keeps failing on a position stops being retried)."""


@dataclass(frozen=True)
class Job:
    """A bot job as stored. ``attempts`` is the lease token of the worker that took it last."""

    match_id: str
    seq: int
    seat: int
    game: str
    level: str
    position: dict[str, Any]
    seed: int
    think_seconds: float | None
    creator: str
    attempts: int = 0
    action: dict[str, Any] | None = None


def _job(row: BotJob) -> Job:
    return Job(
        match_id=row.match_id,
        seq=row.seq,
        seat=row.seat,
        game=row.game,
        level=row.level,
        position=row.position,
        seed=row.seed,
        think_seconds=row.think_seconds,
        creator=row.creator,
        attempts=row.attempts,
        action=row.action,
    )


def _notify(s: Session, channel: str, payload: str) -> None:
    if is_postgres(s):
        s.execute(text("SELECT pg_notify(:c, :p)"), {"c": channel, "p": payload})


def enqueue(s: Session, job: Job, now: datetime) -> None:
    """Store ``job`` unless a job for its ``(match_id, seq)`` exists.

    Idempotent: enqueueing the same ``(match_id, seq)`` twice (two pokes, two web workers, a resume) keeps the
    first row — its position, seed, lease and answer — and only makes the latest enqueuer its ``creator``
    (a restarted web worker takes over the answers of the jobs its predecessor left).
    """
    values = {
        "match_id": job.match_id,
        "seq": job.seq,
        "seat": job.seat,
        "game": job.game,
        "level": job.level,
        "position": job.position,
        "seed": job.seed,
        "think_seconds": job.think_seconds,
        "creator": job.creator,
        "attempts": 0,
        "created_at": now,
    }
    insert = pg_insert if is_postgres(s) else sqlite_insert
    stmt = insert(BotJob).values(**values)
    s.execute(stmt.on_conflict_do_update(index_elements=["match_id", "seq"], set_={"creator": job.creator}))
    _notify(s, JOBS_CHANNEL, "")


def _due(now: datetime) -> Any:
    return and_(
        BotJob.action.is_(None),
        BotJob.attempts < MAX_ATTEMPTS,
        or_(BotJob.leased_until.is_(None), BotJob.leased_until < now),
    )


def take(s: Session, worker: str, now: datetime, lease_seconds: float) -> Job | None:
    """Lease the oldest due job (unanswered, not leased or lease expired, attempts left) to ``worker`` until
    ``now + lease_seconds``; the returned job's ``attempts`` is the lease token. None if nothing is due.
    PostgreSQL: ``FOR UPDATE SKIP LOCKED``; SQLite: a guarded UPDATE (store/leases.py).
    """
    keys = [BotJob.match_id, BotJob.seq]
    taken = take_oldest(s, BotJob, keys, _due(now), BotJob.created_at, worker, now, lease_seconds)
    if taken is None:
        return None
    row, token = taken
    return Job(**{**_job(row).__dict__, "attempts": token})


def answer(s: Session, job: Job, action: dict[str, Any], now: datetime) -> bool:
    """Store the answer of the worker holding lease ``job.attempts``; False (nothing stored) if the job is
    gone, already answered, or was taken again since (another worker holds a newer token)."""
    values = {"action": action, "answered_at": now, "leased_until": None}
    stored = write_leased(s, BotJob, _unanswered(job), job.attempts, values)
    if stored:
        _notify(s, ANSWERS_CHANNEL, job.creator)
    return stored


def release(s: Session, job: Job, retry_at: datetime) -> bool:
    """Give back the lease ``job.attempts`` without an answer (the bot failed): due again at ``retry_at``."""
    released = write_leased(s, BotJob, _unanswered(job), job.attempts, {"leased_until": retry_at})
    if released:
        _notify(s, JOBS_CHANNEL, "")
    return released


def _unanswered(job: Job) -> list[Any]:
    return [BotJob.match_id == job.match_id, BotJob.seq == job.seq, BotJob.action.is_(None)]


def answered(
    s: Session, *, creator: str | None = None, before: datetime | None = None, limit: int = 100
) -> list[Job]:
    """Answered jobs, oldest answer first: those created by ``creator``, or (``before`` given) those answered
    before that time whatever their creator (a sweep for jobs whose web worker died)."""
    query = select(BotJob).where(BotJob.answered_at.is_not(None))
    if creator is not None:
        query = query.where(BotJob.creator == creator)
    if before is not None:
        query = query.where(BotJob.answered_at < before)
    return [_job(r) for r in s.scalars(query.order_by(BotJob.answered_at).limit(limit))]


def live_keys(s: Session, keys: list[tuple[str, int]]) -> set[tuple[str, int]]:
    """Those of ``keys`` whose job still exists and may yet be answered (answered, or attempts left)."""
    if not keys:
        return set()
    rows = s.execute(
        select(BotJob.match_id, BotJob.seq, BotJob.attempts, BotJob.answered_at).where(
            BotJob.match_id.in_({m for m, _ in keys})
        )
    )
    wanted = set(keys)
    return {
        (m, q) for m, q, tries, at in rows if (m, q) in wanted and (at is not None or tries < MAX_ATTEMPTS)
    }


def get(s: Session, match_id: str, seq: int) -> Job | None:
    """The job at ``(match_id, seq)``, or None."""
    row = s.get(BotJob, (match_id, seq))
    return _job(row) if row is not None else None


def delete_job(s: Session, match_id: str, seq: int) -> None:
    """Remove one job (applied, or obsolete)."""
    s.execute(delete(BotJob).where(BotJob.match_id == match_id, BotJob.seq == seq))


def delete_for_match(s: Session, match_id: str, *, below_seq: int | None = None) -> int:
    """Remove a match's jobs (all, or those at a seq below ``below_seq``: the match moved on); the count."""
    query = delete(BotJob).where(BotJob.match_id == match_id)
    if below_seq is not None:
        query = query.where(BotJob.seq < below_seq)
    result = s.execute(query)
    return int(result.rowcount)  # type: ignore[attr-defined]


def delete_obsolete(s: Session) -> int:
    """Remove the jobs of matches no longer active (ended or aborted while a bot thought); the count."""
    active = select(func.count()).where(Match.id == BotJob.match_id, Match.status == ACTIVE)
    result = s.execute(delete(BotJob).where(active.scalar_subquery() == 0))
    return int(result.rowcount)  # type: ignore[attr-defined]


def counts(s: Session, now: datetime) -> tuple[int, int]:
    """(jobs waiting for a bot worker, jobs a worker is thinking on now) — for the admin status page."""
    thinking = BotJob.action.is_(None) & BotJob.leased_until.is_not(None) & (BotJob.leased_until >= now)
    waiting = s.scalar(select(func.count()).where(_due(now))) or 0
    busy = s.scalar(select(func.count()).where(thinking)) or 0
    return int(waiting), int(busy)
