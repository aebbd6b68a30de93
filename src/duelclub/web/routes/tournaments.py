"""The tournaments' API (issue 26 §API; the browser pages use it too):

- ``POST /api/tournaments {game, format: round_robin|swiss|arena, name, rated, options, rounds?, minutes?,
  move_seconds?, max_players?, starts_at?, double?, round_minutes?}`` → 201 the tournament
- ``GET /api/tournaments[?status=open|running|paused|finished|cancelled][&member=name]`` → the list, newest
  first (``member``: the tournaments that member entered)
- ``GET /api/tournaments/{id}`` → the tournament: players, rounds with their pairings, standings; it and the
  list word the game options for the reader (``options_text``, as match lists do: «Дом Горна у игрока 1»)
- ``POST /api/tournaments/{id}/join`` · ``/leave`` · ``/withdraw`` — the caller
- ``POST /api/tournaments/{id}/bots {level}`` — the organiser enters a bot
- ``POST /api/tournaments/{id}/start`` · ``/pause`` · ``/resume`` · ``/cancel`` — the organiser (or an admin)
- ``GET /api/tournaments/{id}/crosstable.csv`` → standings and crosstable as CSV

Refusals are ``{code, message}`` and change nothing (play/tournament_ops.py lists the codes). Live updates
reach pages over ``/ws/lobby`` as ``{"type": "tournament", "id"}``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from duelclub.play import tournament_ops as ops
from duelclub.play import tournament_views as tviews
from duelclub.play.service import MatchService, in_thread
from duelclub.play.views import options_text
from duelclub.store import tournaments as repo
from duelclub.store import users
from duelclub.store.matches import ACTIVE, OPEN
from duelclub.web.deps import CurrentUser, OptionalUser, get_service
from duelclub.web.openapi import errors
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute
from duelclub.web.tournament_cache import DetailCache

router = APIRouter(
    prefix="/api/tournaments",
    tags=["tournaments"],
    dependencies=[Depends(csrf_guard)],
    route_class=StrictJsonRoute,
)
Service = Annotated[MatchService, Depends(get_service)]
Status = Literal["open", "running", "paused", "finished", "cancelled"]


class TournamentBody(BaseModel):
    """A new tournament. ``rounds``: a Swiss's rounds; ``minutes``: an arena's time box (5..1440);
    ``move_seconds``: the matches' move clock; ``max_players`` 2..256 (default 64); ``starts_at``: the
    server starts it then (else the organiser does); ``double``: a double round robin; ``round_minutes``: a
    round deadline (round robin, Swiss).

    Numbers and flags are strict JSON types (issue 26 §Bad input: a malformed body is refused, 422
    ``malformed``): ``"rounds": "3"`` or ``true``, ``"rated": "yes"`` are refused, not read as 3, 1 and true;
    so is a field the API does not know (``"max_player": 4`` would otherwise make a 64-player tournament)."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=40)
    format: str = Field(max_length=16)
    name: str = Field(default="", max_length=200)
    rated: bool | None = Field(default=None, strict=True)
    options: dict[str, Any] = Field(default_factory=dict)
    rounds: int | None = Field(default=None, ge=1, le=1000, strict=True)
    minutes: int | None = Field(default=None, ge=1, le=10**6, strict=True)
    move_seconds: int | None = Field(default=None, ge=1, le=10**7, strict=True)
    max_players: int | None = Field(default=None, ge=1, le=10**6, strict=True)
    starts_at: datetime | None = None
    double: bool = Field(default=False, strict=True)
    round_minutes: int | None = Field(default=None, ge=1, le=10**7, strict=True)


class BotBody(BaseModel):
    """A bot level of the tournament's game (``GET /api/games``)."""

    level: str = Field(max_length=40)


class LeaveBody(BaseModel):
    """``number``: the organiser takes out that player (a bot, say); absent: the caller leaves."""

    number: int | None = Field(default=None, strict=True)


def _driver(request: Request) -> Any:
    return getattr(request.app.state, "tournaments", None)


def _kick(request: Request) -> None:
    driver = _driver(request)
    if driver is not None:
        driver.kick()


async def _detail(
    request: Request, tournament_id: str, viewer: int | None, *, status_code: int = 200
) -> Response:
    """The detail as JSON, computed once per version of the tournament (web/tournament_cache.py), with the
    options in the reader's words (``options_text``)."""
    cache: DetailCache = request.app.state.tournament_details
    found = await cache.get(tournament_id)
    words = options_text(get_service(request).games.get(found.game), found.options, None)
    body = found.encoded(viewer, words)
    return Response(body, status_code=status_code, media_type="application/json")


@router.post("", status_code=201)
async def create_tournament(
    body: TournamentBody, request: Request, user: CurrentUser, service: Service
) -> Any:
    """Create an open tournament; you are its organiser (join it to play)."""
    new = ops.NewTournament(**body.model_dump())
    t = await ops.create(service, user.id, new)
    _kick(request)  # the driver sleeps longer while no tournament is due: it reads the new start time
    return await _detail(request, t.id, user.id, status_code=201)


@router.get("")
async def list_tournaments(
    service: Service,
    status: Annotated[Status | None, Query()] = None,
    member: Annotated[str | None, Query(max_length=40)] = None,
) -> Any:
    """Tournaments, newest first, with their player counts and their options in the reader's words
    (``options_text``); ``member``: those that member entered (profiles)."""

    def read() -> list[dict[str, Any]]:
        with service.db.session() as s:
            if member is not None:
                found = users.find_user(s, member)
                ids = {t.id for t in repo.of_member(s, found.id)} if found is not None else set()
                rows = [(t, n) for t, n in repo.listing(s, status, limit=500) if t.id in ids]
            else:
                rows = repo.listing(s, status)
            names = users.usernames(s, {t.organiser_id for t, _ in rows})
        return [
            {
                **tviews.summary(t, n, names.get(t.organiser_id)),
                "options_text": options_text(service.games.get(t.game), t.options, None),
            }
            for t, n in rows
        ]

    return await in_thread(read)


@router.get("/{tournament_id}")
async def get_tournament(tournament_id: str, request: Request, user: OptionalUser) -> Any:
    """The tournament: players, rounds with their pairings (commitments, seeds once ended), standings."""
    return await _detail(request, tournament_id, user.id if user else None)


@router.post("/{tournament_id}/join", responses=errors(409))
async def join_tournament(tournament_id: str, request: Request, user: CurrentUser, service: Service) -> Any:
    """Join an open tournament. 409 ``tournament_started``, ``tournament_full``, ``already_joined``."""
    await ops.join(service, tournament_id, user.id)
    await _publish(service, tournament_id)
    return await _detail(request, tournament_id, user.id)


@router.post("/{tournament_id}/leave", responses=errors(409))
async def leave_tournament(
    tournament_id: str,
    request: Request,
    user: CurrentUser,
    service: Service,
    body: LeaveBody | None = None,
) -> Any:
    """Leave before the start. 409 ``not_joined``, ``tournament_started`` (withdraw instead)."""
    await ops.leave(service, tournament_id, user.id, user.is_admin, body.number if body else None)
    await _publish(service, tournament_id)
    return await _detail(request, tournament_id, user.id)


@router.post("/{tournament_id}/withdraw", responses=errors(409))
async def withdraw_from_tournament(
    tournament_id: str, request: Request, user: CurrentUser, service: Service
) -> Any:
    """Withdraw from a started tournament: your match in play is resigned, you are not paired again."""

    async def resign(match_id: str) -> None:
        live = await service.fresh(match_id)
        await service.act_seq(match_id, user.id, f"withdraw-{tournament_id}", live.seq, {"kind": "resign"})

    await ops.withdraw(service, tournament_id, user.id, resign)
    await _publish(service, tournament_id)
    _kick(request)
    return await _detail(request, tournament_id, user.id)


@router.post("/{tournament_id}/bots", responses=errors(409))
async def add_bot(
    tournament_id: str, body: BotBody, request: Request, user: CurrentUser, service: Service
) -> Any:
    """Enter a bot of ``level`` (the organiser, before the start)."""
    await ops.add_bot(service, tournament_id, user.id, user.is_admin, body.level)
    await _publish(service, tournament_id)
    return await _detail(request, tournament_id, user.id)


@router.post("/{tournament_id}/start", responses=errors(409))
async def start_tournament(tournament_id: str, request: Request, user: CurrentUser, service: Service) -> Any:
    """Start now and pair the first round. 403 ``not_organiser``; 409 ``too_few_players``,
    ``too_many_rounds``, ``tournament_started``."""
    await ops.start(service, tournament_id, user.id, user.is_admin)
    await _advance(request, tournament_id)
    return await _detail(request, tournament_id, user.id)


@router.post("/{tournament_id}/pause", responses=errors(409))
async def pause_tournament(tournament_id: str, request: Request, user: CurrentUser, service: Service) -> Any:
    """No new pairings until resumed (matches in play go on)."""
    await ops.pause(service, tournament_id, user.id, user.is_admin)
    await _publish(service, tournament_id)
    return await _detail(request, tournament_id, user.id)


@router.post("/{tournament_id}/resume", responses=errors(409))
async def resume_tournament(tournament_id: str, request: Request, user: CurrentUser, service: Service) -> Any:
    await ops.resume(service, tournament_id, user.id, user.is_admin)
    await _advance(request, tournament_id)
    return await _detail(request, tournament_id, user.id)


@router.post("/{tournament_id}/cancel", responses=errors(409))
async def cancel_tournament(tournament_id: str, request: Request, user: CurrentUser, service: Service) -> Any:
    """Cancel: no result; matches in play are aborted with reason ``tournament_cancelled`` (their pages say
    the tournament was cancelled, not that an admin stopped them). The organiser, or any admin. The driver
    then lets the tournament go (its lease and match subscriptions; on another worker at its next pass)."""

    async def abort(match_id: str) -> None:
        await service.end_unplayed(
            match_id, "tournament_cancelled", from_status=(OPEN, ACTIVE), conflict="match_not_active"
        )

    await ops.cancel(service, tournament_id, user.id, user.is_admin, abort)
    await _publish(service, tournament_id)
    _kick(request)
    return await _detail(request, tournament_id, user.id)


@router.get("/{tournament_id}/crosstable.csv")
async def crosstable_csv(tournament_id: str, service: Service) -> Response:
    """Standings and crosstable as CSV (UTF-8)."""
    snap = await ops.snapshot(service, tournament_id)
    name = quote(f"duelclub-{snap.tournament.name}-crosstable.csv", safe="")
    headers = {"Content-Disposition": f"attachment; filename=\"crosstable.csv\"; filename*=UTF-8''{name}"}
    return Response(tviews.crosstable_csv(snap), media_type="text/csv; charset=utf-8", headers=headers)


async def _publish(service: MatchService, tournament_id: str) -> None:
    await service.publish("lobby", {"type": "tournament", "id": tournament_id})


async def _advance(request: Request, tournament_id: str) -> None:
    """Pair at once (this worker), so the answer already shows round 1; the driver's guard keeps it single."""
    driver = _driver(request)
    if driver is not None:
        await driver.advance(tournament_id)
        driver.kick()  # its next pass watches the new boards (it may be in its idle sleep)
    await _publish(get_service(request), tournament_id)
