"""The lobby's API: open challenges, matchmaking, matches to watch (DESIGN.md §Public JSON API; issue 6).

- ``GET /api/challenges[?game=slug]`` → the open challenge table (anyone may read it)
- ``POST /api/challenges {game, options, move_seconds?, rated?, client_seed?}`` → 201 the new challenge's
  match
- ``POST /api/challenges/{id}/accept {client_seed?}`` → ``{id, seat: 1}``: the match starts for both
- ``DELETE /api/challenges/{id}`` → the author withdraws it
- ``GET /api/queue`` → the caller's queue entry (and a heartbeat); ``POST /api/queue {game, options,
  move_seconds?, rated?, client_seed?}`` → enter it (paired at once if a compatible member waits);
  ``DELETE /api/queue`` → leave it
- ``GET /api/matches/live`` → running matches between members, for spectators

Live updates of the table and «your match has started» come over ``/ws/lobby`` (web/lobby_ws.py).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from duelclub.play import challenges, matchmaking, rating_views, views
from duelclub.play.schemas import Challenge, LiveMatchItem, MatchSummary, QueueStatus
from duelclub.play.service import MatchService, in_thread
from duelclub.store import matches as repo
from duelclub.store import users
from duelclub.web.deps import CurrentUser, OptionalUser, get_service
from duelclub.web.openapi import errors
from duelclub.web.routes.matches import AcceptBody, AcceptedOut, ClientSeed, CreatedMatchOut
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute

router = APIRouter(
    prefix="/api", tags=["lobby"], dependencies=[Depends(csrf_guard)], route_class=StrictJsonRoute
)
Service = Annotated[MatchService, Depends(get_service)]
MoveSeconds = Annotated[int | None, Field(default=None, ge=1, le=10**7)]


class ChallengeBody(BaseModel):
    """A challenge or a queue entry: the game, its options and the move clock (``move_seconds``: seconds
    per move, 10..604800, up to 7 days; Межа only 86400..604800; required games default to 60, the others
    to no clock); ``rated`` false for a casual match («товарищеская»; default: rated, in a rated game)."""

    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    move_seconds: MoveSeconds = None
    rated: bool | None = None
    client_seed: ClientSeed = None


@router.get("/challenges", response_model=list[Challenge])
async def list_challenges(
    user: OptionalUser, service: Service, game: Annotated[str | None, Query(max_length=40)] = None
) -> Any:
    """Open challenges, oldest first; ``mine`` marks the caller's own."""
    return await challenges.open_table(service, user.id if user else None, game)


@router.post("/challenges", status_code=201, response_model=CreatedMatchOut)
async def publish_challenge(body: ChallengeBody, user: CurrentUser, service: Service) -> Any:
    """Publish a challenge: an open match in the table, with its commitment shown from now on."""
    created = await challenges.publish(
        service,
        user.id,
        game=body.game,
        options=body.options,
        move_seconds=body.move_seconds,
        client_seed=body.client_seed,
        rated=body.rated,
    )
    return CreatedMatchOut(**created.model_dump())


@router.post("/challenges/{match_id}/accept", response_model=AcceptedOut, responses=errors(409))
async def accept_challenge(
    match_id: str, user: CurrentUser, service: Service, body: AcceptBody | None = None
) -> Any:
    """Take seat 1: the match starts for both. 409 ``own_challenge`` / ``challenge_taken`` /
    ``challenge_closed``, 404 ``challenge_not_found``."""
    mid = await challenges.accept(service, match_id, user.id, body.client_seed if body else None)
    return AcceptedOut(id=mid, seat=1)


@router.delete("/challenges/{match_id}", response_model=MatchSummary, responses=errors(409))
async def cancel_challenge(match_id: str, user: CurrentUser, service: Service) -> Any:
    """Withdraw your own open challenge. 403 ``not_your_match``, 409 ``match_not_open``."""
    return await challenges.cancel(service, match_id, user.id)


@router.get("/queue", response_model=QueueStatus)
async def queue_status(user: CurrentUser, service: Service) -> Any:
    """Your queue entry: ``waiting``, ``matched`` (``match_id``) or ``none``; reading it keeps you waiting."""
    return await matchmaking.status(service, user.id, refresh=True)


@router.post("/queue", response_model=QueueStatus)
async def join_queue(body: ChallengeBody, request: Request, user: CurrentUser, service: Service) -> Any:
    """Wait for a member with the same game, options, clock and rated/casual choice (one entry per member:
    this replaces yours); rated seekers are paired within a rating window that widens while they wait."""
    return await matchmaking.join(
        service,
        user.id,
        game=body.game,
        options=body.options,
        move_seconds=body.move_seconds,
        client_seed=body.client_seed,
        matchmaker=getattr(request.app.state, "matchmaker", None),
        rated=body.rated,
    )


@router.delete("/queue", response_model=QueueStatus)
async def leave_queue(user: CurrentUser, service: Service) -> Any:
    """Stop waiting."""
    await matchmaking.leave(service, user.id)
    return await matchmaking.status(service, user.id)


@router.get("/matches/live", response_model=list[LiveMatchItem])
async def live_matches(service: Service) -> Any:
    """Running matches between members, newest first, with the players' ratings: anyone may watch them
    (the public view)."""

    def read() -> list[LiveMatchItem]:
        with service.db.session() as s:
            records = repo.live_member_matches(s)
            names = users.usernames(s, {u for r in records for u in r.seat_users if u is not None})
            ratings = rating_views.seat_ratings(
                s, service.rating_rules, records, rating_views.rated_games(service.games), service.now()
            )
        return [
            LiveMatchItem(
                id=r.id,
                game=r.game,
                players=[names.get(u) if u is not None else None for u in r.seat_users],
                options_text=views.options_text(service.games.get(r.game), r.options, None),
                move_seconds=r.move_seconds,
                started_at=r.started_at,
                rated=r.rated,
                ratings=ratings.get(r.id, []),
            )
            for r in records
        ]

    return await in_thread(read)
