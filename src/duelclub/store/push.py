"""Web Push subscriptions and the pushes waiting to be sent (issue 28 §3, DESIGN.md §Notices).

A member subscribes any number of browsers (``push_subscriptions``; the oldest goes beyond the limit). An
endpoint is one browser's: subscribing it again updates its keys, and a browser someone else subscribed
before passes to the member who subscribes it now (their pending pushes are dropped: they were not for this
member).

A notice becomes one ``push_jobs`` row per subscription of the member (:func:`queue`), written in the
transaction that causes it, with the cause's key and the subscription's id as the unique ``dedupe_key``: a
second queue of the same cause writes nothing. Rows are leased and guarded exactly as the mail outbox's
(store/outbox.py, store/leases.py): each is sent once across workers, retried after a doubling backoff,
``failed`` after the last try. A push service that answers 404 or 410 has dropped the subscription:
:func:`drop_subscription` deletes it with its jobs.

All functions take an open session and leave the commit to it; times are aware UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from duelclub.store.leases import is_postgres, take_oldest, write_leased
from duelclub.store.models import PushJob, PushSubscription
from duelclub.store.outbox import backoff

QUEUED, SENT, FAILED = "queued", "sent", "failed"
MAX_KEY = 180  # the caller's part of dedupe_key (String(200)): room for "#" and the subscription id


@dataclass(frozen=True, slots=True)
class Subscription:
    """What a browser's ``PushSubscription.toJSON()`` gives, checked (notify/push.py)."""

    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True, slots=True)
class ClaimedPush:
    """A leased job with its subscription: ``token`` is the lease (the row's ``attempts`` after the take)."""

    id: int
    subscription_id: int
    user_id: int
    endpoint: str
    p256dh: str
    auth: str
    payload: dict[str, Any]
    ttl: int | None
    token: int


def _insert(s: Session) -> Any:
    return pg_insert if is_postgres(s) else sqlite_insert


def subscribe(s: Session, user_id: int, sub: Subscription, now: datetime, *, keep: int = 10) -> int:
    """Store ``sub`` for ``user_id`` (module docstring), as new: the subscription's id. The member's
    oldest subscriptions beyond ``keep`` are deleted."""
    owner = s.scalars(
        select(PushSubscription.user_id).where(PushSubscription.endpoint == sub.endpoint)
    ).first()
    if owner is not None and owner != user_id:
        s.execute(
            delete(PushJob).where(
                PushJob.subscription_id.in_(
                    select(PushSubscription.id).where(PushSubscription.endpoint == sub.endpoint)
                )
            )
        )
    values = {"user_id": user_id, "p256dh": sub.p256dh, "auth": sub.auth, "created_at": now}
    stmt = (
        _insert(s)(PushSubscription)
        .values(endpoint=sub.endpoint, **values)
        .on_conflict_do_update(index_elements=["endpoint"], set_=values)
        .returning(PushSubscription.id)
    )
    sub_id = int(s.execute(stmt).scalar_one())
    older = (
        select(PushSubscription.id)
        .where(PushSubscription.user_id == user_id)
        .order_by(PushSubscription.created_at.desc(), PushSubscription.id.desc())
        .offset(keep)
    )
    stale = list(s.scalars(older))
    if stale:
        s.execute(delete(PushSubscription).where(PushSubscription.id.in_(stale)))
    return sub_id


def unsubscribe(s: Session, user_id: int, endpoint: str) -> bool:
    """Delete the member's subscription of ``endpoint`` (with its pending pushes); False if there was none."""
    result = s.execute(
        delete(PushSubscription).where(
            PushSubscription.user_id == user_id, PushSubscription.endpoint == endpoint
        )
    )
    return bool(getattr(result, "rowcount", 0))


def for_user(s: Session, user_id: int) -> list[PushSubscription]:
    """The member's subscriptions, oldest first."""
    return list(
        s.scalars(
            select(PushSubscription)
            .where(PushSubscription.user_id == user_id)
            .order_by(PushSubscription.created_at, PushSubscription.id)
        )
    )


def forget_user(s: Session, user_id: int) -> int:
    """Delete every subscription of the member and their pending pushes (account deletion); how many
    subscriptions."""
    result = s.execute(delete(PushSubscription).where(PushSubscription.user_id == user_id))
    return int(getattr(result, "rowcount", 0))


def queue(s: Session, user_id: int, payload: dict[str, Any], key: str, ttl: int | None, now: datetime) -> int:
    """One job per subscription of ``user_id``, due now, unless ``key`` was queued for that subscription
    before; how many were written (0: no subscription, or all done before). ValueError: ``key`` empty or
    longer than :data:`MAX_KEY`."""
    if not key or len(key) > MAX_KEY:
        raise ValueError(f"a push key is 1 to {MAX_KEY} characters")
    written = 0
    for sub_id in s.scalars(select(PushSubscription.id).where(PushSubscription.user_id == user_id)):
        stmt = (
            _insert(s)(PushJob)
            .values(
                subscription_id=sub_id,
                payload=payload,
                ttl=ttl,
                dedupe_key=f"{key}#{sub_id}",
                status=QUEUED,
                created_at=now,
                due_at=now,
                attempts=0,
            )
            .on_conflict_do_nothing(index_elements=["dedupe_key"])
            .returning(PushJob.id)
        )
        written += s.execute(stmt).first() is not None
    return written


def _due(now: datetime, max_attempts: int) -> Any:
    return and_(
        PushJob.status == QUEUED,
        PushJob.due_at <= now,
        PushJob.attempts < max_attempts,
        or_(PushJob.leased_until.is_(None), PushJob.leased_until < now),
    )


def claim(
    s: Session, worker: str, now: datetime, lease_seconds: float, *, limit: int = 10, max_attempts: int = 10
) -> list[ClaimedPush]:
    """Lease up to ``limit`` due jobs (oldest due first) to ``worker`` until ``now + lease_seconds``."""
    out: list[ClaimedPush] = []
    due = _due(now, max_attempts)
    for _ in range(limit):
        taken = take_oldest(s, PushJob, [PushJob.id], due, PushJob.due_at, worker, now, lease_seconds)
        if taken is None:
            break
        row, token = taken
        sub = s.get(PushSubscription, row.subscription_id)
        if sub is not None:
            out.append(
                ClaimedPush(
                    row.id,
                    sub.id,
                    sub.user_id,
                    sub.endpoint,
                    sub.p256dh,
                    sub.auth,
                    dict(row.payload),
                    row.ttl,
                    token,
                )
            )
        due = and_(due, PushJob.id != row.id)
    return out


def mark_sent(s: Session, item: ClaimedPush, now: datetime) -> bool:
    """The push service accepted the job; False if this worker's lease was lost meanwhile."""
    values = {"status": SENT, "sent_at": now, "leased_until": None, "last_error": None}
    return write_leased(s, PushJob, [PushJob.id == item.id], item.token, values)


def mark_failed(
    s: Session,
    item: ClaimedPush,
    now: datetime,
    error: str,
    *,
    base_seconds: float,
    cap_seconds: float,
    max_attempts: int,
    final: bool = False,
) -> bool:
    """A try failed: due again after the backoff (store/outbox.py :func:`backoff`), or ``failed`` for good
    after ``max_attempts`` tries or when ``final`` (an answer that another try would not change); False
    if this worker's lease was lost meanwhile."""
    values: dict[str, Any] = {"leased_until": None, "last_error": error[:500]}
    if final or item.token >= max_attempts:
        values["status"] = FAILED
    else:
        values["due_at"] = now + timedelta(seconds=backoff(item.token, base_seconds, cap_seconds))
    return write_leased(s, PushJob, [PushJob.id == item.id], item.token, values)


def drop_subscription(s: Session, item: ClaimedPush) -> bool:
    """The push service no longer knows the subscription (404/410): delete it and its jobs; False if it
    was gone already."""
    result = s.execute(
        delete(PushSubscription).where(
            PushSubscription.id == item.subscription_id, PushSubscription.endpoint == item.endpoint
        )
    )
    return bool(getattr(result, "rowcount", 0))
