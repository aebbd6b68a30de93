"""The «Ваш ход» socket ``/ws/turns`` (issue 16 §6): how many of the member's matches wait for their move,
live on every page (the header badge and the tab title, static/js/turnbadge.js). Its read loop and guard are
:class:`~duelclub.web.wsbase.GuardedSocket`'s.

Server → client: ``{"type": "turns", "count": n, "ids": [match ids]}`` on connect and whenever the number or
the set changes; ``{"type": "match", "id", "why"}`` when a match of the member starts (their challenge was
accepted, the queue paired them, a rematch: the ``user:{id}`` channel, as the lobby hears it). Anonymous
visitors are closed at once (4401). The client sends nothing (anything it sends is ignored; a flood of it is
closed with 1008, as on every socket).

It only reads: the member's active matches are listed once (one query) and then followed on their own
``match:{id}`` channels, each change answered from the service's cache (``MatchService.fresh`` skips the
database when the cache has the change). Nothing is added to the act path. A match that starts without a
``user:{id}`` notice (an accepted invite) is found by a re-list every :data:`RELIST_SECONDS`. As on every
socket (issue 31), a database outage closes it with 1013 (web/outage.py) and a send after the close is
dropped quietly (web/wssend.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Annotated, Any

from fastapi import APIRouter, Depends, WebSocket
from starlette.websockets import WebSocketDisconnect

from duelclub.bus import Subscription, match_channel
from duelclub.play.errors import PlayError
from duelclub.play.notify import user_channel
from duelclub.play.service import MatchService
from duelclub.store.matches import ACTIVE
from duelclub.web import wssend
from duelclub.web.deps import OptionalUser, get_service
from duelclub.web.wsbase import NOT_AUTHENTICATED, GuardedSocket, accept

log = logging.getLogger(__name__)
router = APIRouter()
RELIST_SECONDS = 30.0
"""How often the member's active matches are listed again (a match may start without a notice to them)."""


class TurnWatch(GuardedSocket):
    """One member's open ``/ws/turns``: the matches followed and the ones waiting for the member's move. The
    client sends nothing: what it sends passes the guard (:class:`GuardedSocket`; a flood is closed with
    1008) and is ignored."""

    def __init__(self, ws: WebSocket, service: MatchService, user_id: int) -> None:
        super().__init__(ws)
        self.service, self.user_id = service, user_id
        self.subs: dict[str, Subscription] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.waiting: set[str] = set()
        self.sent: tuple[str, ...] | None = None
        self._lock = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> None:
        """Send ``message``; after the socket closed, nothing (web/wssend.py)."""
        async with self._lock:
            await wssend.send_text(self.ws, json.dumps(message, separators=(",", ":")))

    async def relist(self) -> None:
        """Follow every active match of the member (one query) and send the count if it changed."""
        rows = await self.service.my_matches(self.user_id)
        for row in rows:
            if row.status == ACTIVE and row.id not in self.subs:
                await self.follow(row.id)
        for row in rows:
            if row.status == ACTIVE and row.seat is not None:
                self._mark(row.id, row.seat in (row.to_move or []))
        await self.report()

    async def follow(self, match_id: str) -> None:
        sub = await self.service.bus.subscribe(match_channel(match_id))
        self.subs[match_id] = sub
        self.tasks[match_id] = asyncio.create_task(self._pump(match_id, sub), name=f"turns:{match_id}")

    async def _pump(self, match_id: str, sub: Subscription) -> None:
        async for message in sub:
            sub.drain()
            try:
                live = await self.service.fresh(match_id, message if "seq" in message else None)
            except PlayError:
                continue
            seat = live.seat_of(self.user_id)
            active = live.status == ACTIVE
            self._mark(match_id, active and seat is not None and seat in live.to_move())
            await self.report()
            if not active:
                await self.unfollow(match_id, cancel=False)
                return

    def _mark(self, match_id: str, waits: bool) -> None:
        if waits:
            self.waiting.add(match_id)
        else:
            self.waiting.discard(match_id)

    async def report(self) -> None:
        ids = tuple(sorted(self.waiting))
        if ids != self.sent:
            self.sent = ids
            await self.send({"type": "turns", "count": len(ids), "ids": list(ids)})

    async def unfollow(self, match_id: str, *, cancel: bool = True) -> None:
        sub = self.subs.pop(match_id, None)
        task = self.tasks.pop(match_id, None)
        if task is not None and cancel:
            task.cancel()
        if sub is not None:
            with contextlib.suppress(Exception):
                await sub.close()

    async def pump_user(self, sub: Subscription) -> None:
        """A new match of the member: follow it and pass the notice on (the page may notify)."""
        async for message in sub:
            if message.get("type") == "match" and message.get("id"):
                await self.send({"type": "match", "id": message["id"], "why": message.get("why")})
                await self.relist()

    async def every_while(self) -> None:
        while True:
            await asyncio.sleep(RELIST_SECONDS)
            await self.relist()

    async def unfollow_all(self) -> None:
        for match_id in list(self.subs):
            await self.unfollow(match_id)


@router.websocket("/ws/turns")
async def turns_socket(
    ws: WebSocket, user: OptionalUser, service: Annotated[MatchService, Depends(get_service)]
) -> None:
    """The member's «Ваш ход» count (see the module docstring)."""
    if not await accept(ws):
        return
    if user is None:
        await wssend.close(ws, NOT_AUTHENTICATED)
        return
    watch = TurnWatch(ws, service, user.id)
    mine = await service.bus.subscribe(user_channel(user.id))
    tasks: list[asyncio.Task[None]] = []
    present = getattr(ws.app.state, "member_presence", None)  # no turn notices while a page is open
    try:
        if present is not None:
            await present.connected(user.id)
        await watch.relist()
        tasks = [
            asyncio.create_task(watch.pump_user(mine), name="turns:user"),
            asyncio.create_task(watch.every_while(), name="turns:relist"),
        ]
        await watch.read_loop()
    except (WebSocketDisconnect, OSError, RuntimeError):  # the page went away
        pass
    finally:
        if present is not None:
            present.disconnected(user.id)
        for task in tasks:
            task.cancel()
        await mine.close()
        await watch.unfollow_all()
