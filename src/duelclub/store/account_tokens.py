"""Single-use tokens mailed to members (issue 28 §1–2): address confirmation and password reset.

A token is 32 random bytes (URL-safe) followed by an HMAC of the purpose and those bytes under the site's
secret (:func:`duelclub.notify.tokens.sign`, so a mistyped or forged link is refused without a query);
the table holds only its SHA-256 (``account_tokens``, like ``user_sessions``), so a leaked database or
backup gives no usable link. Using a token deletes its row in the same statement that reads it
(``DELETE … RETURNING``): a replayed link, or two clicks racing, finds nothing the second time. Expired
rows are refused and removed as new tokens are issued.

All functions take an open session and leave the commit to it; times are aware UTC.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from duelclub.store.models import AccountToken

Purpose = Literal["verify_email", "password_reset"]


@dataclass(frozen=True, slots=True)
class UsedToken:
    """What a used token was for: its member and (for ``verify_email``) the address it confirms."""

    user_id: int
    email: str | None


def token_hash(token: str) -> str:
    """The stored form of a token: SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def issue(
    s: Session,
    token: str,
    user_id: int,
    purpose: Purpose,
    now: datetime,
    ttl: timedelta,
    *,
    email: str | None = None,
    replace: bool = True,
) -> None:
    """Store ``token`` for ``user_id`` until ``now + ttl``. ``replace``: the member's earlier tokens of
    this purpose stop working (a new confirmation link for a new address supersedes the old one). Expired
    tokens of every member are dropped."""
    s.execute(delete(AccountToken).where(AccountToken.expires_at <= now))
    if replace:
        revoke(s, user_id, purpose)
    s.add(
        AccountToken(
            token_hash=token_hash(token),
            user_id=user_id,
            purpose=purpose,
            email=email,
            created_at=now,
            expires_at=now + ttl,
        )
    )
    s.flush()


def peek(s: Session, token: str, purpose: Purpose, now: datetime) -> UsedToken | None:
    """The live token's member and address without using it (None: unknown, used, expired or of another
    purpose); the reset page checks its link before asking for a password."""
    row = s.scalars(
        select(AccountToken).where(
            AccountToken.token_hash == token_hash(token), AccountToken.purpose == purpose
        )
    ).first()
    if row is None or row.expires_at <= now:
        return None
    return UsedToken(row.user_id, row.email)


def use(s: Session, token: str, purpose: Purpose, now: datetime) -> UsedToken | None:
    """Use ``token`` once: delete its row and return what it was for; None if it is unknown, already used,
    expired or of another purpose (nothing deleted then, except an expired row)."""
    row = s.execute(
        delete(AccountToken)
        .where(AccountToken.token_hash == token_hash(token), AccountToken.purpose == purpose)
        .returning(AccountToken.user_id, AccountToken.email, AccountToken.expires_at)
    ).first()
    if row is None or row.expires_at <= now:
        return None
    return UsedToken(int(row.user_id), row.email)


def revoke(s: Session, user_id: int, purpose: Purpose | None = None) -> int:
    """Drop the member's tokens (of one purpose, or all); how many."""
    q = delete(AccountToken).where(AccountToken.user_id == user_id)
    if purpose is not None:
        q = q.where(AccountToken.purpose == purpose)
    return int(getattr(s.execute(q), "rowcount", 0))


def pending_email(s: Session, user_id: int, now: datetime) -> str | None:
    """The address waiting for confirmation (the live ``verify_email`` token's), or None."""
    row = s.scalars(
        select(AccountToken.email)
        .where(
            AccountToken.user_id == user_id,
            AccountToken.purpose == "verify_email",
            AccountToken.expires_at > now,
        )
        .order_by(AccountToken.created_at.desc())
    ).first()
    return row
