"""A member's match history (issue 14 §6): their ended matches, newest first, filtered and paginated.

The history holds every match the member played that has ended — finished, or aborted after it started
(a cancelled invite or challenge never started and is not history). Filters: the game, the result from the
member's side (``win``, ``loss``, ``draw``, ``aborted``) and the opponent (a member's id). The winner seat is
read from the result JSON (``result.winner``) by SQLAlchemy's JSON index, which both SQLite and PostgreSQL
answer.

A tournament board that ended before both first moves with a seat at fault (a no-show, a rated resignation
before the first moves: ``result.reason`` ``unplayed`` / ``no_first_move``, ``result.seat``) is an aborted
match that its tournament scores as a forfeit (play/tournament_boards.py ``board_result``): the history counts
it as the member's win or loss, as the tournament does, not as aborted (:func:`forfeit_board`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Select, and_, func, or_, select
from sqlalchemy.orm import Session

from duelclub.store.matches import ABORTED, ENDED, FINISHED, MatchRecord, as_record
from duelclub.store.models import Match, TournamentGame

ResultFilter = Literal["win", "loss", "draw", "aborted"]


@dataclass(frozen=True, slots=True)
class HistoryFilter:
    """Which of the member's ended matches to list (None: any)."""

    game: str | None = None
    result: ResultFilter | None = None
    opponent_id: int | None = None


FORFEIT_REASONS = ("unplayed", "no_first_move")
"""Reasons of a tournament board's abort that its tournament scores as a forfeit of ``result.seat``."""


def _winner() -> Any:
    return Match.result["winner"].as_integer()


def _at_fault() -> Any:
    return Match.result["seat"].as_integer()


def _forfeit_board() -> Any:
    """SQL: the match is a tournament board its tournament scores as a forfeit (see the module docstring)."""
    return and_(
        Match.status == ABORTED,
        Match.result["reason"].as_string().in_(FORFEIT_REASONS),
        _at_fault().in_((0, 1)),
        # byes have no match: without the NULLs excluded, NOT IN would be unknown for every other match
        Match.id.in_(select(TournamentGame.match_id).where(TournamentGame.match_id.is_not(None))),
    )


def forfeit_seat(result: dict[str, Any] | None) -> int | None:
    """The seat at fault if an aborted board's ``result`` is one its tournament scores as a forfeit (reason in
    :data:`FORFEIT_REASONS`, ``seat`` 0 or 1), else None — the rule of play/tournament_boards.py
    ``board_result`` and of :func:`_forfeit_board` in SQL."""
    result = result or {}
    seat = result.get("seat")
    return seat if result.get("reason") in FORFEIT_REASONS and seat in (0, 1) else None


def forfeit_board(record: MatchRecord, board: bool) -> bool:
    """Whether ``record`` (a tournament board if ``board``) is scored as a forfeit by its tournament."""
    return board and record.status == ABORTED and forfeit_seat(record.result) is not None


def _query(user_id: int, f: HistoryFilter) -> Select[Any]:
    seat0, seat1 = Match.seat0_user_id == user_id, Match.seat1_user_id == user_id
    q = select(Match).where(or_(seat0, seat1), Match.status.in_(ENDED), Match.started_at.is_not(None))
    if f.game is not None:
        q = q.where(Match.game == f.game)
    if f.opponent_id is not None:
        q = q.where(
            or_(
                and_(seat0, Match.seat1_user_id == f.opponent_id),
                and_(seat1, Match.seat0_user_id == f.opponent_id),
            )
        )
    if f.result == "aborted":
        q = q.where(Match.status == ABORTED, ~_forfeit_board())
    elif f.result == "draw":
        q = q.where(Match.status == FINISHED, _winner().is_(None))
    elif f.result in ("win", "loss"):
        mine = or_(and_(seat0, _winner() == 0), and_(seat1, _winner() == 1))
        theirs = or_(and_(seat0, _winner() == 1), and_(seat1, _winner() == 0))
        their_fault = or_(and_(seat0, _at_fault() == 1), and_(seat1, _at_fault() == 0))
        my_fault = or_(and_(seat0, _at_fault() == 0), and_(seat1, _at_fault() == 1))
        won = mine if f.result == "win" else theirs
        forfeited = their_fault if f.result == "win" else my_fault
        q = q.where(or_(and_(Match.status == FINISHED, won), and_(_forfeit_board(), forfeited)))
    return q


def count(s: Session, user_id: int, f: HistoryFilter) -> int:
    """How many of the member's ended matches pass the filter."""
    return int(s.scalar(select(func.count()).select_from(_query(user_id, f).subquery())) or 0)


def page(s: Session, user_id: int, f: HistoryFilter, *, offset: int, limit: int) -> list[MatchRecord]:
    """The member's ended matches passing the filter, newest first (by when they ended, then id)."""
    q = _query(user_id, f).order_by(Match.finished_at.desc(), Match.id.desc()).offset(offset).limit(limit)
    return [as_record(m) for m in s.scalars(q)]


def every(s: Session, user_id: int, f: HistoryFilter, *, chunk: int = 500) -> Iterator[list[MatchRecord]]:
    """All of the member's ended matches passing the filter, newest first, ``chunk`` at a time (export)."""
    offset = 0
    while True:
        rows = page(s, user_id, f, offset=offset, limit=chunk)
        if not rows:
            return
        yield rows
        offset += len(rows)
