"""Replays for members (issue 14 §7): once a match has ended, its players and any member may step through it
with full information, on the ordinary match page.

The steps are the admins' replay (``LobbyPort.replay_step``: the state after the first ``seq`` actions,
rebuilt by replaying the log, seen through ``game.full_view``) — the same server side, open to members. The
move list (:func:`moves`) is the logged actions without the audit data of the admins' log. A live match is
never replayable: its full view would show what the server seed still hides (rules/fairness.md §Values).
"""

from __future__ import annotations

from pydantic import BaseModel

from duelclub.play import views
from duelclub.play.draws import MatchDraws, match_draws
from duelclub.play.errors import PlayError
from duelclub.play.port import LobbyPort
from duelclub.play.schemas import LoggedAction, SeatInfo
from duelclub.play.threads import in_thread
from duelclub.store.matches import ENDED


class ReplayMoves(BaseModel):
    """``GET /api/matches/{id}/moves``: the actions of an ended match in order (``seq`` 1..``last_seq``)."""

    id: str
    game: str
    status: str
    last_seq: int
    seats: list[SeatInfo]
    actions: list[LoggedAction]


async def moves(service: LobbyPort, match_id: str) -> ReplayMoves:
    """The move list of an ended, dealt match. Raises PlayError ``match_not_found`` (404),
    ``match_not_finished`` (409: live, or aborted before the deal)."""
    live = await service.fresh(match_id)
    if live.status not in ENDED or live.state is None:
        raise PlayError(409, "match_not_finished", "replays exist only for ended, dealt matches")
    return ReplayMoves(
        id=live.id,
        game=live.record.game,
        status=live.status,
        last_seq=live.seq,
        seats=views.seat_infos(live.record, live.names),
        actions=[views.logged_action(a) for a in live.actions],
    )


async def draws(service: LobbyPort, match_id: str) -> MatchDraws:
    """The draw log of an ended match (play/draws.py), for the verify page. Raises PlayError
    ``match_not_found`` (404), ``match_not_finished`` (409 while live)."""
    live = await service.fresh(match_id)
    return await in_thread(match_draws, live)
