"""Matches and invites (DESIGN.md §Public JSON API).

- ``POST /api/matches`` → 201 ``{id, status, seat, commitment, invite_url, invite_token}``
- ``GET /api/matches`` → the caller's matches, newest first
- ``GET /api/invites/{token}``, ``POST /api/invites/{token}/accept`` → ``{id, seat}``
- ``DELETE /api/matches/{id}`` → the opener cancels an open invite (as any state-changing call: JSON
  Content-Type, see web/security.py)
- ``GET /api/matches/{id}``, ``GET /api/matches/{id}/state?since=N``, ``POST /api/matches/{id}/actions``,
  ``GET /api/matches/{id}/log``
- ``GET /api/matches/{id}/presence`` (both seats connected or away), ``POST /api/matches/{id}/claim`` (the
  win over an opponent gone for the grace period), ``POST /api/matches/{id}/rematch`` (offer or accept),
  ``POST /api/matches/{id}/abort`` («Отменить партию» before both players' first actions; issue 14)

Reads of a match are open to spectators (seat null, the public view); writes need a seat.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from duelclub.play import abort, lobby, presence, ratings, rematch
from duelclub.play.schemas import (
    InviteInfo,
    MatchListItem,
    MatchLog,
    MatchSummary,
    Presence,
    Rematch,
    StatePayload,
)
from duelclub.play.service import MatchService
from duelclub.web.deps import CurrentUser, OptionalUser, get_service
from duelclub.web.openapi import errors
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute

router = APIRouter(
    prefix="/api", tags=["matches"], dependencies=[Depends(csrf_guard)], route_class=StrictJsonRoute
)
Service = Annotated[MatchService, Depends(get_service)]
ClientSeed = Annotated[str | None, Field(default=None, max_length=64)]


class CreateMatchBody(BaseModel):
    game: str
    vs: Literal["bot", "invite"]
    bot_level: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    client_seed: ClientSeed = None
    move_seconds: int | None = None
    """Seconds per move (10..604800, up to 7 days; Межа 86400..604800) between members, for games with a
    clock; ignored vs a bot."""
    rated: bool | None = None
    """False: a casual invite («товарищеская»); default rated (in a rated game; never vs a bot)."""


class CreatedMatchOut(BaseModel):
    """A new match (``POST /api/matches``, ``POST /api/challenges``): ``move_seconds`` is its move clock in
    seconds (None: no clock); ``rated``: its result changes both ratings."""

    id: str
    status: str
    seat: int
    commitment: str
    invite_url: str | None = None
    invite_token: str | None = None
    move_seconds: int | None = None
    rated: bool = False


class AcceptBody(BaseModel):
    client_seed: ClientSeed = None


class AcceptedOut(BaseModel):
    id: str
    seat: int


class ActionBody(BaseModel):
    """``id``: the client's action id (a resend with the same id is harmless); ``seq``: the seq of the
    state the action was chosen in; ``action``: one element of ``legal``."""

    id: Annotated[str, Field(min_length=1, max_length=40, coerce_numbers_to_str=True)]
    seq: Annotated[int, Field(ge=0)]
    action: dict[str, Any]


@router.post("/matches", status_code=201, response_model=CreatedMatchOut)
async def create_match(body: CreateMatchBody, request: Request, user: CurrentUser, service: Service) -> Any:
    """Open a match: vs a bot (active at once; you are seat 0) or an invite link (open until accepted)."""
    created = await lobby.create_match(
        service,
        user.id,
        game=body.game,
        vs=body.vs,
        options=body.options,
        bot_level=body.bot_level,
        client_seed=body.client_seed,
        move_seconds=body.move_seconds,
        rated=body.rated,
    )
    out = CreatedMatchOut(**created.model_dump())
    if created.invite_token is not None:
        out.invite_url = f"{str(request.base_url).rstrip('/')}/invite/{created.invite_token}"
    return out


@router.get("/matches", response_model=list[MatchListItem])
async def my_matches(user: CurrentUser, service: Service) -> Any:
    """The caller's matches, newest first, with status, opponent and result (open invites: the token)."""
    return await service.my_matches(user.id)


@router.get("/invites/{token}", response_model=InviteInfo)
async def get_invite(token: str, service: Service) -> Any:
    """What the invite offers: game, opener, options, commitment, status. 404 ``invite_not_found``."""
    return await lobby.invite_info(service, token)


@router.post("/invites/{token}/accept", response_model=AcceptedOut, responses=errors(409))
async def accept_invite(
    token: str, user: CurrentUser, service: Service, body: AcceptBody | None = None
) -> Any:
    """Take seat 1 and start the match. 409 ``own_invite`` / ``invite_taken``, 404 ``invite_not_found``."""
    match_id, seat = await lobby.accept_invite(service, token, user.id, body.client_seed if body else None)
    return AcceptedOut(id=match_id, seat=seat)


@router.get("/matches/{match_id}", response_model=MatchSummary)
async def get_match(match_id: str, service: Service) -> Any:
    """Seats (with the members' ratings; the change a rated match made, once ended), status, whose move,
    result, commitment, client seeds, the server seed once ended, the move clock, rated or casual, and the
    rematch offered after it."""
    summary = await ratings.summary(service, match_id)
    if summary.status in ("finished", "aborted"):
        summary.rematch = await rematch.rematch_of(service, match_id)
    return summary


@router.delete("/matches/{match_id}", response_model=MatchSummary, responses=errors(409))
async def cancel_invite(match_id: str, user: CurrentUser, service: Service) -> Any:
    """Cancel your own open invite: the match ends ``aborted`` with result reason ``cancelled``.
    403 ``not_your_match`` (not the opener), 409 ``match_not_open`` (accepted or ended), 404."""
    return await lobby.cancel_invite(service, match_id, user.id)


@router.get("/matches/{match_id}/state", response_model=StatePayload)
async def get_state(
    match_id: str, user: OptionalUser, service: Service, since: Annotated[int | None, Query(ge=0)] = None
) -> Any:
    """The caller's view (spectators: seat null) and the events after ``since``."""
    return await service.state(match_id, user.id if user else None, since)


@router.post("/matches/{match_id}/actions", response_model=StatePayload, responses=errors(409))
async def post_action(match_id: str, body: ActionBody, user: CurrentUser, service: Service) -> Any:
    """Play ``action`` at ``seq``. 409 ``stale_seq``/``match_not_active``, 403 ``not_your_seat``,
    422 ``malformed_action``, ``clock_only`` (an action only the clock plays) or the rules' code; the answer
    has the new seq, view, legal and events."""
    return await service.act(match_id, user.id, body.id, body.seq, body.action)


@router.get("/matches/{match_id}/log", response_model=MatchLog, responses=errors(409))
async def get_log(match_id: str, user: CurrentUser, service: Service) -> Any:
    """The full log of an ended match, for its players and admins (rules/fairness.md §Reveal).
    409 ``match_not_finished``, 403 ``not_your_match``."""
    return await service.match_log(match_id, user.id, user.is_admin)


@router.get("/matches/{match_id}/presence", response_model=Presence)
async def get_presence(match_id: str, user: OptionalUser, service: Service) -> Any:
    """Whether each seat's player is connected; for a seated caller, when the win may be claimed."""
    return await presence.presence(service, match_id, user.id if user else None)


@router.post("/matches/{match_id}/claim", response_model=Presence, responses=errors(409))
async def claim_win(match_id: str, user: CurrentUser, service: Service) -> Any:
    """Claim the win: your opponent has been disconnected for the grace period in a match without a clock.
    409 ``claim_too_early`` / ``opponent_connected`` / ``claim_not_allowed`` / ``match_not_active``."""
    return await presence.claim_win(service, match_id, user.id)


@router.post("/matches/{match_id}/abort", response_model=MatchSummary, responses=errors(409))
async def abort_match(match_id: str, user: CurrentUser, service: Service) -> Any:
    """«Отменить партию»: end the match without a result (never rated) while not both players have made
    their first action. 409 ``abort_too_late`` / ``abort_not_allowed`` (a tournament board) /
    ``match_not_active``, 403 ``not_your_seat``."""
    return await abort.abort(service, match_id, user.id)


@router.post("/matches/{match_id}/rematch", response_model=Rematch, responses=errors(409))
async def offer_rematch(
    match_id: str, user: CurrentUser, service: Service, body: AcceptBody | None = None
) -> Any:
    """Offer a rematch of an ended match (same options and clock, seats swapped), or accept the opponent's
    offer: then the new match starts. Against a bot the new match starts at once."""
    return await rematch.offer_or_accept(service, match_id, user.id, body.client_seed if body else None)
