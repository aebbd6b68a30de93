"""What members and organisers do with a tournament (issue 26 §Lifecycle): create, join, leave, enter a bot,
start, pause, resume, cancel, withdraw.

Each operation checks who may do it and in which status, then makes one guarded write
(store/tournaments.py), so a refused request changes nothing: PlayError 404 ``tournament_not_found``; 403
``not_organiser`` (pause, resume, start, cancel, entering a bot: the organiser, or an admin); 409
``tournament_started`` (joining or leaving once it started), ``tournament_full``, ``already_joined``,
``not_joined``, ``too_few_players`` (a start with fewer than 2), ``too_many_rounds`` (a Swiss whose rounds
the players do not allow), ``tournament_not_running``, ``tournament_not_paused``, ``tournament_over``;
422 ``unknown_game``, ``bad_format``, ``bad_options``, ``bad_clock``, ``bad_rounds``, ``bad_minutes``,
``bad_start``, ``bad_bot_level``, ``bad_name``.

After a start, a resume or a withdrawal the driver (play/tournament_driver.py) pairs; the route kicks it.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError

from duelclub.bots.levels import canonical
from duelclub.games.contract import IllegalAction
from duelclub.play.clock import clock_setting
from duelclub.play.errors import PlayError
from duelclub.play.lobby import is_rated
from duelclub.play.port import LobbyPort
from duelclub.play.threads import in_thread
from duelclub.play.tournaments import swiss
from duelclub.play.tournaments.model import TournamentError
from duelclub.play.tournaments.progress import FORMATS
from duelclub.store import ratings as rating_repo
from duelclub.store import tournaments as repo
from duelclub.store.tournaments import CANCELLED, FINISHED, LIVE, OPEN, PAUSED, RUNNING, TournamentRecord

MAX_PLAYERS = 256
MIN_MINUTES, MAX_MINUTES = 5, 24 * 60
MAX_ROUND_MINUTES = 7 * 24 * 60
MAX_START_DAYS = 60


@dataclass(frozen=True, slots=True)
class NewTournament:
    """What ``POST /api/tournaments`` asks for (the route's body, checked here)."""

    game: str
    format: str
    name: str = ""
    rated: bool | None = None
    options: dict[str, Any] | None = None
    rounds: int | None = None
    minutes: int | None = None
    move_seconds: int | None = None
    max_players: int | None = None
    starts_at: Any = None
    double: bool = False
    round_minutes: int | None = None


def new_tournament_id() -> str:
    """A fresh tournament id: 9 URL-safe characters."""
    return secrets.token_urlsafe(7)


def _fail(status: int, code: str, message: str) -> PlayError:
    return PlayError(status, code, message)


async def create(service: LobbyPort, organiser_id: int, body: NewTournament) -> TournamentRecord:
    """Create an open tournament; the organiser is not entered (they join like anyone)."""
    g = service.game(body.game)
    if body.format not in FORMATS:
        raise _fail(422, "bad_format", f"format is one of {', '.join(FORMATS)}")
    try:
        options = g.parse_options(body.options).model_dump(mode="json")
    except IllegalAction as exc:
        raise PlayError(422, exc.code, exc.message) from None
    move_seconds = clock_setting(g, vs_bot=False, move_seconds=body.move_seconds)
    max_players = body.max_players or 64
    if not 2 <= max_players <= MAX_PLAYERS:
        raise _fail(422, "bad_max_players", f"max_players is 2..{MAX_PLAYERS}")
    rounds = _rounds(body, max_players)
    minutes = _minutes(body)
    now = service.now()
    starts_at = body.starts_at
    if starts_at is not None and starts_at.tzinfo is None:  # a time without a zone is UTC
        starts_at = starts_at.replace(tzinfo=UTC)
    if starts_at is not None and not now <= starts_at <= now + timedelta(days=MAX_START_DAYS):
        raise _fail(422, "bad_start", f"starts_at is in the next {MAX_START_DAYS} days")
    if body.round_minutes is not None and not 1 <= body.round_minutes <= MAX_ROUND_MINUTES:
        raise _fail(422, "bad_round_minutes", f"round_minutes is 1..{MAX_ROUND_MINUTES}")
    name = " ".join(body.name.split())
    if len(name) > 80:
        raise _fail(422, "bad_name", "a name has at most 80 characters")
    fields = {
        "id": new_tournament_id(),
        "name": name,  # empty: the page names it by its game and format, in the reader's language
        "game": g.slug,
        "format": body.format,
        "organiser_id": organiser_id,
        "rated": is_rated(g, vs_bot=False, rated=body.rated),
        "options": options,
        "rounds": rounds,
        "double": bool(body.double) and body.format == "round_robin",
        "minutes": minutes,
        "move_seconds": move_seconds,
        "max_players": max_players,
        "round_minutes": body.round_minutes if body.format != "arena" else None,
        "starts_at": starts_at,
        "created_at": now,
    }

    def write() -> TournamentRecord:
        with service.session() as s:
            return repo.insert(s, **fields)

    return await in_thread(write)


def _rounds(body: NewTournament, max_players: int) -> int | None:
    if body.format != "swiss":
        return None
    if body.rounds is None or body.rounds < 1:
        raise _fail(422, "bad_rounds", "a Swiss needs rounds ≥ 1")
    if body.rounds > swiss.max_rounds(max_players):
        raise _fail(
            422, "too_many_rounds", f"{max_players} players allow at most {swiss.max_rounds(max_players)}"
        )
    return body.rounds


def _minutes(body: NewTournament) -> int | None:
    if body.format != "arena":
        return None
    if body.minutes is None or not MIN_MINUTES <= body.minutes <= MAX_MINUTES:
        raise _fail(422, "bad_minutes", f"an arena lasts {MIN_MINUTES}..{MAX_MINUTES} minutes")
    return body.minutes


async def snapshot(service: LobbyPort, tournament_id: str) -> repo.Snapshot:
    """The stored tournament; PlayError 404 ``tournament_not_found``."""

    def read() -> repo.Snapshot | None:
        with service.session() as s:
            return repo.snapshot(s, tournament_id)

    snap = await in_thread(read)
    if snap is None:
        raise _fail(404, "tournament_not_found", "no such tournament")
    return snap


def _organiser(t: TournamentRecord, user_id: int, is_admin: bool) -> None:
    if t.organiser_id != user_id and not is_admin:
        raise _fail(403, "not_organiser", "only the organiser (or an admin) may do that")


async def join(service: LobbyPort, tournament_id: str, user_id: int) -> int:
    """Enter the member; their player number."""
    snap = await snapshot(service, tournament_id)
    t = snap.tournament
    if t.status != OPEN:
        raise _fail(409, "tournament_started", "the tournament has started: joining is closed")
    if any(e.user_id == user_id for e in snap.entries):
        raise _fail(409, "already_joined", "you are already in")
    return await _enter(service, t, user_id=user_id, bot_level=None)


async def add_bot(service: LobbyPort, tournament_id: str, user_id: int, is_admin: bool, level: str) -> int:
    """Enter a bot of ``level`` (the organiser: to fill an odd count, or a practice evening)."""
    snap = await snapshot(service, tournament_id)
    t = snap.tournament
    _organiser(t, user_id, is_admin)
    g = service.game(t.game)
    if not {level, canonical(level)} & set(g.bot_levels) or not service.bots_available:
        raise _fail(422, "bad_bot_level", f"bot levels: {', '.join(g.bot_levels)}")
    if t.status != OPEN:
        raise _fail(409, "tournament_started", "the tournament has started: joining is closed")
    stored = level if level in g.bot_levels else canonical(level)
    return await _enter(service, t, user_id=None, bot_level=stored)


async def _enter(
    service: LobbyPort, t: TournamentRecord, *, user_id: int | None, bot_level: str | None
) -> int:
    def write() -> int | None:
        with service.session() as s:
            return repo.add_entry(
                s, t.id, user_id=user_id, bot_level=bot_level, now=service.now(), limit=t.max_players
            )

    try:
        number = await in_thread(write)
    except IntegrityError:
        raise _fail(409, "already_joined", "you are already in") from None
    if number is None:
        fresh = await snapshot(service, t.id)
        if fresh.tournament.status != OPEN:
            raise _fail(409, "tournament_started", "the tournament has started: joining is closed")
        raise _fail(409, "tournament_full", f"the tournament is full ({t.max_players} players)")
    return number


async def leave(
    service: LobbyPort, tournament_id: str, user_id: int, is_admin: bool, number: int | None
) -> None:
    """Leave before the start (``number``: the organiser takes out that player, e.g. a bot)."""
    snap = await snapshot(service, tournament_id)
    t = snap.tournament
    if number is not None:
        _organiser(t, user_id, is_admin)
        entry = next((e for e in snap.entries if e.number == number), None)
    else:
        entry = next((e for e in snap.entries if e.user_id == user_id), None)
    if t.status != OPEN:
        raise _fail(409, "tournament_started", "the tournament has started: withdraw instead")
    if entry is None:
        raise _fail(409, "not_joined", "not in this tournament")

    def write() -> bool:
        with service.session() as s:
            return repo.remove_entry(s, t.id, entry.number)

    if not await in_thread(write):
        raise _fail(409, "tournament_started", "the tournament has started: withdraw instead")


async def start(service: LobbyPort, tournament_id: str, user_id: int | None, is_admin: bool) -> None:
    """Start: seed the players (members by their rating in the game, best first, then by joining; bots after
    them, the strongest level first) and set running (an arena's end time from now). ``user_id`` None is
    the server starting it at its start time: a Swiss with more rounds than its players allow then starts
    anyway and plays the rounds they allow (``total_rounds`` < ``rounds`` in its JSON); the organiser's start
    of it is refused (409 ``too_many_rounds``)."""
    snap = await snapshot(service, tournament_id)
    t = snap.tournament
    if user_id is not None:
        _organiser(t, user_id, is_admin)
    if t.status != OPEN:
        raise _fail(409, "tournament_started", f"the tournament is {t.status}")
    count = len(snap.entries)
    if count < 2:
        raise _fail(409, "too_few_players", "a tournament needs at least 2 players")
    if t.format == "swiss" and t.rounds is not None and user_id is not None:
        # the server, at the start time, plays the rounds the players allow (progress.total_rounds); the page
        # says so. The organiser, present, is told instead, and may wait for players or cancel.
        try:
            swiss.check_rounds(t.rounds, count)
        except TournamentError as exc:
            raise _fail(409, "too_many_rounds", str(exc)) from None
    levels = list(service.game(t.game).bot_levels)
    now = service.now()

    def write() -> bool:
        with service.session() as s:
            stored = rating_repo.ratings_of(s, {(e.user_id, t.game) for e in snap.entries if e.user_id})
            start_rating = service.rating_rules.start.rating

            def key(e: repo.EntryRecord) -> tuple[int, float, int]:
                if e.user_id is None:
                    rank = levels.index(e.bot_level) if e.bot_level in levels else -1
                    return (1, -float(rank), e.number)
                r = stored.get((e.user_id, t.game))
                return (0, -(r.rating.rating if r is not None else start_rating), e.number)

            seeds = {e.number: i for i, e in enumerate(sorted(snap.entries, key=key), start=1)}
            ends = now + timedelta(minutes=t.minutes) if t.format == "arena" and t.minutes else None
            return repo.start(s, t.id, seeds, started_at=now, ends_at=ends)

    if not await in_thread(write):
        raise _fail(409, "tournament_started", "the tournament has started")


async def pause(service: LobbyPort, tournament_id: str, user_id: int, is_admin: bool) -> None:
    """Running → paused: no new pairings (matches in play go on and count)."""
    await _move(service, tournament_id, user_id, is_admin, (RUNNING,), PAUSED, "tournament_not_running")


async def resume(service: LobbyPort, tournament_id: str, user_id: int, is_admin: bool) -> None:
    """Paused → running."""
    await _move(service, tournament_id, user_id, is_admin, (PAUSED,), RUNNING, "tournament_not_paused")


async def cancel(
    service: LobbyPort,
    tournament_id: str,
    user_id: int,
    is_admin: bool,
    abort: Callable[[str], Awaitable[Any]],
) -> None:
    """Cancel (open, running or paused): no result; ``abort(match_id)`` ends each match still in play (then
    the version is bumped once more: the detail shows the matches' ends)."""
    snap = await _move(
        service, tournament_id, user_id, is_admin, (OPEN, *LIVE), CANCELLED, "tournament_over", finished=True
    )
    aborted = False
    for g in snap.games:
        if g.match_id is not None and g.match_status in ("open", "active"):
            with contextlib.suppress(PlayError):  # it ended meanwhile
                await abort(g.match_id)
            aborted = True
    if aborted:

        def touch() -> None:
            with service.session() as s:
                repo.touch(s, tournament_id)

        await in_thread(touch)


async def _move(
    service: LobbyPort,
    tournament_id: str,
    user_id: int,
    is_admin: bool,
    from_status: tuple[str, ...],
    to: str,
    conflict: str,
    *,
    finished: bool = False,
) -> repo.Snapshot:
    snap = await snapshot(service, tournament_id)
    _organiser(snap.tournament, user_id, is_admin)
    values: dict[str, Any] = {"finished_at": service.now()} if finished else {}

    def write() -> bool:
        with service.session() as s:
            return repo.set_status(s, tournament_id, from_status, to, **values)

    if snap.tournament.status not in from_status or not await in_thread(write):
        raise _fail(409, conflict, f"the tournament is {snap.tournament.status}")
    return snap


async def withdraw(
    service: LobbyPort,
    tournament_id: str,
    user_id: int,
    resign: Callable[[str], Awaitable[Any]],
) -> None:
    """Withdraw the member from a started tournament: never paired again; their match in play is resigned
    (``resign(match_id)``); in a round robin their later games are forfeits, their finished ones stand."""
    snap = await snapshot(service, tournament_id)
    t = snap.tournament
    entry = next((e for e in snap.entries if e.user_id == user_id), None)
    if entry is None:
        raise _fail(409, "not_joined", "not in this tournament")
    if t.status not in LIVE:
        code = "tournament_over" if t.status in (FINISHED, CANCELLED) else "tournament_not_running"
        raise _fail(
            409, code, f"the tournament is {t.status}: leave instead" if t.status == OPEN else t.status
        )

    def write() -> bool:
        with service.session() as s:
            return repo.withdraw(s, t.id, entry.number, service.now())

    if not await in_thread(write):
        raise _fail(409, "already_withdrawn", "you have already withdrawn")
    for g in snap.games:
        if g.match_id and g.match_status == "active" and entry.number in (g.first, g.second):
            with contextlib.suppress(PlayError):
                await resign(g.match_id)
