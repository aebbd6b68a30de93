"""Admin API (DESIGN.md §Web — list/filter matches, full logs, replays, abort a stuck match).

Admins only: 401 ``not_authenticated`` for visitors, 403 ``forbidden`` for members. The server seed of a live
match appears nowhere here (rules/fairness.md §Values): logs and replays exist only once a match has ended.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from duelclub.play.schemas import MatchListItem, MatchLog, MatchSummary, ReplayStep
from duelclub.play.service import MatchService
from duelclub.web.deps import AdminUser, admin_user, get_service
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute

router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[Depends(csrf_guard), Depends(admin_user)],
    route_class=StrictJsonRoute,
)
Service = Annotated[MatchService, Depends(get_service)]


@router.get("/matches", response_model=list[MatchListItem])
async def list_matches(
    service: Service,
    status: Annotated[str | None, Query(max_length=16)] = None,
    game: Annotated[str | None, Query(max_length=40)] = None,
    user: Annotated[str | None, Query(max_length=40, description="a player's username")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> Any:
    """All matches, newest first, filtered by status, game and player."""
    return await service.admin_matches(status=status, game=game, username=user, limit=limit)


@router.get("/matches/{match_id}/log", response_model=MatchLog)
async def match_log(match_id: str, admin: AdminUser, service: Service) -> Any:
    """The full log of any ended match. 409 ``match_not_finished``."""
    return await service.match_log(match_id, admin.id, is_admin=True)


@router.get("/matches/{match_id}/replay", response_model=ReplayStep)
async def replay_step(match_id: str, service: Service, seq: Annotated[int, Query(ge=0)] = 0) -> Any:
    """The full view after ``seq`` actions of an ended match, with action ``seq`` and its events.
    409 ``match_not_finished``, 422 ``bad_seq`` (beyond the last action)."""
    return await service.replay_step(match_id, seq)


@router.post("/matches/{match_id}/abort", response_model=MatchSummary)
async def abort_match(match_id: str, service: Service) -> Any:
    """Abort an open or active match (no winner; the server seed is then published).
    409 ``match_not_active``."""
    return await service.abort(match_id)
