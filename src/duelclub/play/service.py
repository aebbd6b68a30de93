"""The match service: the one writer of matches, as the rest of the site sees it (DESIGN.md §Layers,
§Persistence). :class:`MatchService` is a facade over the path of an action:

- play/routing.py — where a write runs: the match's owner (lease, forwarding; issue 12 §3);
- play/commit.py — the write itself: under the match's lock, parse, apply on a copy, append the row (ending
  and rating the match in the same transaction), commit to the cache; the clock's timeouts and aborts;
- play/publish.py — after it: the players' pushes on the bus, the bot driver's look, the lease released;
- play/cache.py — the live matches, replayed from the database, that the writes and the reads use.

A player's action from the socket to the store and back: ``act_seq`` → ``Router.act`` (here or on the
owner) → ``MatchWriter.act`` → ``ChangePublisher.changed``, each module once. The reads answer from the
cache (state, summary, log, replay) or the database (lists: play/listing.py); the lobby modules see the
service through ``LobbyPort`` (play/port.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from datetime import datetime
from functools import partial
from typing import Any

from sqlalchemy.orm import Session

from duelclub.bus import Bus, Message
from duelclub.games.contract import Outcome, PlatformReason, Seat
from duelclub.play import endings, listing, views
from duelclub.play.bots import BotDriver, BotSource
from duelclub.play.cache import MatchCache
from duelclub.play.clock import SWEEP_SECONDS, ClockSweeper
from duelclub.play.commit import MatchWriter
from duelclub.play.errors import PlayError
from duelclub.play.live import JSON, AnyGame, LiveMatch
from duelclub.play.metrics import PlayMetrics
from duelclub.play.ownership import Leases, LocalLeases
from duelclub.play.publish import ChangePublisher
from duelclub.play.routing import Router
from duelclub.play.schemas import MatchListItem, MatchLog, MatchSummary, ReplayStep, StatePayload
from duelclub.play.threads import in_thread, use_threads
from duelclub.ratings.rules import RatingRules
from duelclub.store.db import Database
from duelclub.store.matches import ACTIVE, ENDED, OPEN, Finish, MatchRecord
from duelclub.store.models import utcnow

__all__ = ["MatchService", "in_thread", "use_threads"]


class MatchService:
    """Creates matches, applies actions, answers reads; one per process (``app.state.service``).

    ``games`` maps slugs to game objects; ``bot_factory`` is where bots think (play/bots.py): a ``BotWorkers``
    (bot worker processes), a ``(slug, level) -> bot`` factory (tests only: an in-process worker), or None (no
    bot matches). ``now`` is the service's clock (aware UTC; tests set a fake one, also after construction).
    """

    def __init__(
        self,
        db: Database,
        bus: Bus,
        games: Mapping[str, AnyGame],
        bot_factory: BotSource | None = None,
        *,
        now: Callable[[], datetime] = utcnow,
        abandon_grace_seconds: float = 60.0,
        tournament_grace_seconds: float | None = None,
        leases: Leases | None = None,
        rating_rules: RatingRules | None = None,
        metrics: PlayMetrics | None = None,
    ) -> None:
        self.db = db
        self.rating_rules = rating_rules or RatingRules()
        self.metrics = metrics or PlayMetrics()
        self.bus = bus
        self.leases: Leases = leases or LocalLeases()
        self.games = dict(games)
        self.abandon_grace_seconds = abandon_grace_seconds
        self.cache = MatchCache(db, self.game, tournament_grace_seconds=tournament_grace_seconds)
        self.bots = BotDriver(
            db,
            self.games.__getitem__,
            act=partial(self.apply_as, source="bot"),
            look=self.cache.get_live,
            bots=bot_factory,
        )
        self.publisher = ChangePublisher(bus, self.bots, self.leases)
        self.writer = MatchWriter(
            db,
            self.cache,
            self.publisher,
            self.leases,
            now=now,
            rating_rules=self.rating_rules,
            metrics=self.metrics,
        )
        self.router = Router(bus, self.leases, self.writer)
        self.forwarder = self.router.forwarder
        self._background: list[Any] = []

    @property
    def now(self) -> Callable[[], datetime]:
        """The service's clock: ``now()`` is the current time (aware UTC)."""
        return self.writer.now

    @now.setter
    def now(self, now: Callable[[], datetime]) -> None:
        self.writer.now = now

    # -- lifecycle ---------------------------------------------------------------------------
    def add_background(self, worker: Any) -> None:
        """Register a background worker (``start()``/``stop()`` coroutines: the clock sweeper, the
        matchmaker, presence heartbeats) started and stopped with the service."""
        self._background.append(worker)

    async def start(self) -> None:
        """Resume the bots of active matches that are due (after a restart); start the background workers
        (the clock sweeper picks up matches whose deadline passed while no worker ran)."""
        await self.leases.start()
        await self.writer.start()
        await self.forwarder.start()
        await self.bots.resume()
        for worker in self._background:
            await worker.start()

    async def stop(self) -> None:
        for worker in reversed(self._background):
            await worker.stop()
        await self.bots.stop()
        await self.forwarder.stop()
        await self.writer.stop()
        await self.leases.stop()

    def clock_sweeper(self, *, interval: float = SWEEP_SECONDS) -> ClockSweeper:
        """The background worker that applies the timeouts of this service's overdue matches (register it
        with :meth:`add_background`); it gets :meth:`run_clock` and ``now``, not the service."""
        return ClockSweeper(self.run_clock, self.now, self.db, interval=interval, rearm=self.writer.rearm)

    # -- what the lobby modules use (play/port.py: LobbyPort) --------------------------------------
    def session(self) -> AbstractContextManager[Session]:
        """A database session, committed on a clean exit (blocking: run it in :func:`in_thread`)."""
        return self.db.session()

    async def publish(self, channel: str, message: Message) -> None:
        """Publish ``message`` on the bus channel ``channel`` (every worker hears it)."""
        await self.bus.publish(channel, message)

    @property
    def bots_available(self) -> bool:
        """Whether this service can play bot seats (it was given bots)."""
        return self.bots.available

    def opened(self, live: LiveMatch) -> None:
        """A match just created by this worker: into the cache, and to the bot driver if a bot is due."""
        self.cache.remember(live)
        self.bots.poke(live)

    def game(self, slug: str) -> AnyGame:
        """The game ``slug``; PlayError 422 ``unknown_game`` otherwise."""
        game = self.games.get(slug)
        if game is None:
            raise PlayError(422, "unknown_game", f"no game {slug!r}")
        return game

    async def get_live(self, match_id: str) -> LiveMatch:
        """The cached match, loaded and replayed from the database on first use (404 if unknown)."""
        return await self.cache.get_live(match_id)

    async def catch_up(self, live: LiveMatch) -> None:
        """Bring ``live`` up to the database (rows appended by other workers). Call under ``live.lock``."""
        await self.cache.catch_up(live)

    async def fresh(self, match_id: str, known: Message | None = None) -> LiveMatch:
        """The match caught up with the database; skips the query when ``known`` (a bus message) shows
        the cache already has that change."""
        return await self.cache.fresh(match_id, known)

    def seated_active(
        self, match_id: str, user_id: int
    ) -> AbstractAsyncContextManager[tuple[LiveMatch, Seat]]:
        """``async with service.seated_active(id, user) as (live, seat):`` — the caller's seat in an active
        match, under its lock and caught up with the database (for a player's own way to end it: abort,
        claim). Raises PlayError ``match_not_found`` (404), ``not_your_seat`` (403), ``match_not_active``
        (409)."""
        return self.cache.seated_active(match_id, user_id)

    async def changed(self, live: LiveMatch, *, since: int | None = None) -> None:
        """After a committed change: every worker hears it, with the players' pushes built here once, and
        the bot driver looks (play/publish.py ``ChangePublisher.changed``: ``since`` is the seq the pushes'
        events start after; default the last action's, ``seq - 1``)."""
        await self.publisher.changed(live, since=since)

    def end_if_at(self, match: MatchRecord, finish: Finish, seq: int) -> bool:
        """End the active ``match`` as ``finish`` says if it is still at ``seq`` (and rate it when it counts),
        in one transaction; False (nothing written) if it ended or moved on meanwhile. The guarded UPDATE
        locks the row first, so a move stored by another worker meanwhile is seen. Blocking: run in a
        thread."""
        return self.writer.end_if_at(match, finish, seq)

    def result_json(self, live: LiveMatch, outcome: Outcome) -> JSON:
        """``Outcome.to_json()`` plus the seats' names (``bot:<level>`` for bots)."""
        return endings.result_of(live, outcome)

    # -- actions (play/routing.py → play/commit.py → play/publish.py) ------------------------------
    async def act(self, match_id: str, user_id: int, client_id: str, seq: int, action: JSON) -> StatePayload:
        """A player's action (``POST /api/matches/{id}/actions``): the player's new state, with the
        action's events. As :meth:`act_seq` otherwise."""
        payload = await self.router.act(match_id, user_id, client_id, seq, action, payload=True)
        return payload if isinstance(payload, StatePayload) else StatePayload.model_validate(payload)

    async def act_seq(self, match_id: str, user_id: int, client_id: str, seq: int, action: JSON) -> int:
        """A player's action (WebSocket ``act``); returns its seq. The new state reaches the socket as the
        change's push, so no view is built here (issue 12 §2: each seat's view once per change).

        ``seq`` is the seq of the state the player saw; the action becomes ``seq + 1``. The hot path is one
        transaction (issue 12 §2): the action is validated on the cached state and stored with the
        match-row update, with no read first — the (match_id, seq) key refuses it if another writer got
        there first, and only then is the cache caught up (so a stale cache costs one read, never a wrong
        write). A resent ``client_id`` returns the original result without applying anything. Raises
        PlayError: ``match_not_found``, ``not_your_seat``, ``match_not_active``, ``stale_seq`` (never for
        ``{"kind": "resign"}``, legal in every state of an active match), ``clock_expired``, or the engine's
        code (``malformed_action``, ``not_your_turn``, …).
        """
        return int(await self.router.act(match_id, user_id, client_id, seq, action, payload=False))

    async def apply_as(
        self, match_id: str, seat: Seat, action: JSON, *, source: str, expected_seq: int
    ) -> bool:
        """Apply an action for ``seat`` on behalf of a bot or the clock, if the match is still at
        ``expected_seq`` and active; on the match's owner (play/routing.py). False when the match moved on
        (the caller looks again); PlayError if the engine rejects the action."""
        return await self.router.apply_as(match_id, seat, action, source=source, expected_seq=expected_seq)

    async def run_clock(self, match_id: str) -> bool:
        """If the match's move clock has run out, apply ``timeout_action`` for the seat to move (source
        ``clock``), or abort the match when that seat's player has not moved yet (play/commit.py); True if
        this call stored it. Safe to call from several workers at once: the (match_id, seq) key lets one of
        them store it, the others find the deadline moved. A match owned by another worker is left to it
        (play/routing.py)."""
        return await self.router.run_clock(match_id)

    # -- reads -------------------------------------------------------------------------------
    async def state(self, match_id: str, user_id: int | None, since: int | None) -> StatePayload:
        """What the caller sees (their seat, or the spectator view) with the events after ``since``."""
        live = await self.fresh(match_id)
        return views.state_payload(live, live.seat_of(user_id), since)

    async def summary(self, match_id: str) -> MatchSummary:
        return views.summary(await self.fresh(match_id))

    async def match_log(self, match_id: str, user_id: int, is_admin: bool) -> MatchLog:
        """The full log, once the match has ended, for its players and admins.

        Raises PlayError ``match_not_found``, ``not_your_match`` (403), ``match_not_finished`` (409)."""
        live = await self.fresh(match_id)
        if not is_admin and live.seat_of(user_id) is None:
            raise PlayError(403, "not_your_match", "only the players and admins may read this log")
        if live.status not in ENDED:
            raise PlayError(409, "match_not_finished", "the log is published when the match ends")
        return await in_thread(views.match_log, live)

    async def replay_step(self, match_id: str, seq: int) -> ReplayStep:
        """The full view after the first ``seq`` actions of an ended match, rebuilt by replay (admins'
        step-by-step replay, DESIGN.md §Web — Admin). Never for a live match: its full view would show what
        the server seed hides (rules/fairness.md §Values).

        Raises PlayError ``match_not_found`` (404), ``match_not_finished`` (409; also for a match aborted
        before it was dealt), ``bad_seq`` (422 unless ``0 <= seq <=`` the number of actions).
        """
        live = await self.fresh(match_id)
        if live.status not in ENDED or live.state is None:
            raise PlayError(409, "match_not_finished", "replays exist only for ended, dealt matches")
        if not 0 <= seq <= live.seq:
            raise PlayError(422, "bad_seq", f"seq must be between 0 and {live.seq}")
        state = await in_thread(live.state_at, seq)
        return views.replay_step(live, state, seq)

    async def my_matches(self, user_id: int, limit: int = 100) -> list[MatchListItem]:
        """The user's matches, newest first; active ones carry ``to_move`` (from the cache, or a replay)."""
        rows = await self._listed({"user_id": user_id, "limit": limit}, user_id)
        for row in rows:
            if row.status == ACTIVE:
                row.to_move = sorted((await self.fresh(row.id)).to_move())
        return rows

    async def admin_matches(
        self, *, status: str | None, game: str | None, username: str | None, limit: int = 200
    ) -> list[MatchListItem]:
        """All matches filtered by status, game and player name (an unknown name matches nothing)."""
        return await self._listed(
            {"status": status, "game": game, "username": username, "limit": limit}, None
        )

    async def _listed(self, filters: dict[str, Any], viewer: int | None) -> list[MatchListItem]:
        """play/listing.py ``match_list`` in a worker thread."""
        args = (self.db, self.games, self.rating_rules, self.now, filters, viewer)
        return await in_thread(listing.match_list, *args)

    # -- admin -------------------------------------------------------------------------------
    async def abort(self, match_id: str) -> MatchSummary:
        """End an open or active match as aborted (result reason ``aborted``, no winner); the server seed
        is then published. Raises PlayError ``match_not_found``, ``match_not_active``."""
        return await self.end_unplayed(
            match_id, "aborted", from_status=(OPEN, ACTIVE), conflict="match_not_active"
        )

    async def end_unplayed(
        self,
        match_id: str,
        reason: PlatformReason,
        *,
        from_status: tuple[str, ...],
        conflict: str,
        check: Callable[[LiveMatch], None] | None = None,
    ) -> MatchSummary:
        """End a match in ``from_status`` as aborted with result reason ``reason`` and no winner (admin abort,
        a cancelled invite). ``check(live)`` may raise first (who may do it); a match in another status is
        PlayError 409 ``conflict``; ``match_not_found`` if unknown. Races with a move or an acceptance are
        settled by the guarded UPDATE in ``repo.end_match``."""
        return await self.writer.end_unplayed(
            match_id, reason, from_status=from_status, conflict=conflict, check=check
        )
