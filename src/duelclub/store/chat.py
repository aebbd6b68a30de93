"""The match chat in the database (issue 16 §5): messages, reports and mutes (tables in store/models.py).

Plain functions over a session, as the other repositories; rows come back as frozen dataclasses so nothing
outside ``store/`` holds an ORM object.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duelclub.store.models import ChatMessage, ChatMute, ChatReport, User


@dataclass(frozen=True, slots=True)
class MessageRecord:
    """One chat message with its author's name; ``hidden`` once an admin hid it."""

    id: int
    match_id: str
    user_id: int
    username: str
    channel: str
    text: str
    created_at: datetime
    hidden: bool


@dataclass(frozen=True, slots=True)
class ReportRecord:
    """An open (or settled) report: the message, who reported it and how many members did."""

    id: int
    message: MessageRecord
    reporter: str
    reports: int
    created_at: datetime
    action: str | None


def _record(m: ChatMessage, username: str) -> MessageRecord:
    return MessageRecord(
        m.id, m.match_id, m.user_id, username, m.channel, m.text, m.created_at, m.hidden_at is not None
    )


def add_message(
    s: Session, match_id: str, user_id: int, channel: str, text: str, at: datetime
) -> MessageRecord:
    """Store a message (the caller checked who may write what); returns it with the author's name."""
    row = ChatMessage(match_id=match_id, user_id=user_id, channel=channel, text=text, created_at=at)
    s.add(row)
    s.flush()
    name = s.scalar(select(User.username).where(User.id == user_id)) or "?"
    return _record(row, name)


def messages(
    s: Session, match_id: str, channels: tuple[str, ...], *, with_hidden: bool = False
) -> list[MessageRecord]:
    """The match's messages of ``channels`` in order (hidden ones only ``with_hidden``: the admins' log)."""
    q = (
        select(ChatMessage, User.username)
        .join(User, User.id == ChatMessage.user_id)
        .where(ChatMessage.match_id == match_id, ChatMessage.channel.in_(channels))
        .order_by(ChatMessage.id)
    )
    if not with_hidden:
        q = q.where(ChatMessage.hidden_at.is_(None))
    return [_record(m, name) for m, name in s.execute(q)]


def get_message(s: Session, message_id: int) -> MessageRecord | None:
    row = s.execute(
        select(ChatMessage, User.username)
        .join(User, User.id == ChatMessage.user_id)
        .where(ChatMessage.id == message_id)
    ).first()
    return _record(row[0], row[1]) if row else None


def report(s: Session, message_id: int, reporter_id: int, at: datetime) -> bool:
    """File a report; False if this member already reported this message (one report each)."""
    try:
        with s.begin_nested():
            s.add(ChatReport(message_id=message_id, reporter_id=reporter_id, created_at=at))
    except IntegrityError:
        return False
    return True


def open_reports(s: Session, limit: int = 200) -> list[ReportRecord]:
    """Unsettled reports, oldest first, one per message (with the number of members who reported it)."""
    counts = dict(
        s.execute(
            select(ChatReport.message_id, func.count())
            .where(ChatReport.resolved_at.is_(None))
            .group_by(ChatReport.message_id)
        ).all()
    )
    rows = s.execute(
        select(ChatReport, User.username)
        .join(User, User.id == ChatReport.reporter_id)
        .where(ChatReport.resolved_at.is_(None))
        .order_by(ChatReport.id)
    ).all()
    out: list[ReportRecord] = []
    seen: set[int] = set()
    for rep, reporter in rows:
        if rep.message_id in seen or len(out) >= limit:
            continue
        seen.add(rep.message_id)
        msg = get_message(s, rep.message_id)
        if msg is not None:
            out.append(
                ReportRecord(rep.id, msg, reporter, int(counts.get(rep.message_id, 1)), rep.created_at, None)
            )
    return out


def settle(s: Session, message_id: int, admin_id: int, *, hide: bool, at: datetime) -> bool:
    """Settle every open report of a message (``hidden`` or ``kept``) and hide it if asked; False if the
    message does not exist."""
    msg = s.get(ChatMessage, message_id)
    if msg is None:
        return False
    if hide and msg.hidden_at is None:
        msg.hidden_at, msg.hidden_by = at, admin_id
    for rep in s.scalars(
        select(ChatReport).where(ChatReport.message_id == message_id, ChatReport.resolved_at.is_(None))
    ):
        rep.resolved_at, rep.resolved_by, rep.action = at, admin_id, "hidden" if hide else "kept"
    return True


def mute(s: Session, user_id: int, until: datetime, admin_id: int, at: datetime) -> None:
    s.add(ChatMute(user_id=user_id, until=until, by=admin_id, created_at=at))


def muted_until(s: Session, user_id: int, now: datetime) -> datetime | None:
    """When the member's latest admin mute ends, if it has not ended yet."""
    until = s.scalar(select(func.max(ChatMute.until)).where(ChatMute.user_id == user_id))
    if until is not None and until.tzinfo is None:
        from datetime import UTC

        until = until.replace(tzinfo=UTC)
    return until if until is not None and until > now else None
