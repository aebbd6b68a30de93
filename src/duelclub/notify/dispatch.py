"""What a turn notice is, and the channels that carry it (issue 28 §3, §4).

The sweep (play/notices.py) decides *that* a member is owed a notice and claims it once
(store/notices.py ``claim``); then, in the same transaction, it hands the typed notice to every channel of
:class:`Dispatcher`. A channel is any callable ``(session, notice, now) -> None`` that writes what it sends
(an outbox row) in that transaction, or nothing when the member did not choose it:

- :class:`EmailChannel` — a mail per turn (``each``), the low-time reminder (``each`` or ``digest``), the
  daily digest (``digest``), each with its one-click unsubscribe link;
- Web Push plugs in here as one more channel (it reads ``notice.member.push``).

The notices themselves (notify/notice_types.py) are plain data, re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from duelclub.notify import notice_mail, unsubscribe
from duelclub.notify.notice_types import DigestNotice, Member, Notice, TurnNotice, WaitingMatch
from duelclub.store import outbox

__all__ = [
    "Channel",
    "DigestNotice",
    "Dispatcher",
    "EmailChannel",
    "Member",
    "Notice",
    "NoticeSite",
    "TurnNotice",
    "WaitingMatch",
]


Channel = Callable[[Session, Notice, datetime], None]
"""Writes a notice in the caller's transaction (or nothing, if the member did not choose the channel)."""


@dataclass(frozen=True, slots=True)
class NoticeSite:
    """What the mails need of the settings: the secret that signs unsubscribe links, the public URL."""

    secret: str
    public_url: str


def wants_mail(notice: Notice) -> bool:
    """Whether ``notice`` goes by mail: ``each`` gets every kind but the digest, ``digest`` the digest and
    the low-time reminder (a digest would come too late for it); never without a confirmed address."""
    mode = notice.member.email_mode
    if notice.member.email is None or mode == "off":
        return False
    if isinstance(notice, DigestNotice):
        return mode == "digest"
    return mode == "each" or notice.kind == "low_time"


def dedupe_key(notice: Notice, channel: str) -> str:
    """The outbox key that writes a notice once per channel."""
    uid = notice.member.user_id
    if isinstance(notice, DigestNotice):
        return f"digest:{uid}:{notice.day.isoformat()}:{channel}"
    return f"{notice.kind}:{notice.match.match_id}:{notice.seq}:{uid}:{channel}"


class EmailChannel:
    """Turn notices, low-time reminders and digests by mail (module docstring)."""

    name = "email"

    def __init__(self, site: NoticeSite) -> None:
        self.site = site

    def __call__(self, s: Session, notice: Notice, now: datetime) -> None:
        if not wants_mail(notice):
            return
        member = notice.member
        assert member.email is not None
        words = notice_mail.Site(
            name=notice_mail.site_name(self.site.public_url),
            account_url=f"{self.site.public_url}/account",
            unsubscribe_url=unsubscribe.link(self.site.secret, self.site.public_url, member.user_id),
        )
        if isinstance(notice, DigestNotice):
            payload = notice_mail.digest(member.username, member.lang, notice.matches, words)
            kind = "digest"
        else:
            payload = notice_mail.turn(
                notice.kind, member.username, member.lang, notice.match, notice.deadline_at, now, words
            )
            kind = notice.kind
        row = outbox.Notice(
            "email", kind, member.user_id, member.email, member.lang, payload, dedupe_key(notice, "email")
        )
        outbox.enqueue(s, row, now)


class Dispatcher:
    """Hands each claimed notice to every channel, in the claim's transaction."""

    def __init__(self, channels: Sequence[Channel]) -> None:
        self.channels = list(channels)

    def add(self, channel: Channel) -> None:
        """Plug in one more channel (Web Push)."""
        self.channels.append(channel)

    def __call__(self, s: Session, notice: Notice, now: datetime) -> None:
        for channel in self.channels:
            channel(s, notice, now)
