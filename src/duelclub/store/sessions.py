"""Server-side login sessions (``user_sessions``): created at login, looked up on every request, ended by
logout, by «log out everywhere» and by a password change.

The client holds a random session id (32 bytes, URL-safe); the table holds only its SHA-256, so a leaked
database or backup gives no usable cookie. A session lasts :data:`SESSION_TTL` from login (absolute, not
sliding). ``last_seen_at`` is refreshed at most every :data:`TOUCH_EVERY`, so an ordinary request costs
one primary-key lookup (joined with its user) and no write.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from duelclub.store.models import User, UserSession

SESSION_TTL = timedelta(days=30)
TOUCH_EVERY = timedelta(minutes=5)


@dataclass(frozen=True, slots=True)
class SessionUser:
    """The user a live session belongs to."""

    id: int
    username: str
    is_admin: bool


def token_hash(token: str) -> str:
    """The stored form of a session id: SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def create_session(s: Session, user_id: int, now: datetime, ttl: timedelta = SESSION_TTL) -> str:
    """Start a session for ``user_id``; returns the session id for the cookie (only its hash is stored).
    Also drops the user's expired sessions, so the table does not grow without bound."""
    s.execute(delete(UserSession).where(UserSession.user_id == user_id, UserSession.expires_at <= now))
    token = secrets.token_urlsafe(32)
    s.add(
        UserSession(
            token_hash=token_hash(token),
            user_id=user_id,
            created_at=now,
            last_seen_at=now,
            expires_at=now + ttl,
        )
    )
    s.flush()
    return token


def find(s: Session, token: str, now: datetime) -> tuple[SessionUser | None, bool]:
    """(the user of a live session or None, whether its ``last_seen_at`` is due for :func:`touch`); reads
    only (a read-only session will do)."""
    row = s.execute(
        select(UserSession.last_seen_at, UserSession.expires_at, User.id, User.username, User.is_admin)
        .join(User, User.id == UserSession.user_id)
        .where(UserSession.token_hash == token_hash(token))
    ).first()
    if row is None or row.expires_at <= now:
        return None, False
    user = SessionUser(id=row.id, username=row.username, is_admin=row.is_admin)
    return user, now - row.last_seen_at >= TOUCH_EVERY


def touch(s: Session, token: str, now: datetime) -> None:
    """Record that the session was used at ``now``."""
    s.execute(update(UserSession).where(UserSession.token_hash == token_hash(token)).values(last_seen_at=now))


def end_session(s: Session, token: str) -> int | None:
    """End one session; the id of the user it belonged to (None if it was already gone)."""
    owner = s.scalars(
        delete(UserSession).where(UserSession.token_hash == token_hash(token)).returning(UserSession.user_id)
    ).first()
    return int(owner) if owner is not None else None


def end_user_sessions(s: Session, user_id: int, *, keep: str | None = None) -> int:
    """End every session of ``user_id`` except the one with id ``keep``; returns how many ended."""
    q = delete(UserSession).where(UserSession.user_id == user_id)
    if keep is not None:
        q = q.where(UserSession.token_hash != token_hash(keep))
    return int(getattr(s.execute(q), "rowcount", 0))
