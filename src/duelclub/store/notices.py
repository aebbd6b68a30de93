"""Turn notices' repository (issue 28 §3, §4; play/notices.py sends them).

- Preferences: ``users.email_notices`` (``off``, ``each``: a mail per turn, ``digest``: one mail a day) and
  ``users.push_notices`` (Web Push), :func:`preferences` / :func:`set_preferences`; :func:`unsubscribe`
  turns the mails off (the signed link of every mail).
- Member presence: ``member_presence.seen_at``, written on connect and by a heartbeat of every worker's
  site sockets (:func:`seen`, :func:`seen_all`), so every worker knows who has a page open.
- :func:`waiting_seats`: the seats of active matches between members that may be owed a notice of
  ``kind`` — the member wants it, has not been seen (on the site or on this match's socket) since
  ``seen_after``, and has no claim of this kind for the match's turn yet. Which seat is to move is the
  rules' to say (the caller replays), so a row is a candidate, not a notice. The turn's seq and start are
  the match row's copy of its last action (``matches.last_seq``, ``last_action_at``): a pass reads one row
  per active match, never the log (issue 29 §4).
- :func:`claim`: the exactly-once key of a notice — (member, kind, match, seq) inserted with ON CONFLICT
  DO NOTHING: True for the one worker (and the one pass) that may send it, in the transaction that writes
  the notice's outbox rows.

All functions take an open session and leave the commit to it; times are aware UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import ColumnElement, and_, exists, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from duelclub.store.leases import is_postgres
from duelclub.store.matches import ACTIVE
from duelclub.store.models import Match, MatchPresence, MemberPresence, NoticeClaim, User

MAX_MOVE_SECONDS = 7 * 86_400

EmailMode = Literal["off", "each", "digest"]
EMAIL_MODES: tuple[EmailMode, ...] = ("off", "each", "digest")
Kind = Literal["turn", "low_time", "digest"]
LOW_TIME_MIN_CLOCK = 86_400
"""Low-time reminders are for correspondence clocks (a day or more per move; issue 28 §4)."""
LOW_TIME_WINDOW = timedelta(seconds=MAX_MOVE_SECONDS // 10)


@dataclass(frozen=True, slots=True)
class Preferences:
    email: EmailMode
    push: bool


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat that may be owed a notice: ``seq`` is the match's last seq (0 before any action), the key of
    the turn (and of the clock running since), ``since`` when that action was stored (or the match
    started)."""

    match_id: str
    game: str
    seat: int
    user_id: int
    opponent_id: int
    seq: int
    since: datetime
    move_seconds: int | None
    deadline_at: datetime | None


def _mode(value: str) -> EmailMode:
    return value if value in EMAIL_MODES else "off"


def preferences(s: Session, user_id: int) -> Preferences | None:
    user = s.get(User, user_id)
    if user is None or user.deleted_at is not None:
        return None
    return Preferences(_mode(user.email_notices), bool(user.push_notices))


def set_preferences(s: Session, user_id: int, prefs: Preferences) -> bool:
    """Store the member's choices; False for an unknown or deleted member."""
    res = s.execute(
        update(User)
        .where(User.id == user_id, User.deleted_at.is_(None))
        .values(email_notices=prefs.email, push_notices=prefs.push)
        .execution_options(synchronize_session=False)
    )
    return int(getattr(res, "rowcount", 0)) == 1


def set_push(s: Session, user_id: int, push: bool) -> None:
    """Store the member's Web Push choice alone (a browser subscribed, or the last one removed)."""
    s.execute(
        update(User)
        .where(User.id == user_id, User.deleted_at.is_(None))
        .values(push_notices=push)
        .execution_options(synchronize_session=False)
    )


def unsubscribe(s: Session, user_id: int) -> bool:
    """Turn the member's notice mails off (the mails' link); False for an unknown or deleted member."""
    res = s.execute(
        update(User)
        .where(User.id == user_id, User.deleted_at.is_(None))
        .values(email_notices="off")
        .execution_options(synchronize_session=False)
    )
    return int(getattr(res, "rowcount", 0)) == 1


# -- member presence -------------------------------------------------------------------------------
def _upsert(s: Session) -> Any:
    return pg_insert if is_postgres(s) else sqlite_insert


def seen(s: Session, user_id: int, now: datetime) -> None:
    """A socket of the member's pages is connected at ``now`` (on connect)."""
    stmt = _upsert(s)(MemberPresence).values(user_id=user_id, seen_at=now)
    s.execute(stmt.on_conflict_do_update(index_elements=["user_id"], set_={"seen_at": now}))


def seen_all(s: Session, user_ids: list[int], now: datetime) -> None:
    """Heartbeat of every member with a site socket on this worker: one statement per 500 members (the rows
    exist: :func:`seen` on connect)."""
    for i in range(0, len(user_ids), 500):
        s.execute(
            update(MemberPresence)
            .where(MemberPresence.user_id.in_(user_ids[i : i + 500]))
            .values(seen_at=now)
            .execution_options(synchronize_session=False)
        )


def last_seen(s: Session, user_id: int) -> datetime | None:
    return s.scalars(select(MemberPresence.seen_at).where(MemberPresence.user_id == user_id)).first()


# -- candidates and claims -------------------------------------------------------------------------
def _wants(kind: Kind) -> ColumnElement[bool]:
    mailable = and_(User.email.is_not(None), User.deleted_at.is_(None))
    if kind == "digest":
        return and_(mailable, User.email_notices == "digest")
    if kind == "turn":
        by_mail = and_(mailable, User.email_notices == "each")
    else:  # a low-time reminder goes by mail to "each" and "digest" alike: a digest would be too late
        by_mail = and_(mailable, User.email_notices.in_(("each", "digest")))
    return or_(by_mail, and_(User.deleted_at.is_(None), User.push_notices.is_(True)))


def _since() -> Any:
    """When the match's turn began: its last action (the row's copy of the log's last row), or its start."""
    return func.coalesce(Match.last_action_at, Match.started_at)


def waiting_seats(
    s: Session,
    kind: Kind,
    seen_after: datetime,
    *,
    since_before: datetime | None = None,
    low_time_at: datetime | None = None,
    limit: int = 200,
) -> list[SeatRow]:
    """The seats of active member-vs-member matches that may be owed a ``turn`` or ``low_time`` notice
    (module docstring), oldest turn first. ``since_before``: only turns whose last action (or start) is
    older; ``low_time_at`` (now): only clocks of a day or more whose deadline is still ahead, at most a
    tenth of the longest clock away (the caller keeps those within a tenth of their own clock)."""
    out: list[SeatRow] = []
    for seat in (0, 1):
        user_col = Match.seat0_user_id if seat == 0 else Match.seat1_user_id
        other_col = Match.seat1_user_id if seat == 0 else Match.seat0_user_id
        last_at = _since()
        last_seq = Match.last_seq
        claimed = exists().where(
            NoticeClaim.user_id == user_col,
            NoticeClaim.kind == kind,
            NoticeClaim.match_id == Match.id,
            NoticeClaim.seq == last_seq,
        )
        on_site = exists().where(MemberPresence.user_id == user_col, MemberPresence.seen_at > seen_after)
        on_match = exists().where(
            MatchPresence.match_id == Match.id, MatchPresence.seat == seat, MatchPresence.seen_at > seen_after
        )
        q = (
            select(Match, user_col, other_col, last_seq, last_at)
            .join(User, User.id == user_col)
            .where(
                Match.status == ACTIVE, other_col.is_not(None), _wants(kind), ~claimed, ~on_site, ~on_match
            )
        )
        if since_before is not None:
            q = q.where(last_at <= since_before)
        if low_time_at is not None:  # the exact tenth is the caller's (date arithmetic differs per SQL)
            q = q.where(
                Match.move_seconds >= LOW_TIME_MIN_CLOCK,
                Match.deadline_at > low_time_at,
                Match.deadline_at <= low_time_at + LOW_TIME_WINDOW,
            )
        for m, uid, other, seq, since in s.execute(q.order_by(last_at).limit(limit)):
            out.append(
                SeatRow(m.id, m.game, seat, uid, other, int(seq), since, m.move_seconds, m.deadline_at)
            )
    out.sort(key=lambda r: r.since)
    return out[:limit]


def claim(s: Session, user_id: int, kind: Kind, match_id: str, seq: int, now: datetime) -> bool:
    """Claim the notice (member, kind, match, seq): True once, for the first caller across workers (the
    caller then writes the notice in this transaction); False if it was claimed before."""
    values = {"user_id": user_id, "kind": kind, "match_id": match_id, "seq": seq, "created_at": now}
    stmt = _upsert(s)(NoticeClaim).values(**values).on_conflict_do_nothing()
    return s.execute(stmt.returning(NoticeClaim.user_id)).first() is not None


def digest_members(s: Session, day: int, seen_after: datetime, limit: int = 200) -> list[int]:
    """Members who want a daily digest, have a confirmed address, no digest claimed for ``day`` (a date's
    ordinal) and were not seen on the site since ``seen_after``."""
    claimed = exists().where(
        NoticeClaim.user_id == User.id,
        NoticeClaim.kind == "digest",
        NoticeClaim.match_id == "",
        NoticeClaim.seq == day,
    )
    on_site = exists().where(MemberPresence.user_id == User.id, MemberPresence.seen_at > seen_after)
    q = select(User.id).where(_wants("digest"), ~claimed, ~on_site).order_by(User.id).limit(limit)
    return list(s.scalars(q))


@dataclass(frozen=True, slots=True)
class ActiveMatch:
    match_id: str
    game: str
    seat: int
    opponent_id: int
    since: datetime


def active_matches(s: Session, user_id: int) -> list[ActiveMatch]:
    """The member's active matches against members (the digest's list; the caller keeps those waiting for
    the member's move), the longest waiting first."""
    last_at = _since()
    q = (
        select(Match.id, Match.game, Match.seat0_user_id, Match.seat1_user_id, last_at)
        .where(
            Match.status == ACTIVE,
            or_(Match.seat0_user_id == user_id, Match.seat1_user_id == user_id),
            Match.seat0_user_id.is_not(None),
            Match.seat1_user_id.is_not(None),
        )
        .order_by(last_at)
        .limit(500)
    )
    out: list[ActiveMatch] = []
    for mid, game, a, b, since in s.execute(q):
        seat = 0 if a == user_id else 1
        out.append(ActiveMatch(mid, game, seat, b if seat == 0 else a, since))
    return out
