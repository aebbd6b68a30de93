"""«Отменить партию» (issue 14 §2): a player aborts a match before it has really begun.

Until both players of a match between members have made their own first action (``LiveMatch.abortable``),
either may abort it: the match ends ``aborted`` without a result (reason ``player_abort``, ``seat`` who
aborted) and is never rated. A clock running out before a player's first action aborts it the same way
(play/commit.py, reason ``no_first_move``). Once both have moved, the way out is to resign.

A tournament board is never aborted by a player: until both have moved the tournament's no-show rule decides
(play/tournament_driver.py: the absent seat forfeits), and an abort would have scored the board as lost by
both (-/-), taking the present player's forfeit win away.
"""

from __future__ import annotations

from duelclub.games.contract import Outcome, PlatformReason
from duelclub.play import views
from duelclub.play.errors import PlayError, stale
from duelclub.play.port import LobbyPort
from duelclub.play.schemas import MatchSummary
from duelclub.play.threads import in_thread
from duelclub.store.matches import ABORTED, Finish

PLAYER_ABORT: PlatformReason = "player_abort"


async def abort(service: LobbyPort, match_id: str, user_id: int) -> MatchSummary:
    """The player ``user_id`` aborts ``match_id`` (``POST /api/matches/{id}/abort``).

    Raises PlayError ``match_not_found`` (404), ``not_your_seat`` (403), ``match_not_active`` (409),
    ``abort_too_late`` (409: both players have made their first action, or a bot plays),
    ``abort_not_allowed`` (409: a tournament board), ``stale_seq`` (409: a move was stored meanwhile; look
    again)."""
    async with service.seated_active(match_id, user_id) as (live, seat):
        if live.in_tournament:
            raise PlayError(
                409, "abort_not_allowed", "a tournament board is not called off: its no-show rule decides"
            )
        if not live.abortable():
            raise PlayError(409, "abort_too_late", "both players have moved (or a bot plays): resign instead")
        result = {**service.result_json(live, Outcome(None, PLAYER_ABORT)), "seat": seat}
        finish = Finish(ABORTED, result, service.now())
        if not await in_thread(service.end_if_at, live.record, finish, live.seq):
            await service.catch_up(live)
            raise stale(live.seq)
        live.ended(finish.status, finish.result, finish.at)
    await service.changed(live, since=live.seq)
    return views.summary(live)
