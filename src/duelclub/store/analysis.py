"""Post-game analyses (issue 17 §4): asked for by web workers, computed by bot workers, stored once.

One ``match_analyses`` row per match. A web worker :func:`request`\\ s the analysis of a finished match
(idempotent); a bot worker :func:`take`\\ s the oldest one not done with a lease — the pattern of
``store/botjobs.py``: PostgreSQL ``SELECT … FOR UPDATE SKIP LOCKED``, SQLite a guarded UPDATE, ``attempts`` as
the lease token — computes it and :func:`store`\\ s the entries guarded by that token; a worker that fails
:func:`release`\\ s it. After :data:`MAX_ATTEMPTS` takes a request is given up (it stays pending).

All functions take an open session (``Database.session()``) and leave the commit to it; times are aware UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from duelclub.store.botjobs import JOBS_CHANNEL
from duelclub.store.models import MatchAnalysis

MAX_ATTEMPTS = 3
"""An analysis is taken at most this many times."""


@dataclass(frozen=True)
class AnalysisJob:
    """A request as taken by a worker: ``attempts`` is its lease token."""

    match_id: str
    game: str
    attempts: int


@dataclass(frozen=True)
class Analysis:
    """A stored analysis: ``entries`` None while it is not computed yet."""

    match_id: str
    game: str
    iterations: int | None
    entries: list[Any] | None
    done_at: datetime | None


def _is_pg(s: Session) -> bool:
    return s.get_bind().dialect.name == "postgresql"


def request(s: Session, match_id: str, game: str, now: datetime) -> None:
    """Ask for the analysis of ``match_id`` unless it was asked for before (idempotent); on PostgreSQL also
    wake the bot workers (``NOTIFY`` on the bot jobs' channel)."""
    insert = pg_insert if _is_pg(s) else sqlite_insert
    values = {"match_id": match_id, "game": game, "attempts": 0, "requested_at": now}
    s.execute(insert(MatchAnalysis).values(**values).on_conflict_do_nothing(index_elements=["match_id"]))
    if _is_pg(s):
        s.execute(text("SELECT pg_notify(:c, '')"), {"c": JOBS_CHANNEL})


def get(s: Session, match_id: str) -> Analysis | None:
    """The analysis row of ``match_id`` (done or not), or None if it was never asked for."""
    row = s.get(MatchAnalysis, match_id)
    if row is None:
        return None
    return Analysis(row.match_id, row.game, row.iterations, row.entries, row.done_at)


def _due(now: datetime) -> Any:
    return and_(
        MatchAnalysis.entries.is_(None),
        MatchAnalysis.attempts < MAX_ATTEMPTS,
        or_(MatchAnalysis.leased_until.is_(None), MatchAnalysis.leased_until < now),
    )


def take(s: Session, worker: str, now: datetime, lease_seconds: float) -> AnalysisJob | None:
    """Lease the oldest due request to ``worker`` until ``now + lease_seconds``; None if nothing is due."""
    query = select(MatchAnalysis).where(_due(now)).order_by(MatchAnalysis.requested_at).limit(1)
    if _is_pg(s):
        query = query.with_for_update(skip_locked=True)
    row = s.scalars(query).first()
    if row is None:
        return None
    token = row.attempts + 1
    changed = s.execute(
        update(MatchAnalysis)
        .where(MatchAnalysis.match_id == row.match_id, MatchAnalysis.attempts == row.attempts)
        .where(_due(now))
        .values(attempts=token, leased_until=now + timedelta(seconds=lease_seconds), worker=worker)
        .execution_options(synchronize_session=False)
    )
    if not changed.rowcount:  # type: ignore[attr-defined]
        return None
    return AnalysisJob(row.match_id, row.game, token)


def store(s: Session, job: AnalysisJob, entries: list[Any], iterations: int, now: datetime) -> bool:
    """Store the entries of the worker holding lease ``job.attempts``; False if it lost the lease or the
    analysis is already stored."""
    changed = s.execute(
        update(MatchAnalysis)
        .where(MatchAnalysis.match_id == job.match_id, MatchAnalysis.attempts == job.attempts)
        .where(MatchAnalysis.entries.is_(None))
        .values(entries=entries, iterations=iterations, done_at=now, leased_until=None)
        .execution_options(synchronize_session=False)
    )
    return bool(changed.rowcount)  # type: ignore[attr-defined]


def release(s: Session, job: AnalysisJob, retry_at: datetime) -> bool:
    """Give back the lease ``job.attempts`` without a result: due again at ``retry_at``."""
    changed = s.execute(
        update(MatchAnalysis)
        .where(MatchAnalysis.match_id == job.match_id, MatchAnalysis.attempts == job.attempts)
        .where(MatchAnalysis.entries.is_(None))
        .values(leased_until=retry_at)
        .execution_options(synchronize_session=False)
    )
    return bool(changed.rowcount)  # type: ignore[attr-defined]
