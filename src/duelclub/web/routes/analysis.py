"""Post-game analysis of a finished match (issue 17 §4), for the same members as its replay.

- ``GET /api/matches/{id}/analysis`` → 200 ``{id, game, status: "ready", iterations, entries}``; 202
  ``{…, status: "pending", entries: []}`` — the analysis is queued for the bot workers (the first such
  answer queues it) and not computed yet: ask again (a 2xx, so a browser's console stays quiet while the
  page polls); 404 ``match_not_found``; 409 ``match_not_finished`` (live or aborted); 409
  ``analysis_failed`` — the bot workers gave up on it (after three attempts).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response

from duelclub.play import analysis
from duelclub.play.analysis import MatchAnalysisOut
from duelclub.play.service import MatchService
from duelclub.web.deps import current_user, get_service
from duelclub.web.openapi import errors

router = APIRouter(prefix="/api/matches", tags=["matches"], dependencies=[Depends(current_user)])
Service = Annotated[MatchService, Depends(get_service)]


@router.get(
    "/{match_id}/analysis",
    response_model=MatchAnalysisOut,
    responses={**errors(409), 202: {"model": MatchAnalysisOut, "description": "pending: ask again"}},
)
async def match_analysis(match_id: str, service: Service, response: Response) -> Any:
    """The analysis of a finished match; 202 ``pending`` while the bot workers compute it, 409
    ``analysis_failed`` if they gave up."""
    out = await analysis.analysis(service, match_id)
    if out.status == "pending":
        response.status_code = 202
    return out
