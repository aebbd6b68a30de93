"""Account operations that send mail (issue 28 §1, §2), each in the caller's transaction, so the mail row
(store/outbox.py) is written exactly when the change it reports is.

- :func:`set_email`: a new address waits for confirmation (a ``verify_email`` token, its mail to the new
  address; an earlier pending address stops working); ``None`` removes the address, confirmed or pending.
  The confirmed address stays until the new one is confirmed.
- :func:`confirm_email`: the link's token makes its address the member's (409 ``email_taken`` if another
  member confirmed it meanwhile: addresses are unique).
- :func:`request_reset`: a reset mail to a member's *confirmed* address; nothing for an unknown address
  (the caller answers the same either way).
- :func:`reset_password`: the link's token sets a new password and ends every session of the member (and
  every other reset link).

Tokens are signed (notify/tokens.py) and single-use (store/account_tokens.py); a bad, used, expired or
foreign token raises :class:`BadToken`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from duelclub.notify import compose, tokens
from duelclub.notify.addresses import address_key, check_address
from duelclub.store import account_tokens, outbox, sessions, users
from duelclub.store.models import User


class BadToken(Exception):
    """The link's token is malformed, forged, used, expired or of another purpose."""


class EmailTaken(Exception):
    """Another member has confirmed this address."""


@dataclass(frozen=True)
class MailSite:
    """What the operations need of the settings: the secret that signs tokens, the public URL for links,
    the links' lifetimes."""

    secret: str
    public_url: str
    reset_ttl_seconds: int = 3600
    verify_ttl_seconds: int = 2 * 86400

    @property
    def site(self) -> str:
        return compose.site_name(self.public_url)


def set_email(s: Session, site: MailSite, user: User, address: str | None, now: datetime) -> str | None:
    """Change (or, with None or "", remove) ``user``'s address; returns the address now waiting for
    confirmation (None if none). Raises ``addresses.BadAddress``. Asking again for the confirmed address
    cancels a pending change and sends nothing."""
    account_tokens.revoke(s, user.id, "verify_email")
    if not address:
        user.email = user.email_key = None
        return None
    address = check_address(address)
    if user.email_key == address_key(address):
        user.email = address
        return None
    token = tokens.make(site.secret, "verify_email")
    ttl = timedelta(seconds=site.verify_ttl_seconds)
    account_tokens.issue(s, token, user.id, "verify_email", now, ttl, email=address)
    notice = compose.verify_email(
        user_id=user.id,
        username=user.username,
        address=address,
        lang=compose.mail_lang(user.lang),  # the member's, else the request's
        link=f"{site.public_url}/verify-email/{token}",
        site=site.site,
        ttl_seconds=site.verify_ttl_seconds,
    )
    outbox.enqueue(s, notice, now)
    return address


def confirm_email(s: Session, site: MailSite, token: str, now: datetime) -> tuple[int, str]:
    """Use a confirmation token: (member id, the address now theirs). Raises BadToken, EmailTaken (the
    token is then left unused)."""
    if not tokens.valid(site.secret, "verify_email", token):
        raise BadToken
    found = account_tokens.peek(s, token, "verify_email", now)
    if found is None or found.email is None:
        raise BadToken
    other = users.find_by_email(s, address_key(found.email))
    if other is not None and other.id != found.user_id:
        raise EmailTaken
    used = account_tokens.use(s, token, "verify_email", now)
    user = users.get_user(s, found.user_id)
    if used is None or user is None or user.deleted_at is not None:
        raise BadToken
    user.email, user.email_key = found.email, address_key(found.email)
    s.flush()
    return user.id, found.email


def request_reset(s: Session, site: MailSite, address: str, now: datetime, lang: str) -> bool:
    """Mail a reset link to the member with this confirmed address; False (nothing written) if there is
    none. ``lang``: the request's language, used when the member's own is not known."""
    user = users.find_by_email(s, address_key(address))
    if user is None or user.email is None:
        return False
    token = tokens.make(site.secret, "password_reset")
    ttl = timedelta(seconds=site.reset_ttl_seconds)
    account_tokens.issue(s, token, user.id, "password_reset", now, ttl, replace=False)
    notice = compose.password_reset(
        user_id=user.id,
        username=user.username,
        address=user.email,
        lang=user.lang or lang,
        link=f"{site.public_url}/reset/{token}",
        site=site.site,
        ttl_seconds=site.reset_ttl_seconds,
    )
    outbox.enqueue(s, notice, now)
    return True


def reset_username(s: Session, site: MailSite, token: str, now: datetime) -> str:
    """The username a live reset token is for (the reset page, and the password rule that a password may
    not contain it); raises BadToken."""
    if not tokens.valid(site.secret, "password_reset", token):
        raise BadToken
    found = account_tokens.peek(s, token, "password_reset", now)
    user = users.get_user(s, found.user_id) if found is not None else None
    if user is None or user.deleted_at is not None:
        raise BadToken
    return user.username


def reset_password(s: Session, site: MailSite, token: str, password_hash: str, now: datetime) -> int:
    """Use a reset token: store ``password_hash`` (of a password already checked), end every session and
    every other reset link of the member; returns their id. Raises BadToken."""
    if not tokens.valid(site.secret, "password_reset", token):
        raise BadToken
    used = account_tokens.use(s, token, "password_reset", now)
    user = users.get_user(s, used.user_id) if used is not None else None
    if user is None or user.deleted_at is not None:
        raise BadToken
    user.password_hash = password_hash
    account_tokens.revoke(s, user.id, "password_reset")
    sessions.end_user_sessions(s, user.id)
    return user.id
