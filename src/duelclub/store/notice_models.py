"""The tables of reaching members away from the tab (issue 28; store/models.py lists every table):
``account_tokens`` and ``outbox`` (mail), ``member_presence`` and ``notice_claims`` (turn notices),
``push_subscriptions`` and ``push_jobs`` (Web Push)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from duelclub.store.model_base import Base, utcnow


class AccountToken(Base):
    """A single-use token mailed to a member (issue 28): ``purpose`` ``verify_email`` (confirms ``email``)
    or ``password_reset``. Only the token's SHA-256 is stored; using it deletes the row."""

    __tablename__ = "account_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(16))
    email: Mapped[str | None] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]


class OutboxItem(Base):
    """One notice to send off the site (issue 28, ``store/outbox.py``): written in the transaction that
    causes it, sent by a background sender with a lease (``attempts`` is the lease token, as in
    store/leases.py). ``channel`` ``email`` (later ``push``), ``kind`` what it says (``verify_email``,
    ``password_reset``; later turn notices and digests), ``payload`` the rendered message, ``dedupe_key``
    (unique) makes "one notice per cause" a constraint. ``status``: ``queued`` → ``sent`` or ``failed``."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_due_at", "status", "due_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    channel: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    recipient: Mapped[str] = mapped_column(String(254))
    lang: Mapped[str] = mapped_column(String(8))
    payload: Mapped[dict[str, Any]]
    dedupe_key: Mapped[str | None] = mapped_column(String(160), unique=True)
    status: Mapped[str] = mapped_column(String(8), default="queued")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    due_at: Mapped[datetime]
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    leased_until: Mapped[datetime | None]
    worker: Mapped[str | None] = mapped_column(String(64))
    sent_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(String(500))


class MemberPresence(Base):
    """When a socket of the member's pages (``/ws/turns``, open on every page) last reported in, from any
    worker (play/member_presence.py): a member seen within ``OFFLINE_AFTER_SECONDS`` gets no turn notice."""

    __tablename__ = "member_presence"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    seen_at: Mapped[datetime]


class NoticeClaim(Base):
    """One notice cause, claimed once (store/notices.py): ``kind`` ``turn`` or ``low_time`` of a match at
    ``seq`` (the turn), or ``digest`` (``match_id`` "", ``seq`` the day's ordinal)."""

    __tablename__ = "notice_claims"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    created_at: Mapped[datetime]


class PushSubscription(Base):
    """A browser of ``user_id`` subscribed to Web Push (issue 28 §3, ``store/push.py``): the push service's
    ``endpoint`` (unique: one browser's subscription belongs to the member who last subscribed it), the
    browser's ECDH key ``p256dh`` and ``auth`` secret (base64url, RFC 8291)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(2048), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(50))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PushJob(Base):
    """One push to one subscription, leased like the outbox's rows (``attempts`` is the lease token):
    ``payload`` ``{title, body, url, tag}``, ``ttl`` the seconds a push service may keep it for an offline
    browser (None: the ``PUSH_TTL_SECONDS`` setting), ``dedupe_key`` (unique) the cause's key with the
    subscription's id, so a cause is pushed once per browser. Deleting the subscription deletes its jobs.
    ``status``: ``queued`` → ``sent`` or ``failed``."""

    __tablename__ = "push_jobs"
    __table_args__ = (Index("ix_push_jobs_status_due_at", "status", "due_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True
    )
    payload: Mapped[dict[str, Any]]
    ttl: Mapped[int | None] = mapped_column(Integer)
    dedupe_key: Mapped[str | None] = mapped_column(String(200), unique=True)
    status: Mapped[str] = mapped_column(String(8), default="queued")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    due_at: Mapped[datetime]
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    leased_until: Mapped[datetime | None]
    worker: Mapped[str | None] = mapped_column(String(64))
    sent_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(String(500))
