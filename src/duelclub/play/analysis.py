"""Post-game analysis for members (issue 17 §4): ask for it, read it when a bot worker has computed it.

The analysis itself is computed by the bot workers (``bots/analysis_worker.py``) and stored once
(``store/analysis.py``); here a member's request is checked like a replay's (play/replay.py: any member, an
ended dealt match) — restricted to *finished* matches, the only ones with a result to analyse — and queued.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from duelclub.play.errors import PlayError
from duelclub.play.service import MatchService, in_thread
from duelclub.store import analysis as store
from duelclub.store.matches import FINISHED
from duelclub.store.models import utcnow


class MatchAnalysisOut(BaseModel):
    """``GET /api/matches/{id}/analysis``: ``status`` ``ready`` with one entry per action (seq 1..n) with
    ``seat``, the mover's win chance ``before``/``after`` and the ``loss`` (0..1), ``mark`` (None,
    ``inaccuracy``, ``mistake``), ``best`` (the action the bot preferred, JSON, for a marked action) and
    ``forced``; or ``pending`` (HTTP 202) while the bot workers compute it — no entries, ``iterations``
    None: ask again."""

    id: str
    game: str
    status: Literal["ready", "pending"]
    iterations: int | None
    entries: list[dict[str, Any]]


async def analysis(service: MatchService, match_id: str) -> MatchAnalysisOut:
    """The stored analysis of a finished match (``status`` ``ready``), or a request for it: ``pending``
    while it is queued (now by this ask, or earlier) and not computed yet.

    Raises PlayError ``match_not_found`` (404), ``match_not_finished`` (409: live, aborted, never dealt;
    nothing is queued), ``analysis_failed`` (409: the bot workers tried
    :data:`~duelclub.store.analysis.MAX_ATTEMPTS` times and gave up; the worker's log says why).
    """
    live = await service.fresh(match_id)
    if live.status != FINISHED or live.state is None:
        raise PlayError(409, "match_not_finished", "only finished matches are analysed")
    row = await in_thread(_get_or_request, service, live.id, live.record.game)
    if row is not None and row.given_up(utcnow()):
        raise PlayError(409, "analysis_failed", "the bot workers could not analyse this match")
    if row is None or row.entries is None:
        game = live.record.game
        return MatchAnalysisOut(id=live.id, game=game, status="pending", iterations=None, entries=[])
    return MatchAnalysisOut(
        id=row.match_id, game=row.game, status="ready", iterations=row.iterations, entries=row.entries
    )


def _get_or_request(service: MatchService, match_id: str, game: str) -> store.Analysis | None:
    with service.db.session() as s:
        row = store.get(s, match_id)
        if row is None:
            store.request(s, match_id, game, utcnow())
        return row
