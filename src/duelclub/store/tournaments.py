"""Tournaments in the database (issue 26; DESIGN.md §Tournaments): the rows of ``tournaments``,
``tournament_entries`` and ``tournament_games`` (store/models.py) and the guarded writes that keep them right
with several workers.

Every write that changes who plays whom goes through the tournament row's ``version`` (compare and set:
``UPDATE … WHERE id = :id AND version = :seen``): a worker that read version *v* and pairs a round writes only
if the row still has *v*, bumping it in the same transaction as the new games and their matches. Two workers
racing on one "round ended" therefore pair it once; the loser's transaction is rolled back and it reads again.
Joining and leaving bump the version too (PostgreSQL then serialises them on the row lock, so a full
tournament never takes one player too many). Results are written once per game (``… WHERE ended_at IS NULL``).
Every write that changes what ``GET /api/tournaments/{id}`` shows bumps the version — results and no-show
counts too (the driver bumps with :func:`touch` last in their transaction, so the tournament row is always the
last row a transaction locks and two writers never wait on each other in a cycle) — so a reader may keep the
computed detail while the version stays (web/tournament_cache.py), and the driver reads again only the boards
that can have changed (:func:`games` ``after_round``).

Every function takes an open session and flushes; the caller's transaction commits (``Database.session``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select, tuple_, update
from sqlalchemy.orm import Session

from duelclub.store.models import Match, Tournament, TournamentEntry, TournamentGame, User

OPEN, RUNNING, PAUSED, FINISHED, CANCELLED = "open", "running", "paused", "finished", "cancelled"
STATUSES = (OPEN, RUNNING, PAUSED, FINISHED, CANCELLED)
LIVE = (RUNNING, PAUSED)
"""Started and not over: the driver looks after these."""


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """One ``tournaments`` row (see models.Tournament for the columns)."""

    id: str
    name: str
    game: str
    format: str
    status: str
    organiser_id: int
    rated: bool
    options: dict[str, Any]
    rounds: int | None
    double: bool
    minutes: int | None
    move_seconds: int | None
    max_players: int
    round_minutes: int | None
    starts_at: datetime | None
    created_at: datetime
    started_at: datetime | None
    ends_at: datetime | None
    finished_at: datetime | None
    round_started_at: datetime | None
    current_round: int
    version: int


@dataclass(frozen=True, slots=True)
class EntryRecord:
    """A player: ``number`` (the pairers' player id), the member (``user_id``, ``username``) or the bot
    ``bot_level``, ``seed`` (from 1, set at the start), ``withdrawn_at``, ``forfeits``."""

    number: int
    user_id: int | None
    username: str | None
    bot_level: str | None
    seed: int | None
    joined_at: datetime
    withdrawn_at: datetime | None
    forfeits: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A board: its round and board number, the entry numbers (``second`` None: a bye), the match (None for a
    bye or a forfeit) with its ``status``, ``commitment``, ``result`` and — once it ended — ``server_seed``;
    the first seat's ``score`` once recorded, ``forfeit``, ``created_at`` and ``ended_at``."""

    round: int
    board: int
    first: int
    second: int | None
    match_id: str | None
    match_status: str | None
    commitment: str | None
    server_seed: str | None
    match_result: dict[str, Any] | None
    score: float | None
    forfeit: bool
    created_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything about one tournament: the row, its players (by number) and its games (by round, board)."""

    tournament: TournamentRecord
    entries: list[EntryRecord]
    games: list[GameRecord]


def _record(t: Tournament) -> TournamentRecord:
    return TournamentRecord(
        id=t.id,
        name=t.name,
        game=t.game,
        format=t.format,
        status=t.status,
        organiser_id=t.organiser_id,
        rated=bool(t.rated),
        options=dict(t.options),
        rounds=t.rounds,
        double=bool(t.double),
        minutes=t.minutes,
        move_seconds=t.move_seconds,
        max_players=t.max_players,
        round_minutes=t.round_minutes,
        starts_at=t.starts_at,
        created_at=t.created_at,
        started_at=t.started_at,
        ends_at=t.ends_at,
        finished_at=t.finished_at,
        round_started_at=t.round_started_at,
        current_round=t.current_round,
        version=t.version,
    )


def insert(s: Session, **fields: Any) -> TournamentRecord:
    """Insert a ``tournaments`` row from column values (status ``open``, version 0) and flush."""
    row = Tournament(status=OPEN, current_round=0, version=0, **fields)
    s.add(row)
    s.flush()
    return _record(row)


def get(s: Session, tournament_id: str) -> TournamentRecord | None:
    row = s.get(Tournament, tournament_id)
    return _record(row) if row is not None else None


def entries(s: Session, tournament_id: str) -> list[EntryRecord]:
    """The players, by number, with their member names."""
    rows = s.execute(
        select(TournamentEntry, User.username)
        .outerjoin(User, User.id == TournamentEntry.user_id)
        .where(TournamentEntry.tournament_id == tournament_id)
        .order_by(TournamentEntry.number)
    ).all()
    return [
        EntryRecord(
            number=e.number,
            user_id=e.user_id,
            username=name,
            bot_level=e.bot_level,
            seed=e.seed,
            joined_at=e.joined_at,
            withdrawn_at=e.withdrawn_at,
            forfeits=e.forfeits,
        )
        for e, name in rows
    ]


def games(
    s: Session,
    tournament_id: str,
    *,
    boards: Collection[tuple[int, int]] | None = None,
    after_round: int | None = None,
) -> list[GameRecord]:
    """The boards, by round and board, with their matches' status, commitment, result and (ended) seed.
    With ``after_round``: only the boards of the later rounds and those of ``boards`` ((round, board)
    pairs) — the driver's pass reads the boards in play and the new rounds (play/tournament_boards.py)."""
    q = (
        select(TournamentGame, Match.status, Match.commitment, Match.server_seed, Match.result)
        .outerjoin(Match, Match.id == TournamentGame.match_id)
        .where(TournamentGame.tournament_id == tournament_id)
    )
    if after_round is not None:
        later = TournamentGame.round > after_round
        if boards:
            later = or_(later, tuple_(TournamentGame.round, TournamentGame.board).in_(list(boards)))
        q = q.where(later)
    rows = s.execute(q.order_by(TournamentGame.round, TournamentGame.board)).all()
    out = []
    for g, status, commitment, seed, result in rows:
        ended = status in ("finished", "aborted")
        out.append(
            GameRecord(
                round=g.round,
                board=g.board,
                first=g.first,
                second=g.second,
                match_id=g.match_id,
                match_status=status,
                commitment=commitment,
                server_seed=seed if ended else None,
                match_result=dict(result) if result is not None else None,
                score=g.score,
                forfeit=bool(g.forfeit),
                created_at=g.created_at,
                ended_at=g.ended_at,
            )
        )
    return out


def has_match(s: Session, match_id: str) -> bool:
    """Whether ``match_id`` is a board of a tournament (one indexed look-up: ``match_id`` is unique)."""
    q = select(TournamentGame.match_id).where(TournamentGame.match_id == match_id).limit(1)
    return s.scalar(q) is not None


def tournaments_of(s: Session, match_ids: Collection[str]) -> dict[str, tuple[str, str]]:
    """``match id → (tournament id, name)`` for those of ``match_ids`` that are tournament boards (one
    query, for a list of matches)."""
    if not match_ids:
        return {}
    q = (
        select(TournamentGame.match_id, Tournament.id, Tournament.name)
        .join(Tournament, TournamentGame.tournament_id == Tournament.id)
        .where(TournamentGame.match_id.in_(list(match_ids)))
    )
    return {str(m): (str(t), str(n)) for m, t, n in s.execute(q)}


def tournament_of(s: Session, match_id: str) -> tuple[str, str] | None:
    """``(tournament id, name)`` of the tournament whose board ``match_id`` is; None for any other match."""
    return tournaments_of(s, [match_id]).get(match_id)


def snapshot(s: Session, tournament_id: str) -> Snapshot | None:
    """The tournament with its players and games; None if unknown."""
    t = get(s, tournament_id)
    if t is None:
        return None
    return Snapshot(t, entries(s, tournament_id), games(s, tournament_id))


def listing(s: Session, status: str | None = None, limit: int = 100) -> list[tuple[TournamentRecord, int]]:
    """Tournaments with their player counts, newest first (``status`` filters)."""
    count = (
        select(TournamentEntry.tournament_id, func.count().label("n"))
        .group_by(TournamentEntry.tournament_id)
        .subquery()
    )
    q = select(Tournament, func.coalesce(count.c.n, 0)).outerjoin(
        count, count.c.tournament_id == Tournament.id
    )
    if status is not None:
        q = q.where(Tournament.status == status)
    rows = s.execute(q.order_by(Tournament.created_at.desc()).limit(limit)).all()
    return [(_record(t), int(n)) for t, n in rows]


def of_member(s: Session, user_id: int, limit: int = 50) -> list[TournamentRecord]:
    """The tournaments a member entered, newest first (profiles)."""
    rows = s.scalars(
        select(Tournament)
        .join(TournamentEntry, TournamentEntry.tournament_id == Tournament.id)
        .where(TournamentEntry.user_id == user_id)
        .order_by(Tournament.created_at.desc())
        .limit(limit)
    ).all()
    return [_record(t) for t in rows]


def due(s: Session, now: datetime) -> list[str]:
    """Tournaments the driver must look at: started ones, and open ones whose start time has come."""
    rows = s.scalars(
        select(Tournament.id).where(
            (Tournament.status.in_(LIVE)) | ((Tournament.status == OPEN) & (Tournament.starts_at <= now))
        )
    ).all()
    return list(rows)


def next_start(s: Session, now: datetime) -> datetime | None:
    """The earliest start time after ``now`` of an open tournament (None: none is scheduled)."""
    q = select(Tournament.starts_at).where(Tournament.status == OPEN, Tournament.starts_at > now)
    return s.scalars(q.order_by(Tournament.starts_at).limit(1)).first()


def _bump(
    s: Session,
    tournament_id: str,
    *,
    version: int | None,
    status: Sequence[str],
    to_status: str | None = None,
    **values: Any,
) -> bool:
    """``version += 1`` (and ``values``; ``to_status`` the new status) where the row is in ``status`` (and at
    ``version``): whether it was."""
    q = update(Tournament).where(Tournament.id == tournament_id, Tournament.status.in_(tuple(status)))
    if version is not None:
        q = q.where(Tournament.version == version)
    if to_status is not None:
        values["status"] = to_status
    res = s.execute(q.values(version=Tournament.version + 1, **values))
    return int(getattr(res, "rowcount", 0) or 0) == 1


def add_entry(
    s: Session, tournament_id: str, *, user_id: int | None, bot_level: str | None, now: datetime, limit: int
) -> int | None:
    """Add a player to an open tournament with fewer than ``limit`` players: its number, or None when the
    tournament is not open (or just filled up). A member already in raises sqlalchemy's IntegrityError."""
    if not _bump(s, tournament_id, version=None, status=(OPEN,)):
        return None
    numbers = s.scalars(
        select(TournamentEntry.number).where(TournamentEntry.tournament_id == tournament_id)
    ).all()
    if len(numbers) >= limit:
        return None
    number = max(numbers, default=0) + 1
    s.add(
        TournamentEntry(
            tournament_id=tournament_id, number=number, user_id=user_id, bot_level=bot_level, joined_at=now
        )
    )
    s.flush()
    return number


def remove_entry(s: Session, tournament_id: str, number: int) -> bool:
    """Take a player out of an open tournament; whether there was one to take."""
    if not _bump(s, tournament_id, version=None, status=(OPEN,)):
        return False
    entry = s.get(TournamentEntry, (tournament_id, number))
    if entry is None:
        return False
    s.delete(entry)
    s.flush()
    return True


def set_status(s: Session, tournament_id: str, from_status: Sequence[str], to: str, **values: Any) -> bool:
    """Move the tournament from one of ``from_status`` to ``to`` (with ``values``); whether it was there."""
    return _bump(s, tournament_id, version=None, status=from_status, to_status=to, **values)


def touch(s: Session, tournament_id: str) -> bool:
    """Bump the version only (after a result or a no-show count, or when something the detail shows changed
    outside these tables: a cancel's aborted matches); whether the tournament exists."""
    return _bump(s, tournament_id, version=None, status=STATUSES)


def start(s: Session, tournament_id: str, seeds: dict[int, int], **values: Any) -> bool:
    """Open → running with each entry's ``seed`` (number → seed from 1) and ``values``; whether it started."""
    if not set_status(s, tournament_id, (OPEN,), RUNNING, **values):
        return False
    for number, seed in seeds.items():
        s.execute(
            update(TournamentEntry)
            .where(TournamentEntry.tournament_id == tournament_id, TournamentEntry.number == number)
            .values(seed=seed)
        )
    return True


def write_boards(
    s: Session,
    tournament_id: str,
    *,
    version: int,
    boards: Iterable[dict[str, Any]],
    matches: Iterable[dict[str, Any]],
    **values: Any,
) -> bool:
    """Pair: insert ``matches`` (``matches`` rows) and ``boards`` (``tournament_games`` rows) if the
    tournament is running and still at ``version`` (then bumped, with ``values`` such as the new
    ``current_round``); False — nothing written — if another writer paired first (roll the session back)."""
    if not _bump(s, tournament_id, version=version, status=(RUNNING,), **values):
        return False
    for fields in matches:
        s.add(Match(**fields))
    s.flush()
    for fields in boards:
        s.add(TournamentGame(tournament_id=tournament_id, **fields))
    s.flush()
    return True


def record_result(
    s: Session,
    tournament_id: str,
    round: int,
    board: int,
    *,
    score: float | None,
    forfeit: bool,
    at: datetime,
) -> bool:
    """Write a board's result once (first seat's ``score``; ``forfeit``); whether this call wrote it. The
    caller bumps the version (:func:`touch`) in the same transaction."""
    res = s.execute(
        update(TournamentGame)
        .where(
            TournamentGame.tournament_id == tournament_id,
            TournamentGame.round == round,
            TournamentGame.board == board,
            TournamentGame.ended_at.is_(None),
        )
        .values(score=score, forfeit=forfeit, ended_at=at)
    )
    return int(getattr(res, "rowcount", 0) or 0) == 1


def add_forfeit(s: Session, tournament_id: str, number: int) -> int:
    """Count one more no-show of player ``number``: the new count (the caller bumps the version)."""
    s.execute(
        update(TournamentEntry)
        .where(TournamentEntry.tournament_id == tournament_id, TournamentEntry.number == number)
        .values(forfeits=TournamentEntry.forfeits + 1)
    )
    return int(
        s.scalar(
            select(TournamentEntry.forfeits).where(
                TournamentEntry.tournament_id == tournament_id, TournamentEntry.number == number
            )
        )
        or 0
    )


def withdraw(s: Session, tournament_id: str, number: int, at: datetime) -> bool:
    """Withdraw player ``number`` (once); whether this call did."""
    res = s.execute(
        update(TournamentEntry)
        .where(
            TournamentEntry.tournament_id == tournament_id,
            TournamentEntry.number == number,
            TournamentEntry.withdrawn_at.is_(None),
        )
        .values(withdrawn_at=at)
    )
    if int(getattr(res, "rowcount", 0) or 0) != 1:
        return False
    _bump(s, tournament_id, version=None, status=LIVE)
    return True
