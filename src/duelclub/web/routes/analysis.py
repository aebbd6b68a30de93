"""Post-game analysis of a finished match (issue 17 §4), for the same members as its replay.

- ``GET /api/matches/{id}/analysis`` → ``{id, game, status: "ready", iterations, entries}``; 404
  ``match_not_found``; 409 ``match_not_finished`` (live or aborted); 409 ``analysis_pending`` — the analysis
  is queued for the bot workers (the first such answer queues it) and not computed yet: ask again; 409
  ``analysis_failed`` — the bot workers gave up on it (after three attempts).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from duelclub.play import analysis
from duelclub.play.analysis import MatchAnalysisOut
from duelclub.play.service import MatchService
from duelclub.web.deps import current_user, get_service
from duelclub.web.openapi import errors

router = APIRouter(prefix="/api/matches", tags=["matches"], dependencies=[Depends(current_user)])
Service = Annotated[MatchService, Depends(get_service)]


@router.get("/{match_id}/analysis", response_model=MatchAnalysisOut, responses=errors(409))
async def match_analysis(match_id: str, service: Service) -> Any:
    """The analysis of a finished match; 409 ``analysis_pending`` while the bot workers compute it, 409
    ``analysis_failed`` if they gave up."""
    return await analysis.analysis(service, match_id)
