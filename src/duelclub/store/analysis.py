"""Post-game analyses (issue 17 §4): asked for by web workers, computed by bot workers, stored once.

One ``match_analyses`` row per match. A web worker :func:`request`\\ s the analysis of a finished match
(idempotent); a bot worker :func:`take`\\ s the oldest one not done with a lease (store/leases.py, as
bot jobs are taken: ``attempts`` is the lease token) — computes it and :func:`store`\\ s the entries
guarded by that token; a worker that fails :func:`release`\\ s it. After
:data:`MAX_ATTEMPTS` takes a request is given up (it stays pending).

All functions take an open session (``Database.session()``) and leave the commit to it; times are aware UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, or_, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from duelclub.store.botjobs import JOBS_CHANNEL
from duelclub.store.leases import is_postgres, take_oldest, write_leased
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
    """A stored analysis: ``entries`` None while it is not computed yet; ``attempts`` workers took it,
    the last one's lease running ``leased_until`` (None: not leased)."""

    match_id: str
    game: str
    iterations: int | None
    entries: list[Any] | None
    done_at: datetime | None
    attempts: int = 0
    leased_until: datetime | None = None

    def given_up(self, now: datetime) -> bool:
        """True if it will never be computed: :data:`MAX_ATTEMPTS` workers took it, and none holds it now."""
        if self.entries is not None or self.attempts < MAX_ATTEMPTS:
            return False
        return self.leased_until is None or self.leased_until < now


def request(s: Session, match_id: str, game: str, now: datetime) -> None:
    """Ask for the analysis of ``match_id`` unless it was asked for before (idempotent); on PostgreSQL also
    wake the bot workers (``NOTIFY`` on the bot jobs' channel)."""
    insert = pg_insert if is_postgres(s) else sqlite_insert
    values = {"match_id": match_id, "game": game, "attempts": 0, "requested_at": now}
    s.execute(insert(MatchAnalysis).values(**values).on_conflict_do_nothing(index_elements=["match_id"]))
    if is_postgres(s):
        s.execute(text("SELECT pg_notify(:c, '')"), {"c": JOBS_CHANNEL})


def get(s: Session, match_id: str) -> Analysis | None:
    """The analysis row of ``match_id`` (done or not), or None if it was never asked for."""
    row = s.get(MatchAnalysis, match_id)
    if row is None:
        return None
    return Analysis(
        row.match_id, row.game, row.iterations, row.entries, row.done_at, row.attempts, row.leased_until
    )


def _due(now: datetime) -> Any:
    return and_(
        MatchAnalysis.entries.is_(None),
        MatchAnalysis.attempts < MAX_ATTEMPTS,
        or_(MatchAnalysis.leased_until.is_(None), MatchAnalysis.leased_until < now),
    )


def take(s: Session, worker: str, now: datetime, lease_seconds: float) -> AnalysisJob | None:
    """Lease the oldest due request to ``worker`` until ``now + lease_seconds``; None if nothing is due."""
    keys, order = [MatchAnalysis.match_id], MatchAnalysis.requested_at
    taken = take_oldest(s, MatchAnalysis, keys, _due(now), order, worker, now, lease_seconds)
    if taken is None:
        return None
    row, token = taken
    return AnalysisJob(row.match_id, row.game, token)


def store(s: Session, job: AnalysisJob, entries: list[Any], iterations: int, now: datetime) -> bool:
    """Store the entries of the worker holding lease ``job.attempts``; False if it lost the lease or the
    analysis is already stored."""
    values = {"entries": entries, "iterations": iterations, "done_at": now, "leased_until": None}
    return write_leased(s, MatchAnalysis, _pending(job), job.attempts, values)


def release(s: Session, job: AnalysisJob, retry_at: datetime) -> bool:
    """Give back the lease ``job.attempts`` without a result: due again at ``retry_at``."""
    return write_leased(s, MatchAnalysis, _pending(job), job.attempts, {"leased_until": retry_at})


def _pending(job: AnalysisJob) -> list[Any]:
    return [MatchAnalysis.match_id == job.match_id, MatchAnalysis.entries.is_(None)]
