"""The match chat over HTTP (issue 16 §5; the rules of who reads and writes what are in play/chat.py).

- ``GET /api/matches/{id}/chat`` → ``{"enabled", "channel", "messages": [...], "opponent",
  "opponent_blocked"}``: what the caller may read (a player: the players' channel until the match ends),
  the channel the caller writes to (None for a visitor or a bot match), and for a seated player the
  opponent's name and whether the caller blocked them (issue 28 §5; else None and false).
- ``POST /api/matches/{id}/chat {text}`` → the stored message; it reaches every reader's socket live.
- ``POST /api/chat/{message_id}/report`` → ``{"reported": true}`` (false if already reported).
- Admins: ``GET /api/admin/chat/reports`` (the queue), ``POST /api/admin/chat/{message_id}/settle {hide,
  mute_minutes}``, ``GET /api/admin/matches/{id}/chat`` (the match's whole chat, hidden messages marked).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from duelclub.play import blocks
from duelclub.play.chat import MAX_LENGTH, PLAYERS, SPECTATORS, Chat, has_chat
from duelclub.play.service import MatchService
from duelclub.web.deps import AdminUser, CurrentUser, OptionalUser, admin_user, get_service
from duelclub.web.openapi import errors
from duelclub.web.ratelimit import get_limiter
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute

router = APIRouter(
    prefix="/api", tags=["chat"], dependencies=[Depends(csrf_guard)], route_class=StrictJsonRoute
)
admin_router = APIRouter(
    prefix="/api/admin",
    tags=["admin"],
    dependencies=[Depends(csrf_guard), Depends(admin_user)],
    route_class=StrictJsonRoute,
)
Service = Annotated[MatchService, Depends(get_service)]


def get_chat(request: Request) -> Chat:
    """The app's chat (one per process, made on first use). Its rate limit counts in the storage of the
    login limits (web/ratelimit.py): Redis, shared by the workers, when ``REDIS_URL`` is set."""
    chat: Chat | None = getattr(request.app.state, "chat", None)
    if chat is None:
        chat = request.app.state.chat = Chat(get_service(request), get_limiter(request).storage)
    return chat


ChatDep = Annotated[Chat, Depends(get_chat)]


class ChatIn(BaseModel):
    text: Annotated[str, Field(min_length=1, max_length=MAX_LENGTH * 2)]


class SettleIn(BaseModel):
    hide: bool = True
    mute_minutes: Annotated[int, Field(ge=0, le=60 * 24 * 30)] = 0


@router.get("/matches/{match_id}/chat")
async def read_chat(match_id: str, user: OptionalUser, chat: ChatDep, service: Service) -> dict[str, Any]:
    """The chat the caller may read, and where they would write."""
    live = await service.fresh(match_id)
    enabled = has_chat(live)
    channel = None
    if enabled and user is not None:
        channel = PLAYERS if live.seat_of(user.id) is not None else SPECTATORS
    messages = await chat.history(match_id, user.id if user else None)
    opponent, blocked = None, False
    seat = live.seat_of(user.id) if enabled and user is not None else None
    if user is not None and seat is not None:
        other = live.record.seat_users[1 - seat]
        opponent = live.names[1 - seat]
        blocked = other is not None and await blocks.has_blocked(service, user.id, other)
    return {
        "enabled": enabled,
        "channel": channel,
        "messages": messages,
        "opponent": opponent,
        "opponent_blocked": blocked,
    }


@router.post("/matches/{match_id}/chat", status_code=201, responses=errors(409, 429))
async def write_chat(match_id: str, body: ChatIn, user: CurrentUser, chat: ChatDep) -> dict[str, Any]:
    """Post a message. 409 ``no_chat``, 422 ``bad_message``, 429 ``chat_rate_limited``, 403 ``muted``."""
    return await chat.post(match_id, user.id, body.text)


@router.post("/chat/{message_id}/report", responses=errors(409))
async def report_message(message_id: int, user: CurrentUser, chat: ChatDep) -> dict[str, bool]:
    """Report a message to the admins. 404 ``message_not_found``, 409 ``own_message``."""
    return {"reported": await chat.report(message_id, user.id)}


@admin_router.get("/chat/reports")
async def chat_reports(chat: ChatDep) -> list[dict[str, Any]]:
    """Open reports, oldest first."""
    return await chat.reports()


@admin_router.post("/chat/{message_id}/settle")
async def settle_report(message_id: int, body: SettleIn, admin: AdminUser, chat: ChatDep) -> dict[str, bool]:
    """Hide the message (or keep it) and optionally mute its author for ``mute_minutes``."""
    await chat.settle(message_id, admin.id, hide=body.hide, mute_minutes=body.mute_minutes)
    return {"ok": True}


@admin_router.get("/matches/{match_id}/chat")
async def admin_chat_log(match_id: str, chat: ChatDep) -> list[dict[str, Any]]:
    """Every message of the match, hidden ones included (``hidden: true``)."""
    return await chat.admin_log(match_id)
