"""Ratings repository (issue 14): the ``ratings`` and ``rating_changes`` tables, and rating a match inside the
transaction that ends it.

:func:`rate_match` is the one place a rating changes: the match service calls it in the transaction that
stores a match's final action (or an abandonment claim), after the guarded UPDATE that ended the match, and
``duelclub ratings rebuild`` calls it for every rated match in order — so both compute with the same code.
It is idempotent: ``rating_changes`` is unique per (match, member), and a match that already has its rows is
left alone. Both players' rows are created if missing (``INSERT … ON CONFLICT DO NOTHING``) and then locked
(``SELECT … FOR UPDATE`` on PostgreSQL; SQLite has one writer) in user id order, so two matches of one member
ending at once on two workers are rated one after the other, never from the same stale rating.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from duelclub.ratings.glicko2 import Rating
from duelclub.ratings.rules import RatingRules, Side, rate_pair
from duelclub.store.matches import FINISHED, MatchRecord, as_record
from duelclub.store.models import Match, MemberRating, RatingChange, User


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """One ``ratings`` row: the member's stored rating in ``game`` and their rated record there.
    ``streak`` counts the current run: +n wins in a row, −n losses, 0 after a draw."""

    user_id: int
    game: str
    rating: Rating
    matches: int
    wins: int
    draws: int
    losses: int
    best: float
    streak: int
    last_rated_at: datetime | None


@dataclass(frozen=True, slots=True)
class ChangeRecord:
    """One ``rating_changes`` row: what a rated match did to one player's rating."""

    match_id: str
    user_id: int
    game: str
    seat: int
    opponent_id: int
    score: float
    before: Rating
    after: Rating
    opponent: Rating
    at: datetime


def _record(r: MemberRating) -> RatingRecord:
    return RatingRecord(
        user_id=r.user_id,
        game=r.game,
        rating=Rating(r.rating, r.rd, r.volatility),
        matches=r.matches,
        wins=r.wins,
        draws=r.draws,
        losses=r.losses,
        best=r.best,
        streak=r.streak,
        last_rated_at=r.last_rated_at,
    )


def _change(c: RatingChange) -> ChangeRecord:
    return ChangeRecord(
        match_id=c.match_id,
        user_id=c.user_id,
        game=c.game,
        seat=c.seat,
        opponent_id=c.opponent_id,
        score=c.score,
        before=Rating(c.rating_before, c.rd_before, c.volatility_before),
        after=Rating(c.rating_after, c.rd_after, c.volatility_after),
        opponent=Rating(c.opponent_rating, c.opponent_rd, 0.0),
        at=c.at,
    )


# -- rating a match ----------------------------------------------------------------------------------
def score_of_seat0(record: MatchRecord) -> float | None:
    """Seat 0's score (1, 0.5, 0) if ``record`` is a rated match that counts: finished (not aborted), marked
    rated, between two different members, with a winner seat or a draw. None otherwise."""
    a, b = record.seat_users
    if not record.rated or record.status != FINISHED or a is None or b is None or a == b:
        return None
    if any(bot is not None for bot in record.seat_bots) or record.result is None:
        return None
    winner = record.result.get("winner")
    if winner is None:
        return 0.5
    return {0: 1.0, 1: 0.0}.get(winner)


def _ensure_and_lock(s: Session, game: str, user_ids: list[int], start: Rating) -> dict[int, RatingRecord]:
    upsert = pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert
    for uid in sorted(user_ids):
        s.execute(
            upsert(MemberRating)
            .values(
                user_id=uid,
                game=game,
                rating=start.rating,
                rd=start.rd,
                volatility=start.volatility,
                matches=0,
                wins=0,
                draws=0,
                losses=0,
                best=start.rating,
                streak=0,
                last_rated_at=None,
            )
            .on_conflict_do_nothing(index_elements=[MemberRating.user_id, MemberRating.game])
        )
    rows = s.execute(
        select(MemberRating)
        .where(MemberRating.game == game, MemberRating.user_id.in_(user_ids))
        .order_by(MemberRating.user_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).scalars()
    return {r.user_id: _record(r) for r in rows}


def _streak(streak: int, score: float) -> int:
    if score == 1.0:
        return streak + 1 if streak > 0 else 1
    if score == 0.0:
        return streak - 1 if streak < 0 else -1
    return 0


def _write(s: Session, old: RatingRecord, new: Rating, score: float, at: datetime) -> None:
    s.execute(
        update(MemberRating)
        .where(MemberRating.user_id == old.user_id, MemberRating.game == old.game)
        .values(
            rating=new.rating,
            rd=new.rd,
            volatility=new.volatility,
            matches=old.matches + 1,
            wins=old.wins + (score == 1.0),
            draws=old.draws + (score == 0.5),
            losses=old.losses + (score == 0.0),
            best=new.rating if old.matches == 0 else max(old.best, new.rating),
            streak=_streak(old.streak, score),
            last_rated_at=at,
        )
        .execution_options(synchronize_session=False)
    )


def rate_match(s: Session, record: MatchRecord, rules: RatingRules) -> list[ChangeRecord]:
    """Rate the ended match ``record`` (its final status, result and ``finished_at``) in the caller's
    transaction: both players' ratings move by one Glicko-2 rating period against each other
    (ratings/rules.py ``rate_pair``). Returns the two changes (seat 0's first); nothing for a match that
    does not count (:func:`score_of_seat0`) or was rated already."""
    score0 = score_of_seat0(record)
    if score0 is None or record.finished_at is None:
        return []
    done = select(RatingChange.id).where(RatingChange.match_id == record.id).limit(1)
    if s.execute(done).first() is not None:
        return []
    u0, u1 = record.seat_users
    assert u0 is not None and u1 is not None
    rows = _ensure_and_lock(s, record.game, [u0, u1], rules.start)
    r0, r1 = rows[u0], rows[u1]
    at = record.finished_at
    new0, new1 = rate_pair(
        rules, Side(r0.rating, r0.last_rated_at), Side(r1.rating, r1.last_rated_at), score0, at
    )
    changes = [
        ChangeRecord(record.id, u0, record.game, 0, u1, score0, r0.rating, new0, r1.rating, at),
        ChangeRecord(record.id, u1, record.game, 1, u0, 1.0 - score0, r1.rating, new1, r0.rating, at),
    ]
    for old, change in ((r0, changes[0]), (r1, changes[1])):
        _write(s, old, change.after, change.score, at)
    s.execute(insert(RatingChange), [_change_row(c) for c in changes])
    return changes


def _change_row(c: ChangeRecord) -> dict[str, Any]:
    return {
        "match_id": c.match_id,
        "user_id": c.user_id,
        "game": c.game,
        "seat": c.seat,
        "opponent_id": c.opponent_id,
        "score": c.score,
        "rating_before": c.before.rating,
        "rd_before": c.before.rd,
        "volatility_before": c.before.volatility,
        "rating_after": c.after.rating,
        "rd_after": c.after.rd,
        "volatility_after": c.after.volatility,
        "opponent_rating": c.opponent.rating,
        "opponent_rd": c.opponent.rd,
        "at": c.at,
    }


def rebuild_order(s: Session) -> list[MatchRecord]:
    """The finished rated matches in the order they were rated: by their first ``rating_changes`` row (the
    commit order of the transactions that ended them — two matches of one member ending at the same instant
    on two workers are rated one after the other), then those not rated yet in the order they ended
    (``finished_at``, then id)."""
    first = (
        select(RatingChange.match_id, func.min(RatingChange.id).label("first"))
        .group_by(RatingChange.match_id)
        .subquery()
    )
    q = (
        select(Match)
        .outerjoin(first, first.c.match_id == Match.id)
        .where(Match.rated.is_(True), Match.status == FINISHED)
        .order_by(first.c.first.is_(None), first.c.first, Match.finished_at, Match.id)
    )
    return [as_record(m) for m in s.scalars(q)]


def rebuild(s: Session, rules: RatingRules) -> int:
    """Recompute every rating from scratch in the caller's transaction: delete all ratings and changes, then
    rate every finished rated match in order (:func:`rebuild_order`) with :func:`rate_match`, the code that
    rated them live — so the result equals the stored ratings exactly, unless the rules (settings) changed.
    Returns how many matches were rated. On PostgreSQL both tables are locked first: a match ending
    meanwhile is rated after the rebuild commits, on the rebuilt ratings."""
    if s.get_bind().dialect.name == "postgresql":
        s.execute(text("LOCK TABLE ratings, rating_changes IN EXCLUSIVE MODE"))
    order = rebuild_order(s)
    s.execute(delete(RatingChange))
    s.execute(delete(MemberRating))
    return sum(1 for record in order if rate_match(s, record, rules))


def snapshot(s: Session) -> tuple[list[RatingRecord], list[ChangeRecord]]:
    """Every rating (by game, member) and every change (by match, member): what a rebuild must reproduce."""
    changes = sorted(all_changes(s), key=lambda c: (c.match_id, c.user_id))
    return all_ratings(s), changes


# -- reads -------------------------------------------------------------------------------------------
def ratings_of(s: Session, pairs: Iterable[tuple[int, str]]) -> dict[tuple[int, str], RatingRecord]:
    """The stored ratings of these (user id, game) pairs that exist."""
    wanted = set(pairs)
    if not wanted:
        return {}
    users = {u for u, _ in wanted}
    games = {g for _, g in wanted}
    q = select(MemberRating).where(MemberRating.user_id.in_(users), MemberRating.game.in_(games))
    return {(r.user_id, r.game): _record(r) for r in s.scalars(q) if (r.user_id, r.game) in wanted}


def member_ratings(s: Session, user_id: int) -> dict[str, RatingRecord]:
    """The member's stored rating per game."""
    q = select(MemberRating).where(MemberRating.user_id == user_id)
    return {r.game: _record(r) for r in s.scalars(q)}


def all_ratings(s: Session) -> list[RatingRecord]:
    """Every stored rating, by game and member (rebuild checks)."""
    q = select(MemberRating).order_by(MemberRating.game, MemberRating.user_id)
    return [_record(r) for r in s.scalars(q)]


def all_changes(s: Session) -> list[ChangeRecord]:
    """Every rating change, in the order they were made."""
    return [_change(c) for c in s.scalars(select(RatingChange).order_by(RatingChange.id))]


def changes_for_matches(s: Session, match_ids: Iterable[str]) -> dict[tuple[str, int], ChangeRecord]:
    """(match id, user id) → the change that match made to that player's rating."""
    ids = set(match_ids)
    if not ids:
        return {}
    q = select(RatingChange).where(RatingChange.match_id.in_(ids))
    return {(c.match_id, c.user_id): _change(c) for c in s.scalars(q)}


def history(s: Session, user_id: int, game: str, limit: int = 1000) -> list[ChangeRecord]:
    """The member's last ``limit`` rating changes in ``game``, oldest first (the profile's chart)."""
    q = (
        select(RatingChange)
        .where(RatingChange.user_id == user_id, RatingChange.game == game)
        .order_by(RatingChange.at.desc(), RatingChange.id.desc())
        .limit(limit)
    )
    return [_change(c) for c in reversed(list(s.scalars(q)))]


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A leaderboard candidate: the rating row and the member's name."""

    rating: RatingRecord
    username: str


def leaderboard(
    s: Session, game: str, *, active_since: datetime, max_rd: float, limit: int
) -> list[BoardRow]:
    """Members of ``game`` (not deleted accounts) whose stored RD is at most ``max_rd`` and whose last rated
    match ended at or after ``active_since``, best rating first (ties: more matches, then the name), at most
    ``limit``."""
    q = (
        select(MemberRating, User.username)
        .join(User, User.id == MemberRating.user_id)
        .where(
            MemberRating.game == game,
            MemberRating.matches > 0,
            MemberRating.rd <= max_rd,
            MemberRating.last_rated_at >= active_since,
            User.deleted_at.is_(None),
        )
        .order_by(MemberRating.rating.desc(), MemberRating.matches.desc(), User.username_key)
        .limit(limit)
    )
    return [BoardRow(_record(r), name) for r, name in s.execute(q)]
