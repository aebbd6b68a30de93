"""The notice outbox (issue 28, DESIGN.md §Notices): every notice is a row written in the transaction that
causes it, then sent off the request path by a background sender (notify/sender.py).

A row (``OutboxItem``) names its ``channel`` (``email``; Web Push later), its ``kind`` (``verify_email``,
``password_reset``; turn notices and digests later), the member, the recipient, the language and the
rendered ``payload`` (for a mail: ``subject`` and ``text``). ``dedupe_key`` is unique: a cause that must
notify once (one turn of one match) passes a key, and a second enqueue of it is a no-op.

Sending is leased like bot jobs (store/leases.py): :func:`claim` leases due rows — PostgreSQL
``SELECT … FOR UPDATE SKIP LOCKED``, SQLite a guarded UPDATE under ``BEGIN IMMEDIATE`` — with ``attempts``
as the lease token, and :func:`mark_sent` / :func:`mark_failed` write only while that token holds. So
several workers send each row once; a worker that dies mid-send leaves its rows to another after the lease
(the message then carries the same ``Message-ID``). A failure is retried after a backoff that doubles per
attempt (capped), until ``max_attempts``, then the row is ``failed``.

All functions take an open session and leave the commit to it; times are aware UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import and_, delete, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from duelclub.store.leases import is_postgres, take_oldest, write_leased
from duelclub.store.models import OutboxItem

Channel = Literal["email"]
QUEUED, SENT, FAILED = "queued", "sent", "failed"


@dataclass(frozen=True, slots=True)
class Notice:
    """A notice to write: ``payload`` is what the channel sends (a mail: ``{"subject", "text"}``)."""

    channel: Channel
    kind: str
    user_id: int | None
    recipient: str
    lang: str
    payload: dict[str, Any]
    dedupe_key: str | None = None


@dataclass(frozen=True, slots=True)
class Claimed:
    """A leased row: ``token`` is the lease (the row's ``attempts`` after the take)."""

    id: int
    channel: str
    kind: str
    recipient: str
    lang: str
    payload: dict[str, Any]
    token: int


def enqueue(s: Session, notice: Notice, now: datetime) -> bool:
    """Write ``notice``, due now; False (nothing written) when its ``dedupe_key`` was written before."""
    values = {
        "channel": notice.channel,
        "kind": notice.kind,
        "user_id": notice.user_id,
        "recipient": notice.recipient,
        "lang": notice.lang,
        "payload": notice.payload,
        "dedupe_key": notice.dedupe_key,
        "status": QUEUED,
        "created_at": now,
        "due_at": now,
        "attempts": 0,
    }
    insert = pg_insert if is_postgres(s) else sqlite_insert
    stmt = insert(OutboxItem).values(**values).on_conflict_do_nothing(index_elements=["dedupe_key"])
    return s.execute(stmt.returning(OutboxItem.id)).first() is not None


def _due(now: datetime, max_attempts: int) -> Any:
    return and_(
        OutboxItem.status == QUEUED,
        OutboxItem.due_at <= now,
        OutboxItem.attempts < max_attempts,
        or_(OutboxItem.leased_until.is_(None), OutboxItem.leased_until < now),
    )


def claim(
    s: Session, worker: str, now: datetime, lease_seconds: float, *, limit: int = 10, max_attempts: int = 20
) -> list[Claimed]:
    """Lease up to ``limit`` due rows (oldest due first) to ``worker`` until ``now + lease_seconds``."""
    out: list[Claimed] = []
    due = _due(now, max_attempts)
    for _ in range(limit):
        keys = [OutboxItem.id]
        taken = take_oldest(s, OutboxItem, keys, due, OutboxItem.due_at, worker, now, lease_seconds)
        if taken is None:
            break
        row, token = taken
        out.append(Claimed(row.id, row.channel, row.kind, row.recipient, row.lang, dict(row.payload), token))
        due = and_(due, OutboxItem.id.not_in([c.id for c in out]))
    return out


def mark_sent(s: Session, item: Claimed, now: datetime, *, keep_payload: bool = True) -> bool:
    """The row was sent; False if this worker's lease was lost meanwhile. ``keep_payload=False`` drops the
    text (links with live tokens) once it left the site, keeping the subject."""
    values: dict[str, Any] = {"status": SENT, "sent_at": now, "leased_until": None, "last_error": None}
    if not keep_payload:
        values["payload"] = {"subject": item.payload.get("subject", ""), "text": ""}
    return write_leased(s, OutboxItem, [OutboxItem.id == item.id], item.token, values)


def backoff(attempts: int, base_seconds: float, cap_seconds: float) -> float:
    """Seconds before the next try after ``attempts`` failed ones: ``base · 2^(attempts-1)``, capped."""
    return float(min(cap_seconds, base_seconds * 2 ** max(0, attempts - 1)))


def mark_failed(
    s: Session,
    item: Claimed,
    now: datetime,
    error: str,
    *,
    base_seconds: float,
    cap_seconds: float,
    max_attempts: int,
) -> bool:
    """A try failed: due again after :func:`backoff`, or ``failed`` for good after ``max_attempts`` tries;
    False if this worker's lease was lost meanwhile."""
    values: dict[str, Any] = {"leased_until": None, "last_error": error[:500]}
    if item.token >= max_attempts:
        values["status"] = FAILED
    else:
        values["due_at"] = now + timedelta(seconds=backoff(item.token, base_seconds, cap_seconds))
    return write_leased(s, OutboxItem, [OutboxItem.id == item.id], item.token, values)


def recent(s: Session, *, limit: int = 100, channel: Channel = "email") -> list[OutboxItem]:
    """The latest rows of ``channel``, newest first (the admins' «Почта» page)."""
    return list(
        s.scalars(
            select(OutboxItem)
            .where(OutboxItem.channel == channel)
            .order_by(OutboxItem.id.desc())
            .limit(limit)
        )
    )


def forget_user(s: Session, user_id: int) -> int:
    """Delete every row of the member (account deletion: their address goes with them); how many."""
    return int(getattr(s.execute(delete(OutboxItem).where(OutboxItem.user_id == user_id)), "rowcount", 0))
