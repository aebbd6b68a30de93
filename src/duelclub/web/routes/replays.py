"""Replays of ended matches for members (issue 14 §7), on the ordinary match page.

- ``GET /api/matches/{id}/moves`` → the move list of an ended match (seq, seat, source, action, time)
- ``GET /api/matches/{id}/replay?seq=N`` → the full view after the first N actions, with action N and its
  events — the admins' replay step (play/service.py ``replay_step``), for any logged-in member
- ``GET /api/matches/{id}/draws`` → every draw of the match's fairness stream in order, which the verify page
  recomputes from the revealed seeds (play/draws.py; 409 while live, empty if aborted before the deal)

Both answer 409 ``match_not_finished`` while the match is live (its full view would reveal what the server
seed still hides) or if it was aborted before the deal.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from duelclub.play import replay
from duelclub.play.draws import MatchDraws
from duelclub.play.replay import ReplayMoves
from duelclub.play.schemas import ReplayStep
from duelclub.play.service import MatchService
from duelclub.web.deps import current_user, get_service
from duelclub.web.openapi import errors

router = APIRouter(prefix="/api/matches", tags=["matches"], dependencies=[Depends(current_user)])
Service = Annotated[MatchService, Depends(get_service)]


@router.get("/{match_id}/moves", response_model=ReplayMoves, responses=errors(409))
async def replay_moves(match_id: str, service: Service) -> Any:
    """The actions of an ended match, in order. 409 ``match_not_finished``."""
    return await replay.moves(service, match_id)


@router.get("/{match_id}/replay", response_model=ReplayStep, responses=errors(409))
async def replay_step(match_id: str, service: Service, seq: Annotated[int, Query(ge=0)] = 0) -> Any:
    """The full view after ``seq`` actions of an ended match, with action ``seq`` and its events.
    409 ``match_not_finished``, 422 ``bad_seq`` (beyond the last action)."""
    return await service.replay_step(match_id, seq)


@router.get("/{match_id}/draws", response_model=MatchDraws, responses=errors(409))
async def match_draws(match_id: str, service: Service) -> Any:
    """The draws of an ended match's fairness stream, in order. 409 ``match_not_finished``."""
    return await replay.draws(service, match_id)
