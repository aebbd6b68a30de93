"""Whether a member has a page of the site open, from any worker (issue 28 §3: a turn notice is only for a
member with no open socket).

Every page of a logged-in member opens ``/ws/turns`` (web/turns.py, the «Ваш ход» badge). Each worker
counts those sockets per member (:class:`MemberPresence`): the first one of a member on this worker
writes ``member_presence.seen_at`` (store/notices.py; not again within a heartbeat of the last write, so
moving from page to page writes nothing more), a heartbeat every ``HEARTBEAT_SECONDS`` keeps every
member with a socket here seen (one transaction per worker per beat for all of them), and nothing is
written when they close: a member not seen for ``OFFLINE_AFTER_SECONDS`` has no socket open anywhere.
A match socket counts too, through the match's own presence (play/presence.py, ``match_presence``).
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timedelta

from duelclub.aio import BackgroundLoop
from duelclub.play.port import LobbyPort
from duelclub.play.presence import HEARTBEAT_SECONDS
from duelclub.play.threads import in_thread
from duelclub.store import notices
from duelclub.store.health import is_outage

log = logging.getLogger(__name__)


class MemberPresence:
    """This worker's site sockets per member and their heartbeat; register it with
    ``MatchService.add_background``."""

    def __init__(self, service: LobbyPort, *, heartbeat: float = HEARTBEAT_SECONDS) -> None:
        self._service = service
        self._sockets: Counter[int] = Counter()
        self._written: dict[int, datetime] = {}
        """member → when this worker last wrote them seen (connect or heartbeat)."""
        self._heartbeat = heartbeat
        self._loop = BackgroundLoop(
            "member-presence", heartbeat, self.beat, first_delay=heartbeat, logger=log
        )

    async def start(self) -> None:
        await self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    def online_here(self, user_id: int) -> bool:
        """Whether the member has a site socket on this worker."""
        return self._sockets[user_id] > 0

    async def connected(self, user_id: int) -> None:
        """A site socket of the member opened on this worker: the first one writes them seen, unless this
        worker did within a heartbeat (a page change closes one socket and opens the next: the heartbeat
        keeps them seen, so a page view costs no write)."""
        self._sockets[user_id] += 1
        if self._sockets[user_id] > 1:
            return
        now = self._service.now()
        last = self._written.get(user_id)
        if last is not None and (now - last).total_seconds() < self._heartbeat:
            return
        self._written[user_id] = now
        await in_thread(self._write, [user_id], True)

    def disconnected(self, user_id: int) -> None:
        """A site socket of the member closed on this worker."""
        self._sockets[user_id] -= 1
        if self._sockets[user_id] <= 0:
            del self._sockets[user_id]

    def _write(self, user_ids: list[int], first: bool) -> None:
        now = self._service.now()
        with self._service.session() as s:
            if first:
                notices.seen(s, user_ids[0], now)
            else:
                notices.seen_all(s, user_ids, now)

    async def beat(self) -> None:
        """One heartbeat: every member with a site socket here is seen now, in one transaction."""
        now = self._service.now()
        horizon = now - timedelta(seconds=self._heartbeat)
        self._written = {m: t for m, t in self._written.items() if t > horizon}
        members = list(self._sockets)
        if not members:
            return
        self._written.update(dict.fromkeys(members, now))
        try:
            await in_thread(self._write, members, False)
        except Exception as exc:
            if not is_outage(exc):
                log.exception("member presence heartbeat failed (%d members)", len(members))
