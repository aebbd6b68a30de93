"""Ended sessions reach open sockets as news, not as a read per act (issue 12 §2, DESIGN.md §Real time).

A match socket used to look its session up in the database before every act and every 10 s before a push.
Now a session that ends (logout, «log out everywhere», a password change, a new login over an old cookie) is
announced instead: :meth:`SessionWatch.ended` flags this worker's sockets of that member at once (before the
HTTP answer goes out, so the member's next act on an open socket is checked) and publishes
``{"type": "session_end", "user": id, "origin": worker}`` on the :data:`SESSIONS_CHANNEL` bus channel so every
other worker flags its own. A flagged socket checks its session once (one indexed read) before its next act or
push, and at once in the background; if the session is gone it is told ``not_authenticated`` and closed with
4401. On a bus ``resync`` (Redis came back, news may be lost) every socket is flagged.

Usage: ``app.state.session_watch = SessionWatch(bus)``; ``await watch.start()``; sockets
``watch.add(user_id, sock)`` / ``watch.discard(user_id, sock)``; routes call ``watch.ended(user_id)`` from
their worker thread after their commit (``await watch.announce(user_id)`` from the event loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Protocol

import anyio.from_thread

from duelclub.aio import stop_task
from duelclub.bus import Bus, Subscription
from duelclub.bus.base import RESYNC_KIND
from duelclub.bus.messages import SessionEnded

log = logging.getLogger(__name__)
SESSIONS_CHANNEL = "sessions"


class Watched(Protocol):
    """A socket whose session may end: ``must_recheck`` is read before its next act or push."""

    must_recheck: bool

    async def recheck(self) -> None:
        """Check the session now; close the socket (4401) if it has ended."""
        ...


class SessionWatch:
    """This worker's open match sockets per member, and the bus subscription that flags them."""

    def __init__(self, bus: Bus) -> None:
        self._bus = bus
        self._origin = uuid.uuid4().hex
        self._sockets: dict[int, set[Watched]] = {}
        self._task: asyncio.Task[None] | None = None
        self._checks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        if self._task is None:
            sub = await self._bus.subscribe(SESSIONS_CHANNEL)
            self._task = asyncio.create_task(self._run(sub), name="session-watch")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await stop_task(task)
        for check in list(self._checks):
            check.cancel()

    def add(self, user_id: int, sock: Watched) -> None:
        self._sockets.setdefault(user_id, set()).add(sock)

    def discard(self, user_id: int, sock: Watched) -> None:
        socks = self._sockets.get(user_id)
        if socks is not None:
            socks.discard(sock)
            if not socks:
                del self._sockets[user_id]

    def ended(self, user_id: int) -> None:
        """A session of ``user_id`` has ended (call from a route's worker thread, after the commit): flag
        this worker's sockets of the member now and tell the other workers."""
        self._flag(user_id, check_now=False)
        with contextlib.suppress(Exception):  # the bus only carries news: never fail the logout
            anyio.from_thread.run(self._publish, user_id)

    async def announce(self, user_id: int) -> None:
        """:meth:`ended` for a caller on the event loop (an async route, after its commit)."""
        self._flag(user_id, check_now=False)
        with contextlib.suppress(Exception):
            await self._publish(user_id)

    async def _publish(self, user_id: int) -> None:
        self._flag(user_id, check_now=True)
        await self._bus.publish(
            SESSIONS_CHANNEL, SessionEnded(type="session_end", user=user_id, origin=self._origin)
        )

    def _flag(self, user_id: int, *, check_now: bool) -> None:
        for sock in list(self._sockets.get(user_id, ())):
            sock.must_recheck = True
            if check_now:
                self._check(sock)

    def _check(self, sock: Watched) -> None:
        task = asyncio.create_task(sock.recheck())
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def _run(self, sub: Subscription) -> None:
        try:
            async for message in sub:
                kind = message.get("type")
                if kind == RESYNC_KIND:
                    for user_id in list(self._sockets):
                        self._flag(user_id, check_now=True)
                    continue
                member = message.get("user")
                if (
                    kind == "session_end"
                    and isinstance(member, int)
                    and message.get("origin") != self._origin
                ):
                    self._flag(member, check_now=True)
        finally:
            await sub.close()
