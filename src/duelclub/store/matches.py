"""Match repository: small functions over a Session (DESIGN.md §Persistence — the match is its event log).

Rows leave this module as frozen :class:`MatchRecord`/:class:`ActionRecord` values, safe to pass between
threads. ``match_actions`` is append-only: this module only ever INSERTs into it. Every write to a match
starts with an UPDATE of its ``matches`` row guarded by the expected status, which takes the row lock
(PostgreSQL) or the write lock (SQLite) first, so a move, an abort and an invite acceptance serialize.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duelclub.store.models import Match, MatchAction

OPEN, ACTIVE, FINISHED, ABORTED = "open", "active", "finished", "aborted"
ENDED = (FINISHED, ABORTED)


class SeqConflict(Exception):
    """Another writer already stored this (match_id, seq) or this client action id."""


class MatchNotActive(Exception):
    """The match row was not in the status the write expected."""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One ``matches`` row. ``seat_users``/``seat_bots`` are indexed by seat."""

    id: str
    game: str
    options: dict[str, Any]
    status: str
    seat_users: tuple[int | None, int | None]
    seat_bots: tuple[str | None, str | None]
    invite_token: str | None
    commitment: str
    server_seed: str
    client_seeds: tuple[str, str]
    result: dict[str, Any] | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    move_seconds: int | None
    deadline_at: datetime | None
    listed: bool = False
    opened_by: int | None = None
    rematch_of: str | None = None
    rated: bool = False


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One ``match_actions`` row; ``seq`` counts from 1."""

    match_id: str
    seq: int
    seat: int
    action: dict[str, Any]
    source: str
    client_action_id: str | None
    user_id: int | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Finish:
    """How a write ends the match: the new status, the result JSON and the time."""

    status: str
    result: dict[str, Any]
    at: datetime


def _record(m: Match) -> MatchRecord:
    return MatchRecord(
        id=m.id,
        game=m.game,
        options=dict(m.options),
        status=m.status,
        seat_users=(m.seat0_user_id, m.seat1_user_id),
        seat_bots=(m.seat0_bot, m.seat1_bot),
        invite_token=m.invite_token,
        commitment=m.commitment,
        server_seed=m.server_seed,
        client_seeds=(m.client_seed_a, m.client_seed_b),
        result=dict(m.result) if m.result is not None else None,
        created_at=m.created_at,
        started_at=m.started_at,
        finished_at=m.finished_at,
        move_seconds=m.move_seconds,
        deadline_at=m.deadline_at,
        listed=bool(m.listed),
        opened_by=m.opened_by,
        rematch_of=m.rematch_of,
        rated=bool(m.rated),
    )


as_record = _record
"""A ``matches`` row as its frozen :class:`MatchRecord` (for other repositories' queries)."""


def _action(a: MatchAction) -> ActionRecord:
    return ActionRecord(
        match_id=a.match_id,
        seq=a.seq,
        seat=a.seat,
        action=dict(a.action),
        source=a.source,
        client_action_id=a.client_action_id,
        user_id=a.user_id,
        created_at=a.created_at,
    )


def insert_match(s: Session, **fields: Any) -> MatchRecord:
    """Insert a ``matches`` row from column values (see models.Match) and flush."""
    m = Match(**fields)
    s.add(m)
    s.flush()
    return _record(m)


def get_match(s: Session, match_id: str) -> MatchRecord | None:
    m = s.get(Match, match_id, populate_existing=True)
    return _record(m) if m is not None else None


def get_by_invite(s: Session, token: str) -> MatchRecord | None:
    m = s.scalars(select(Match).where(Match.invite_token == token)).first()
    return _record(m) if m is not None else None


def actions_after(s: Session, match_id: str, seq: int = 0) -> list[ActionRecord]:
    """The match's actions with ``seq`` greater than the given one, in order."""
    rows = s.scalars(
        select(MatchAction)
        .where(MatchAction.match_id == match_id, MatchAction.seq > seq)
        .order_by(MatchAction.seq)
    )
    return [_action(a) for a in rows]


def start_invited(
    s: Session, match_id: str, user_id: int, seed_b: str, now: datetime, deadline_at: datetime | None = None
) -> bool:
    """Seat ``user_id`` at seat 1 of an open match and make it active (its first move clock running until
    ``deadline_at``); False if it was taken or cancelled first. The guarded UPDATE makes a double accept
    start one match: the second finds the row no longer open."""
    res = s.execute(
        update(Match)
        .where(Match.id == match_id, Match.status == OPEN, Match.seat1_user_id.is_(None))
        .values(
            seat1_user_id=user_id,
            client_seed_b=seed_b,
            status=ACTIVE,
            started_at=now,
            deadline_at=deadline_at,
        )
        .execution_options(synchronize_session=False)
    )
    return _rowcount(res) == 1


def start_rematch(
    s: Session, match_id: str, seat: int, seed: str, now: datetime, deadline_at: datetime | None
) -> bool:
    """Start an open rematch whose seats are both taken: ``seat`` (the player accepting) adds its client seed.
    False if it is no longer open."""
    seed_col = "client_seed_a" if seat == 0 else "client_seed_b"
    res = s.execute(
        update(Match)
        .where(
            Match.id == match_id,
            Match.status == OPEN,
            Match.seat0_user_id.is_not(None),
            Match.seat1_user_id.is_not(None),
        )
        .values({seed_col: seed, "status": ACTIVE, "started_at": now, "deadline_at": deadline_at})
        .execution_options(synchronize_session=False)
    )
    return _rowcount(res) == 1


def get_rematch(s: Session, match_id: str) -> MatchRecord | None:
    """The rematch offered after ``match_id``, if any."""
    m = s.scalars(select(Match).where(Match.rematch_of == match_id)).first()
    return _record(m) if m is not None else None


def open_challenges(s: Session, game: str | None = None, limit: int = 200) -> list[MatchRecord]:
    """Listed open matches (the challenge table), oldest first."""
    q = select(Match).where(Match.status == OPEN, Match.listed.is_(True))
    if game is not None:
        q = q.where(Match.game == game)
    return [_record(m) for m in s.scalars(q.order_by(Match.created_at, Match.id).limit(limit))]


def live_member_matches(s: Session, limit: int = 50) -> list[MatchRecord]:
    """Active matches between two members, newest first (what spectators may watch)."""
    q = (
        select(Match)
        .where(Match.status == ACTIVE, Match.seat0_user_id.is_not(None), Match.seat1_user_id.is_not(None))
        .order_by(Match.started_at.desc(), Match.id)
        .limit(limit)
    )
    return [_record(m) for m in s.scalars(q)]


def overdue_match_ids(s: Session, now: datetime, limit: int = 100) -> list[str]:
    """Active matches whose move clock ran out at or before ``now``, most overdue first."""
    q = (
        select(Match.id)
        .where(Match.status == ACTIVE, Match.deadline_at.is_not(None), Match.deadline_at <= now)
        .order_by(Match.deadline_at)
        .limit(limit)
    )
    return list(s.scalars(q))


def rearm_deadlines(s: Session, down_at: datetime, back_at: datetime) -> int:
    """Move the deadlines of active matches that ran out while the store was down — in ``(down_at,
    back_at]`` — on by the outage's length (issue 29 §6: no timeout for an outage); the number moved. Each
    row's UPDATE checks the window again (a move stored meanwhile set a deadline after it, and stands); not
    an equality on the deadline read: SQLite keeps timestamps as text, not always in one format."""
    window = (Match.status == ACTIVE, Match.deadline_at > down_at, Match.deadline_at <= back_at)
    moved = 0
    for match_id, deadline in s.execute(select(Match.id, Match.deadline_at).where(*window)).all():
        assert deadline is not None  # the query's condition
        res = s.execute(
            update(Match)
            .where(Match.id == match_id, *window)
            .values(deadline_at=deadline + (back_at - down_at))
            .execution_options(synchronize_session=False)
        )
        moved += _rowcount(res)
    return moved


def next_deadline_at(s: Session, *, after: datetime | None = None) -> datetime | None:
    """The earliest running deadline of any active match (the sweeper sleeps until then); with ``after``, the
    earliest later than it (the overdue ones are read by :func:`overdue_match_ids`)."""
    q = select(Match.deadline_at).where(Match.status == ACTIVE, Match.deadline_at.is_not(None))
    if after is not None:
        q = q.where(Match.deadline_at > after)
    return s.scalars(q.order_by(Match.deadline_at).limit(1)).first()


def last_seq(s: Session, match_id: str) -> int:
    """The seq of the match's last stored action (0 when none)."""
    q = select(MatchAction.seq).where(MatchAction.match_id == match_id).order_by(MatchAction.seq.desc())
    return int(s.scalars(q.limit(1)).first() or 0)


def end_match(s: Session, match_id: str, finish: Finish, *, from_status: tuple[str, ...]) -> bool:
    """Set the final status/result of a match currently in ``from_status``; False if it was not."""
    res = s.execute(
        update(Match)
        .where(Match.id == match_id, Match.status.in_(from_status))
        .values(status=finish.status, result=finish.result, finished_at=finish.at, deadline_at=None)
        .execution_options(synchronize_session=False)
    )
    return _rowcount(res) == 1


def append_action(
    s: Session,
    record: ActionRecord,
    *,
    finish: Finish | None = None,
    deadline_at: datetime | None = None,
) -> None:
    """Append one action (and end the match if ``finish``), in the caller's transaction.

    Raises MatchNotActive if the match is no longer active, SeqConflict if ``(match_id, seq)`` or the
    client action id is already stored. The caller rolls back on either.
    """
    guard = update(Match).where(Match.id == record.match_id, Match.status == ACTIVE)
    values: dict[str, Any] = {
        "deadline_at": deadline_at,
        "last_seq": record.seq,
        "last_action_at": record.created_at,
    }
    if finish is not None:
        values.update(status=finish.status, result=finish.result, finished_at=finish.at, deadline_at=None)
    res = s.execute(guard.values(**values).execution_options(synchronize_session=False))
    if _rowcount(res) != 1:
        raise MatchNotActive(record.match_id)
    row = {
        "match_id": record.match_id,
        "seq": record.seq,
        "seat": record.seat,
        "action": record.action,
        "source": record.source,
        "client_action_id": record.client_action_id,
        "user_id": record.user_id,
        "created_at": record.created_at,
    }
    try:  # a Core INSERT: no unit of work to flush on the hot path
        s.execute(insert(MatchAction), [row])
    except IntegrityError:
        raise SeqConflict(f"{record.match_id}#{record.seq}") from None


def list_for_user(s: Session, user_id: int, limit: int = 100) -> list[MatchRecord]:
    """The user's matches (either seat), newest first."""
    q = (
        select(Match)
        .where(or_(Match.seat0_user_id == user_id, Match.seat1_user_id == user_id))
        .order_by(Match.created_at.desc(), Match.id)
        .limit(limit)
    )
    return [_record(m) for m in s.scalars(q)]


def list_matches(
    s: Session,
    *,
    status: str | None = None,
    game: str | None = None,
    user_id: int | None = None,
    limit: int = 200,
) -> list[MatchRecord]:
    """All matches filtered by status, game and player, newest first (admin list)."""
    q = select(Match)
    if status is not None:
        q = q.where(Match.status == status)
    if game is not None:
        q = q.where(Match.game == game)
    if user_id is not None:
        q = q.where(or_(Match.seat0_user_id == user_id, Match.seat1_user_id == user_id))
    q = q.order_by(Match.created_at.desc(), Match.id).limit(limit)
    return [_record(m) for m in s.scalars(q)]


def active_bot_match_ids(s: Session) -> list[str]:
    """Ids of active matches with a bot seat (resumed at startup)."""
    q = select(Match.id).where(
        Match.status == ACTIVE, or_(Match.seat0_bot.is_not(None), Match.seat1_bot.is_not(None))
    )
    return list(s.scalars(q))


def _rowcount(res: Any) -> int:
    return int(getattr(res, "rowcount", 0))


def live_counts(s: Session) -> dict[str, dict[str, int]]:
    """``{status: {game: count}}`` of the matches that are open or active (the admin status page)."""
    rows = s.execute(
        select(Match.status, Match.game, func.count())
        .where(Match.status.in_((OPEN, ACTIVE)))
        .group_by(Match.status, Match.game)
    )
    out: dict[str, dict[str, int]] = {OPEN: {}, ACTIVE: {}}
    for status, game, count in rows:
        out[status][game] = int(count)
    return out


def rename_in_results(s: Session, user_id: int, name: str) -> int:
    """Put ``name`` for ``user_id`` into the ``names`` of every stored result of their matches (a deleted
    account's anonymous name, issue 28 §6: results keep the names they ended with); how many changed."""
    q = select(Match).where(
        or_(Match.seat0_user_id == user_id, Match.seat1_user_id == user_id), Match.result.is_not(None)
    )
    changed = 0
    for match in s.scalars(q):
        result = dict(match.result or {})
        names = list(result.get("names") or [None, None])
        if len(names) != 2:
            continue
        for seat, uid in enumerate((match.seat0_user_id, match.seat1_user_id)):
            if uid == user_id:
                names[seat] = name
        if names != result.get("names"):
            match.result = {**result, "names": names}
            changed += 1
    return changed
