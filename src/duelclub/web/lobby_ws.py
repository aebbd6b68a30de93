"""The lobby WebSocket ``/ws/lobby`` (issue 6): the challenge table live, and «your match has started».

Server → client (each with a ``seq`` counting this socket's pushes):
- ``{"type":"challenges", seq, items: [Challenge…]}`` on connect and whenever the table changes (any worker:
  the ``lobby`` bus channel);
- ``{"type":"queue", seq, queue: QueueStatus}`` on connect (logged-in members);
- ``{"type":"match", seq, id, why}`` when a match of the member starts (their challenge was accepted, the
  queue paired them, a rematch was accepted, a tournament paired them): the ``user:{id}`` channel;
- ``{"type":"tournament", seq, id}`` when a tournament changed (issue 26: joined, paired, a result, its end).
Client → server: ``{"type":"sync"}`` (send the table and the queue status again) — anything else is ignored.
Messages pass the same per-socket budget and limits as the match socket's (web/wsguard.py): over them,
``{"type":"error", seq, code, message}`` (``rate_limited``, ``too_large``, ``malformed``), then a close with
1008 if the flood goes on.

A logged-in member's open lobby socket keeps their queue entry alive (a heartbeat, and a touch on connect),
and leaving the page leaves the queue: when the member's last lobby socket on this worker closes, a roll call
goes out on the member's bus channel (``{"type": "lobby_roll_call"}``); every lobby socket of the member on
any worker answers it with a heartbeat, and :data:`ROLL_CALL_SECONDS` later the entry is withdrawn unless a
heartbeat reached it after the close (another tab, possibly on another worker, or the same page reloaded).
Anonymous visitors get the table only. As on every socket (issue 31), a database outage closes it with 1013
(web/outage.py) and a send after the close is dropped quietly (web/wssend.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, Depends, WebSocket
from starlette.websockets import WebSocketDisconnect

from duelclub.bus import Subscription
from duelclub.bus.base import RESYNC_KIND
from duelclub.bus.messages import RollCall
from duelclub.play import challenges, matchmaking
from duelclub.play.notify import LOBBY_CHANNEL, user_channel
from duelclub.play.service import MatchService
from duelclub.web import wssend
from duelclub.web.deps import OptionalUser, get_service
from duelclub.web.socket_messages import LOBBY_CLIENT_MESSAGE
from duelclub.web.wsbase import GuardedSocket, accept
from duelclub.web.wsguard import Refusal

log = logging.getLogger(__name__)
router = APIRouter()
HEARTBEAT_SECONDS = 10.0
ROLL_CALL_SECONDS = 1.0
"""How long the member's other lobby sockets have to answer a roll call before the queue entry goes."""
ROLL_CALL: Literal["lobby_roll_call"] = "lobby_roll_call"


def _open_sockets(ws: WebSocket) -> Counter[int]:
    """Open lobby sockets per member on this worker (kept on the app, not in a module global)."""
    counts: Counter[int] | None = getattr(ws.app.state, "lobby_sockets", None)
    if counts is None:
        counts = Counter()
        ws.app.state.lobby_sockets = counts
    return counts


class LobbySocket(GuardedSocket):
    """One lobby page's socket: the read loop and the guard are :class:`GuardedSocket`'s; a ``sync`` sends
    the table and the queue status again, anything else is ignored."""

    messages = LOBBY_CLIENT_MESSAGE

    def __init__(self, ws: WebSocket, service: MatchService, user_id: int | None) -> None:
        super().__init__(ws)
        self.service, self.user_id = service, user_id
        self.seq = 0
        self._lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` with the next ``seq``; after the socket closed, nothing (web/wssend.py)."""
        async with self._lock:
            self.seq += 1
            text = json.dumps({**message, "seq": self.seq}, separators=(",", ":"), default=str)
            await wssend.send_text(self.ws, text)

    async def send_table(self) -> None:
        items = await challenges.open_table(self.service, self.user_id)
        await self.send({"type": "challenges", "items": [i.model_dump(mode="json") for i in items]})

    async def send_queue(self) -> None:
        if self.user_id is not None:
            queue = await matchmaking.status(self.service, self.user_id)
            await self.send({"type": "queue", "queue": queue.model_dump(mode="json")})

    async def pump_lobby(self, sub: Subscription) -> None:
        async for message in sub:
            burst = [message, *sub.drain()]  # a burst of changes: one fresh table
            changed = dict.fromkeys(m.get("id") for m in burst if m.get("type") == "tournament")
            for tournament_id in changed:  # a tournament changed (issue 26): its pages read it again
                await self.send({"type": "tournament", "id": tournament_id})
            if any(m.get("type") != "tournament" for m in burst):
                await self.send_table()

    async def pump_user(self, sub: Subscription) -> None:
        async for message in sub:
            kind = message.get("type")
            if kind == "match":
                await self.send({"type": "match", "id": message.get("id"), "why": message.get("why")})
            elif kind == ROLL_CALL and self.user_id is not None:
                await matchmaking.touch(self.service, self.user_id)
            elif kind == RESYNC_KIND:  # the bus may have lost news (issue 18): send what the database says
                await self.send_queue()

    async def heartbeat(self) -> None:
        assert self.user_id is not None
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            await matchmaking.touch(self.service, self.user_id)

    async def refuse(self, refusal: Refusal) -> None:
        await self.send({"type": "error", "code": refusal.code, "message": refusal.message})

    async def on_message(self, msg: Any) -> None:
        """A ``sync``: the table and the queue status again (a malformed message is ignored)."""
        await self.send_table()
        await self.send_queue()


@router.websocket("/ws/lobby")
async def lobby_socket(
    ws: WebSocket, user: OptionalUser, service: Annotated[MatchService, Depends(get_service)]
) -> None:
    """The live lobby (see the module docstring)."""
    if not await accept(ws):
        return
    uid = user.id if user else None
    sock = LobbySocket(ws, service, uid)
    _open = _open_sockets(ws)
    subs = [await service.bus.subscribe(LOBBY_CHANNEL)]
    if uid is not None:
        subs.append(await service.bus.subscribe(user_channel(uid)))
        _open[uid] += 1
        with contextlib.suppress(Exception):
            await matchmaking.touch(service, uid)  # answers a roll call of a page this one replaces
    try:
        await sock.send_table()
        await sock.send_queue()
        async with anyio.create_task_group() as tg:
            tg.start_soon(sock.pump_lobby, subs[0])
            if uid is not None:
                tg.start_soon(sock.pump_user, subs[1])
                tg.start_soon(sock.heartbeat)
            await sock.read_loop()
            tg.cancel_scope.cancel()
    except* (WebSocketDisconnect, OSError, RuntimeError):  # the page went away while we were sending
        pass
    finally:
        for sub in subs:
            await sub.close()
        if uid is not None:
            _open[uid] -= 1
            if _open[uid] <= 0:
                del _open[uid]
                with contextlib.suppress(Exception):
                    await _leave_unless_open_elsewhere(service, uid)


async def _leave_unless_open_elsewhere(service: MatchService, uid: int) -> None:
    """The roll call of the module docstring: withdraw ``uid``'s queue entry unless another lobby socket of
    the member answers within :data:`ROLL_CALL_SECONDS`."""
    closed_at = service.now()
    await service.bus.publish(user_channel(uid), RollCall(type=ROLL_CALL))
    await asyncio.sleep(ROLL_CALL_SECONDS)
    await matchmaking.leave(service, uid, unseen_since=closed_at)
