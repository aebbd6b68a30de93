"""The turn notices' sweep (issue 28 §3, §4): who is owed a notice, claimed once across workers.

Every worker runs one :class:`NoticeSweeper` (every ``interval`` seconds). A pass:

1. **Turn notices** — the seats of active matches between members whose member wants them, has had no
   socket open (on the site: play/member_presence.py; on the match: play/presence.py) for
   ``after_seconds`` and whose turn has waited as long (store/notices.py ``waiting_seats``); the rules say
   whether the seat is to move (the cached match, replayed if needed). The key is the match's seq: one
   notice per waiting position, however often the sweep looks (a member who acts and stays to move, then
   leaves, is owed a new one once that wait is as long again).
2. **Low-time reminders** — correspondence clocks (a day or more per move) with a tenth of the clock or
   less left, for a member to move with no socket open: one per clock run (the key is the match's seq).
3. **Daily digests** — from ``digest_hour`` (UTC) on, members who chose ``digest`` and have no socket open
   get one mail listing every match waiting for their move (if none waits, the day is marked done).

Each notice is claimed (store/notices.py ``claim``: a unique row per member, kind, match and turn) and
handed to the channels (notify/dispatch.py) in one transaction: two workers sweeping at once, or one
sweeping again, claim it once. ``on_written`` (the mail sender's ``wake``) runs after a pass that wrote
any.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy.orm import Session

from duelclub.aio import BackgroundLoop
from duelclub.notify.compose import mail_lang
from duelclub.notify.dispatch import DigestNotice, Dispatcher, Member, Notice, TurnNotice, WaitingMatch
from duelclub.play.errors import PlayError
from duelclub.play.port import LobbyPort
from duelclub.play.presence import OFFLINE_AFTER_SECONDS
from duelclub.play.threads import in_thread
from duelclub.store import notices as repo
from duelclub.store import users
from duelclub.store.matches import ACTIVE
from duelclub.store.notices import SeatRow

log = logging.getLogger(__name__)
NOTIFY_AFTER_SECONDS = 6 * 3600
LOW_TIME_FRACTION = 0.1
"""Low-time reminders go out when a tenth of the move clock is left (issue 28 §4)."""


@dataclass(frozen=True, slots=True)
class _Due:
    kind: Literal["turn", "low_time"]
    row: SeatRow
    owed: bool
    """False: the seat is not to move at that seq (its claim settles the row, with no notice)."""


class NoticeSweeper:
    """Finds the notices owed and dispatches each once (module docstring)."""

    def __init__(
        self,
        service: LobbyPort,
        dispatcher: Dispatcher,
        *,
        public_url: str,
        after_seconds: float = NOTIFY_AFTER_SECONDS,
        digest_hour: int = 8,
        interval: float = 60.0,
        on_written: Callable[[], None] | None = None,
    ) -> None:
        self._service = service
        self.dispatcher = dispatcher
        self.public_url = public_url
        self.after_seconds = after_seconds
        self.digest_hour = digest_hour
        self.on_written = on_written
        self._loop = BackgroundLoop("notices", interval, self._pass, first_delay=interval, logger=log)

    async def start(self) -> None:
        await self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    async def _pass(self) -> None:
        await self.sweep()

    async def sweep(self) -> int:
        """One pass; how many notices this worker claimed (and handed to the channels)."""
        now = self._service.now()
        written = await self._turns(now) + await self._digests(now)
        if written and self.on_written is not None:
            self.on_written()
        return written

    # -- turn notices and low-time reminders -------------------------------------------------------
    async def _turns(self, now: datetime) -> int:
        away = now - timedelta(seconds=OFFLINE_AFTER_SECONDS)
        quiet = min(away, now - timedelta(seconds=self.after_seconds))
        due: list[_Due] = []
        for row in await in_thread(self._read, "turn", quiet, now):
            owed = await self._to_move(row)
            if owed is not None:
                due.append(_Due("turn", row, owed))
        for row in await in_thread(self._read, "low_time", away, now):
            left = row.deadline_at - now if row.deadline_at is not None else None
            clock = timedelta(seconds=(row.move_seconds or 0) * LOW_TIME_FRACTION)
            if left is not None and left <= clock:
                owed = await self._to_move(row)
                if owed is not None:
                    due.append(_Due("low_time", row, owed))
        return await in_thread(self._write, due, now) if due else 0

    def _read(self, kind: Literal["turn", "low_time"], seen_after: datetime, now: datetime) -> list[SeatRow]:
        with self._service.session() as s:
            if kind == "turn":
                since = now - timedelta(seconds=self.after_seconds)
                return repo.waiting_seats(s, "turn", seen_after, since_before=since)
            return repo.waiting_seats(s, "low_time", seen_after, low_time_at=now)

    async def _to_move(self, row: SeatRow) -> bool | None:
        """Whether the rules say ``row``'s seat is to move at the seq the row was read at; None when the
        match has moved on or ended since (the next pass looks again)."""
        try:
            live = await self._service.fresh(row.match_id, {"seq": row.seq, "status": ACTIVE})
        except PlayError:
            return None
        if live.status != ACTIVE or live.seq != row.seq:
            return None
        return row.seat in live.to_move()

    def _write(self, due: list[_Due], now: datetime) -> int:
        """Claim each notice; hand the owed ones to the channels. A seat not to move at that seq never will
        be (the position is fixed), so its claim is written with no notice: it is settled, and the
        candidate query stops returning it (no waiting turn is starved by others)."""
        written = 0
        with self._service.session() as s:
            for item in due:
                r = item.row
                if not repo.claim(s, r.user_id, item.kind, r.match_id, r.seq, now) or not item.owed:
                    continue
                member = _member(s, r.user_id)
                if member is None:
                    continue
                match = self._waiting(s, r.match_id, r.game, r.opponent_id, r.since)
                deadline = r.deadline_at if item.kind == "low_time" else None
                self._dispatch(s, TurnNotice(item.kind, member, match, r.seq, deadline), now)
                written += 1
        return written

    def _dispatch(self, s: Session, notice: Notice, now: datetime) -> None:
        self.dispatcher(s, notice, now)

    def _waiting(
        self, s: Session, match_id: str, game: str, opponent_id: int, since: datetime
    ) -> WaitingMatch:
        name = users.usernames(s, {opponent_id}).get(opponent_id, "?")
        return WaitingMatch(match_id, game, name, since, f"{self.public_url}/matches/{match_id}")

    # -- daily digests ----------------------------------------------------------------------------
    async def _digests(self, now: datetime) -> int:
        if now.hour < self.digest_hour:
            return 0
        day = now.date()
        away = now - timedelta(seconds=OFFLINE_AFTER_SECONDS)
        written = 0
        for user_id in await in_thread(self._digest_members, day.toordinal(), away):
            rows = await in_thread(self._active, user_id)
            waiting = [m for m in rows if await self._waits(m)]
            written += await in_thread(self._write_digest, user_id, waiting, now)
        return written

    def _digest_members(self, day: int, away: datetime) -> list[int]:
        with self._service.session() as s:
            return repo.digest_members(s, day, away)

    def _active(self, user_id: int) -> list[repo.ActiveMatch]:
        with self._service.session() as s:
            return repo.active_matches(s, user_id)

    async def _waits(self, m: repo.ActiveMatch) -> bool:
        try:
            live = await self._service.fresh(m.match_id)
        except PlayError:
            return False
        return live.status == ACTIVE and m.seat in live.to_move()

    def _write_digest(self, user_id: int, waiting: list[repo.ActiveMatch], now: datetime) -> int:
        """Claim the day's digest; with matches waiting, hand it to the channels (1), else only mark the
        day done (0)."""
        with self._service.session() as s:
            if not repo.claim(s, user_id, "digest", "", now.date().toordinal(), now) or not waiting:
                return 0
            member = _member(s, user_id)
            if member is None:
                return 0
            matches = tuple(self._waiting(s, m.match_id, m.game, m.opponent_id, m.since) for m in waiting)
            self._dispatch(s, DigestNotice(member, now.date(), matches), now)
            return 1


def _member(s: Session, user_id: int) -> Member | None:
    user = users.get_user(s, user_id)
    if user is None or user.deleted_at is not None:
        return None
    mode = user.email_notices if user.email_notices in repo.EMAIL_MODES else "off"
    return Member(user.id, user.username, user.email, mode, bool(user.push_notices), mail_lang(user.lang))
