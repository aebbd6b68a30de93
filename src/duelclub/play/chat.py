"""The match chat (issue 16 §5): who may write where, what each reader sees, reports and admin mutes.

Two channels per match between members: ``players`` (the two seated members) and ``spectators`` (everybody
else who watches). A player never sees the spectators' channel while the match runs (no hints from the
gallery); once it has ended, both channels are open to everybody. A message is 1–200 characters (spaces at
the ends trimmed), at most :data:`RATE_COUNT` per member in :data:`RATE_WINDOW` seconds; a member an admin
muted cannot write until the mute ends. Matches with a bot have no chat.

Blocks (issue 28 §5, play/blocks.py): a member kept apart by a block from a player seated in the match (they
blocked the player, or the player blocked them) cannot write to its chat, on either channel; and the history
a member reads leaves out the messages of members they blocked (those written before the block).

The rate is counted by the ``limits`` library (a moving window) in the storage the app gives, the one its
login and registration limits use (web/ratelimit.py): Redis when ``REDIS_URL`` is set, so that every worker
shares the count (issue 31 §3: per-worker counts let 10 messages through two workers in 0.1 s), else this
process's memory. If Redis cannot be reached the message is let through (logged), as logins are.

Messages are stored with their match (store/chat.py) and announced on the match's bus channel as ``{"chat":
message}`` (``{"chat_hidden": id}`` when an admin hides one); each match socket passes on what its reader
may see (web/ws.py). Nothing here touches the game state or the rules engine, and nothing is added to the
act path: a chat message is its own request.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage, Storage
from limits.strategies import MovingWindowRateLimiter

from duelclub.bus import match_channel
from duelclub.bus.messages import ChatHidden, ChatPosted
from duelclub.play import blocks
from duelclub.play.errors import PlayError
from duelclub.play.live import LiveMatch
from duelclub.play.port import LobbyPort
from duelclub.play.threads import in_thread
from duelclub.store import blocks as blocks_repo
from duelclub.store import chat as repo
from duelclub.store.matches import ENDED

PLAYERS = "players"
SPECTATORS = "spectators"
MAX_LENGTH = 200
RATE_COUNT = 5
RATE_WINDOW = 10
"""At most :data:`RATE_COUNT` messages per member in this many seconds."""
RATE = RateLimitItemPerSecond(RATE_COUNT, RATE_WINDOW)
RATE_SCOPE = "chat"

log = logging.getLogger(__name__)


def message_json(m: repo.MessageRecord, *, admin: bool = False) -> dict[str, Any]:
    """A message as the API and the sockets send it (``hidden`` only in the admins' log)."""
    out: dict[str, Any] = {
        "id": m.id,
        "channel": m.channel,
        "user_id": m.user_id,
        "username": m.username,
        "text": m.text,
        "at": m.created_at.isoformat(),
    }
    if admin:
        out["hidden"] = m.hidden
    return out


def readable(live: LiveMatch, user_id: int | None) -> tuple[str, ...]:
    """The channels ``user_id`` may read in this match: a player only the players' one while it runs."""
    if live.status in ENDED or live.seat_of(user_id) is None:
        return (PLAYERS, SPECTATORS)
    return (PLAYERS,)


def sees(live: LiveMatch, seat: int | None, channel: str) -> bool:
    """Whether a reader at ``seat`` (None: not seated) sees a new message of ``channel`` now."""
    return channel == PLAYERS or seat is None or live.status in ENDED


def has_chat(live: LiveMatch) -> bool:
    """A match between two members has a chat; one with a bot has none."""
    return not any(live.record.seat_bots)


class Chat:
    """The chat of every match, for one process (``app.state.chat``). ``storage``: where the rate of each
    member is counted (shared by the workers when it is Redis); None = this process's memory."""

    def __init__(self, service: LobbyPort, storage: Storage | None = None) -> None:
        self.service = service
        self._rate = MovingWindowRateLimiter(storage if storage is not None else MemoryStorage())

    async def history(self, match_id: str, user_id: int | None) -> list[dict[str, Any]]:
        """What ``user_id`` may read of the match's chat, in order (hidden messages left out)."""
        live = await self.service.fresh(match_id)
        if not has_chat(live):
            return []
        channels = readable(live, user_id)
        rows = await in_thread(self._read, match_id, channels, False)
        if user_id is not None and rows:
            shut = await in_thread(self._blocked_by, user_id)
            rows = [m for m in rows if m.user_id not in shut]
        return [message_json(m) for m in rows]

    def _blocked_by(self, user_id: int) -> set[int]:
        with self.service.session() as s:
            return {r.user_id for r in blocks_repo.blocked_by(s, user_id)}

    async def admin_log(self, match_id: str) -> list[dict[str, Any]]:
        """Every message of the match, hidden ones included and marked (the admins' match log)."""
        await self.service.get_live(match_id)
        rows = await in_thread(self._read, match_id, (PLAYERS, SPECTATORS), True)
        return [message_json(m, admin=True) for m in rows]

    def _read(self, match_id: str, channels: tuple[str, ...], with_hidden: bool) -> list[repo.MessageRecord]:
        with self.service.session() as s:
            return repo.messages(s, match_id, channels, with_hidden=with_hidden)

    async def post(self, match_id: str, user_id: int, text: str) -> dict[str, Any]:
        """Write ``text`` to the match's chat as ``user_id``: the players' channel for a seated member, the
        spectators' otherwise. Raises PlayError ``no_chat`` (409, a bot match or an undealt one),
        ``bad_message`` (422, empty or over 200 characters), ``chat_rate_limited`` (429), ``muted`` (403),
        ``you_blocked`` (409) / ``blocked_by_member`` (403: the author and a seated player are kept apart
        by a block, play/blocks.py)."""
        text = " ".join(text.split()) if text else ""
        if not text or len(text) > MAX_LENGTH:
            raise PlayError(422, "bad_message", f"a message has 1–{MAX_LENGTH} characters")
        live = await self.service.get_live(match_id)
        if not has_chat(live) or live.state is None:
            raise PlayError(409, "no_chat", "this match has no chat")
        await in_thread(self._count_message, user_id)
        channel = PLAYERS if live.seat_of(user_id) is not None else SPECTATORS
        now = self.service.now()
        seated = [u for u in live.record.seat_users if u is not None]
        message = await blocks.worded(lambda: self._store(match_id, user_id, channel, text, now, seated))
        data = message_json(message)
        await self.service.publish(match_channel(match_id), ChatPosted(type="chat", message=data))
        return data

    def _count_message(self, user_id: int) -> None:
        """Count a message of ``user_id`` (blocking: Redis I/O), or raise ``chat_rate_limited`` (429)."""
        try:
            allowed = self._rate.hit(RATE, RATE_SCOPE, str(user_id))
        except Exception:
            log.warning("chat rate limit storage failed; letting the message through", exc_info=True)
            return
        if not allowed:
            raise PlayError(429, "chat_rate_limited", "too many messages; wait a few seconds")

    def _store(
        self, match_id: str, user_id: int, channel: str, text: str, now: datetime, seated: list[int]
    ) -> repo.MessageRecord:
        with self.service.session() as s:
            until = repo.muted_until(s, user_id, now)
            if until is not None:
                raise PlayError(403, "muted", f"an admin muted you until {until.isoformat()}")
            for player in seated:
                blocks.refuse_if_apart(s, user_id, player, "chat")
            return repo.add_message(s, match_id, user_id, channel, text, now)

    async def report(self, message_id: int, reporter_id: int) -> bool:
        """A member reports a message they can see (not their own): it goes to the admins' queue. False if
        they had already reported it. PlayError ``message_not_found`` (404), ``own_message`` (409)."""
        message = await in_thread(self._get, message_id)
        if message is None or message.hidden:
            raise PlayError(404, "message_not_found", "no such message")
        live = await self.service.fresh(message.match_id)
        if message.channel not in readable(live, reporter_id):
            raise PlayError(404, "message_not_found", "no such message")
        if message.user_id == reporter_id:
            raise PlayError(409, "own_message", "you cannot report your own message")
        return await in_thread(self._report, message_id, reporter_id)

    def _get(self, message_id: int) -> repo.MessageRecord | None:
        with self.service.session() as s:
            return repo.get_message(s, message_id)

    def _report(self, message_id: int, reporter_id: int) -> bool:
        with self.service.session() as s:
            return repo.report(s, message_id, reporter_id, self.service.now())

    async def reports(self) -> list[dict[str, Any]]:
        """The admins' queue: open reports, oldest first, with the message and its match."""
        rows = await in_thread(self._reports)
        return [
            {
                "id": r.id,
                "message": message_json(r.message, admin=True),
                "match_id": r.message.match_id,
                "reporter": r.reporter,
                "reports": r.reports,
                "at": r.created_at.isoformat(),
            }
            for r in rows
        ]

    def _reports(self) -> list[repo.ReportRecord]:
        with self.service.session() as s:
            return repo.open_reports(s)

    async def settle(self, message_id: int, admin_id: int, *, hide: bool, mute_minutes: int) -> None:
        """An admin settles a reported message: hide it (every reader's page drops it at once) and/or mute
        its author for ``mute_minutes`` (0: no mute). PlayError ``message_not_found`` (404)."""
        message = await in_thread(self._get, message_id)
        if message is None:
            raise PlayError(404, "message_not_found", "no such message")
        now = self.service.now()
        await in_thread(self._settle, message, admin_id, hide, mute_minutes, now)
        if hide:
            await self.service.publish(
                match_channel(message.match_id), ChatHidden(type="chat_hidden", id=message_id)
            )

    def _settle(
        self, message: repo.MessageRecord, admin_id: int, hide: bool, minutes: int, now: datetime
    ) -> None:
        with self.service.session() as s:
            repo.settle(s, message.id, admin_id, hide=hide, at=now)
            if minutes > 0:
                repo.mute(s, message.user_id, now + timedelta(minutes=minutes), admin_id, now)
