"""The worker's live matches (DESIGN.md §Persistence: state lives in memory as a cache; after a restart, or on
another worker, it is rebuilt by replay).

:class:`MatchCache` holds one :class:`LiveMatch` per match, loaded and replayed from the database on first use
(at most :data:`CACHE_SIZE` ended ones are kept), and brings one up to the database when another worker may
have appended rows (:meth:`MatchCache.catch_up`, under the match's lock). It only reads: the one writer of a
match is play/commit.py.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any

from duelclub.bus import Message
from duelclub.games.contract import Seat
from duelclub.play.errors import PlayError, not_found
from duelclub.play.live import AnyGame, LiveMatch, build
from duelclub.play.threads import in_thread
from duelclub.store import matches as repo
from duelclub.store import tournaments, users
from duelclub.store.db import Database
from duelclub.store.matches import ACTIVE, ENDED, ActionRecord, MatchRecord

Names = tuple[str | None, str | None]
CACHE_SIZE = 2000
"""Ended matches beyond this many cached ones are dropped (they are rebuilt by replay when needed)."""
ENDED_KEPT = 200
"""At most this many ended matches stay cached, the most recently used (a rematch, a replay, the analysis
reuse them). An ended towers match of ~76 actions holds ~240 KB (state and log, events, last pushes): kept up
to CACHE_SIZE, a club evening's arena grew the worker by ~25 MB a minute (issue 26 benchmark, tracemalloc)."""


class MatchCache:
    """The live matches of this worker. ``game(slug)`` is the game of a stored match (PlayError 422
    ``unknown_game`` otherwise)."""

    def __init__(
        self, db: Database, game: Callable[[str], AnyGame], *, tournament_grace_seconds: float | None = None
    ) -> None:
        self.db = db
        self.game = game
        self.tournament_grace_seconds = tournament_grace_seconds
        """Set as :attr:`LiveMatch.first_move_seconds` of a loaded tournament match with a move clock."""
        self._cache: OrderedDict[str, LiveMatch] = OrderedDict()
        self._load_locks: dict[str, asyncio.Lock] = {}

    async def get_live(self, match_id: str) -> LiveMatch:
        """The cached match, loaded and replayed from the database on first use (404 if unknown)."""
        live = self._cache.get(match_id)
        if live is not None:
            self._cache.move_to_end(match_id)
            return live
        lock = self._load_locks.setdefault(match_id, asyncio.Lock())
        try:
            async with lock:
                live = self._cache.get(match_id)
                if live is None:
                    live = await in_thread(self._load, match_id)
                    self.remember(live)
        finally:
            self._load_locks.pop(match_id, None)
        return live

    def remember(self, live: LiveMatch) -> None:
        """Put ``live`` in the cache (a match just created or loaded), dropping the least recently used
        unlocked ended matches beyond :data:`ENDED_KEPT`, and beyond :data:`CACHE_SIZE` matches in all.
        One pass over the cache, on a match's creation or load only (never on an action)."""
        self._cache[live.id] = live
        ended = [m for m in self._cache.values() if m.status in ENDED and not m.lock.locked()]
        for old in ended[: max(0, len(ended) - ENDED_KEPT)]:
            del self._cache[old.id]
        if len(self._cache) > CACHE_SIZE:
            for old in list(self._cache.values())[: len(self._cache) - CACHE_SIZE]:
                if old.status in ENDED and not old.lock.locked():
                    del self._cache[old.id]

    # The actions are read before the row: without a snapshot (READ COMMITTED, SQLite statement by
    # statement) a write may land in between, and the row must never be older than the actions — an old
    # ``deadline_at`` next to a newer log would let the clock play twice for one deadline.
    def _load(self, match_id: str) -> LiveMatch:
        with self.db.read_session() as s:
            actions = repo.actions_after(s, match_id)
            record = repo.get_match(s, match_id)
            if record is None:
                raise not_found(match_id)
            names = _names(s, record)
            in_tournament = tournaments.has_match(s, match_id)
        live = build(record, self.game(record.game), names, actions)
        live.in_tournament = in_tournament
        grace = self.tournament_grace_seconds if in_tournament else None
        live.first_move_seconds = grace if record.move_seconds is not None else None
        return live

    def _read_since(
        self, match_id: str, seq: int, known: MatchRecord, names: Names
    ) -> tuple[MatchRecord, Names, list[ActionRecord]]:
        with self.db.read_session() as s:
            actions = repo.actions_after(s, match_id, seq)
            record = repo.get_match(s, match_id)
            if record is None:
                raise not_found(match_id)
            if record.seat_users != known.seat_users:
                names = _names(s, record)
            return record, names, actions

    async def catch_up(self, live: LiveMatch) -> None:
        """Bring ``live`` up to the database (rows appended by other workers). Call under ``live.lock``."""
        record, names, actions = await in_thread(self._read_since, live.id, live.seq, live.record, live.names)
        live.refresh(record, names)
        for action in actions:
            live.replay_stored(action)

    async def fresh(self, match_id: str, known: Message | None = None) -> LiveMatch:
        """The match caught up with the database; skips the query when ``known`` (a bus message) shows
        the cache already has that change."""
        live = await self.get_live(match_id)
        if known is not None and live.seq >= int(known.get("seq", 0)) and known.get("status") == live.status:
            return live
        async with live.lock:
            await self.catch_up(live)
        return live

    @contextlib.asynccontextmanager
    async def seated_active(self, match_id: str, user_id: int) -> AsyncIterator[tuple[LiveMatch, Seat]]:
        """``async with cache.seated_active(id, user) as (live, seat):`` — the caller's seat in an active
        match, under its lock and caught up with the database. Raises PlayError ``match_not_found`` (404),
        ``not_your_seat`` (403), ``match_not_active`` (409)."""
        live = await self.get_live(match_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise PlayError(403, "not_your_seat", "you do not play in this match")
        async with live.lock:
            await self.catch_up(live)
            if live.status != ACTIVE:
                raise PlayError(409, "match_not_active", f"the match is {live.status}")
            yield live, seat


def _names(s: Any, record: MatchRecord) -> Names:
    found = users.usernames(s, {u for u in record.seat_users if u is not None})
    a, b = record.seat_users
    return (found.get(a) if a is not None else None, found.get(b) if b is not None else None)
