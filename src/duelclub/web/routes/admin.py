"""Admin API (DESIGN.md §Web — list/filter matches, full logs, replays, abort a stuck match).

Admins only: 401 ``not_authenticated`` for visitors, 403 ``forbidden`` for members. The server seed of a live
match appears nowhere here (rules/fairness.md §Values): logs and replays exist only once a match has ended.
"""

from __future__ import annotations

import os
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel

from duelclub.play.schemas import MatchListItem, MatchLog, MatchSummary, ReplayStep
from duelclub.play.service import MatchService, in_thread
from duelclub.store import botjobs
from duelclub.store import matches as repo
from duelclub.store.models import utcnow
from duelclub.web.deps import AdminUser, admin_user, get_service
from duelclub.web.openapi import errors
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


@router.get("/matches/{match_id}/log", response_model=MatchLog, responses=errors(409))
async def match_log(match_id: str, admin: AdminUser, service: Service) -> Any:
    """The full log of any ended match. 409 ``match_not_finished``."""
    return await service.match_log(match_id, admin.id, is_admin=True)


@router.get("/matches/{match_id}/replay", response_model=ReplayStep, responses=errors(409))
async def replay_step(match_id: str, service: Service, seq: Annotated[int, Query(ge=0)] = 0) -> Any:
    """The full view after ``seq`` actions of an ended match, with action ``seq`` and its events.
    409 ``match_not_finished``, 422 ``bad_seq`` (beyond the last action)."""
    return await service.replay_step(match_id, seq)


@router.post("/matches/{match_id}/abort", response_model=MatchSummary, responses=errors(409))
async def abort_match(match_id: str, service: Service) -> Any:
    """Abort an open or active match (no winner; the server seed is then published).
    409 ``match_not_active``."""
    return await service.abort(match_id)


class ServerStatus(BaseModel):
    """«Состояние сервера» of the worker that answers (each worker has its own sockets and errors).

    ``live``: open and active matches by game (the whole club, from the database); ``sockets``: this
    worker's open WebSockets (``match``, ``lobby``); ``bots``: jobs ``waiting`` for a bot worker and those a
    worker is ``thinking`` on now (the whole club); ``db_pool_in_use``: this worker's checked-out
    connections; ``bus_ok``: Redis (or the in-process bus) reachable; ``recent_errors``: this worker's last
    warnings and errors (duelclub/logs.py), newest last."""

    worker_pid: int
    uptime_seconds: float
    live: dict[str, dict[str, int]]
    sockets: dict[str, int]
    bots: dict[str, int]
    db_pool_in_use: int
    bus_ok: bool
    recent_errors: list[dict[str, Any]]


@router.get("/status", response_model=ServerStatus)
async def server_status(request: Request, service: Service) -> Any:
    """The server's state for the admin page «Состояние сервера» (see :class:`ServerStatus`)."""
    state = request.app.state

    def read() -> tuple[dict[str, dict[str, int]], tuple[int, int]]:
        with service.db.read_session() as s:
            return repo.live_counts(s), botjobs.counts(s, utcnow())

    live, (waiting, thinking) = await in_thread(read)
    pool: Any = service.db.engine.pool
    return ServerStatus(
        worker_pid=os.getpid(),
        uptime_seconds=round(time.time() - getattr(state, "started_at", time.time()), 1),
        live=live,
        sockets=state.web_metrics.open_sockets(),
        bots={"waiting": waiting, "thinking": thinking},
        db_pool_in_use=int(pool.checkedout()) if hasattr(pool, "checkedout") else 0,
        bus_ok=bool(service.bus.healthy),
        recent_errors=state.recent_errors.snapshot()[-20:],
    )
