"""The match service: the one writer of matches (DESIGN.md §Layers, §Persistence).

Every action — a player's (:meth:`MatchService.act`), a bot's or later the clock's
(:meth:`MatchService.apply_as`) — takes one path: under the match's asyncio lock, catch up from the database
(another worker may have appended rows), validate with the engine on a copy of the state, insert the
``match_actions`` row (and end the match in the same transaction), and only then swap the cached state,
publish ``{"seq": n, "status": s}`` on ``match:{id}`` and let the bot driver look at the match. Two writers
racing for one seq are settled by the (match_id, seq) primary key: the loser reloads; a player gets
``stale_seq``, a bot simply looks again.

The clock takes the same path (:meth:`MatchService.run_clock`, source ``clock``): when a match's
``deadline_at`` has passed, ``game.timeout_action`` is applied for the seat to move — unless that seat's
player has not made a first action of their own yet in a match between members: then the match is aborted
without a result (reason ``no_first_move``, issue 14 §2). A player's action that arrives after its deadline
runs the clock first and is then refused (``clock_expired``), so a last-second move and the timeout never both
count. ``now`` (a callable) is the service's clock; tests pass a fake one.

Ratings (issue 14 §2): the transaction that stores a rated match's final action also rates it
(``store.ratings.rate_match``: at most once per match, from the ratings held when it ended).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractContextManager
from datetime import datetime
from functools import partial
from typing import Any

from sqlalchemy.orm import Session

from duelclub.bus import Bus, Message, match_channel
from duelclub.bus.messages import Change
from duelclub.games.contract import IllegalAction, Outcome, PlatformReason, Seat
from duelclub.play import endings, rating_views, views
from duelclub.play.bots import BotDriver, BotSource
from duelclub.play.clock import ClockSweeper, is_overdue, next_deadline
from duelclub.play.errors import PlayError, not_found, stale
from duelclub.play.forward import Forwarder, NoAnswer
from duelclub.play.live import JSON, AnyGame, LiveMatch, build
from duelclub.play.metrics import PlayMetrics
from duelclub.play.ownership import Leases, LocalLeases
from duelclub.play.schemas import MatchListItem, MatchLog, MatchSummary, ReplayStep, StatePayload
from duelclub.play.threads import in_thread, use_threads
from duelclub.ratings.rules import RatingRules
from duelclub.store import matches as repo
from duelclub.store import ratings as rating_repo
from duelclub.store import users
from duelclub.store.db import Database
from duelclub.store.matches import ABORTED, ACTIVE, ENDED, FINISHED, OPEN, ActionRecord, Finish, MatchRecord
from duelclub.store.models import utcnow

log = logging.getLogger(__name__)
__all__ = ["MatchService", "in_thread", "use_threads"]
Names = tuple[str | None, str | None]
RESIGN_TRIES = 3
"""How often a resignation is tried again when another write took its seq (it is never stale)."""
CACHE_SIZE = 2000
"""Ended matches beyond this many cached ones are dropped (they are rebuilt by replay when needed)."""
NO_FIRST_MOVE: PlatformReason = "no_first_move"
"""Result reason of a match aborted because a player's clock ran out before their first action."""


class MatchService:
    """Creates matches, applies actions, answers reads; one per process (``app.state.service``).

    ``games`` maps slugs to game objects; ``bot_factory`` is where bots think (play/bots.py): a ``BotWorkers``
    (bot worker processes), a ``(slug, level) -> bot`` factory (tests only: an in-process worker), or None (no
    bot matches).
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
        leases: Leases | None = None,
        rating_rules: RatingRules | None = None,
        metrics: PlayMetrics | None = None,
    ) -> None:
        self.db = db
        self.rating_rules = rating_rules or RatingRules()
        self.metrics = metrics or PlayMetrics()
        self.bus = bus
        self.leases: Leases = leases or LocalLeases()
        self.forwarder = Forwarder(bus, self.leases.worker_id, self._serve_forwarded)
        self.games = dict(games)
        self.now = now
        self.abandon_grace_seconds = abandon_grace_seconds
        self.bots = BotDriver(
            db,
            self.games.__getitem__,
            act=partial(self.apply_as, source="bot"),
            look=self.get_live,
            bots=bot_factory,
        )
        self._cache: OrderedDict[str, LiveMatch] = OrderedDict()
        self._load_locks: dict[str, asyncio.Lock] = {}
        self._background: list[Any] = []
        self._releasing: set[asyncio.Task[None]] = set()

    # -- lifecycle ---------------------------------------------------------------------------
    def add_background(self, worker: Any) -> None:
        """Register a background worker (``start()``/``stop()`` coroutines: the clock sweeper, the
        matchmaker, presence heartbeats) started and stopped with the service."""
        self._background.append(worker)

    async def start(self) -> None:
        """Resume the bots of active matches that are due (after a restart); start the background workers
        (the clock sweeper picks up matches whose deadline passed while no worker ran)."""
        await self.leases.start()
        await self.forwarder.start()
        await self.bots.resume()
        for worker in self._background:
            await worker.start()

    async def stop(self) -> None:
        for worker in reversed(self._background):
            await worker.stop()
        await self.bots.stop()
        await self.forwarder.stop()
        await self.leases.stop()

    def clock_sweeper(self, *, interval: float = 1.0) -> ClockSweeper:
        """The background worker that applies the timeouts of this service's overdue matches (register it
        with :meth:`add_background`); it gets :meth:`run_clock` and ``now``, not the service."""
        return ClockSweeper(self.run_clock, self.now, self.db, interval=interval)

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
        self.remember(live)
        self.bots.poke(live)

    def game(self, slug: str) -> AnyGame:
        """The game ``slug``; PlayError 422 ``unknown_game`` otherwise."""
        game = self.games.get(slug)
        if game is None:
            raise PlayError(422, "unknown_game", f"no game {slug!r}")
        return game

    # -- the cache ---------------------------------------------------------------------------
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
        self._cache[live.id] = live
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
        return build(record, self.game(record.game), names, actions)

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

    @contextlib.asynccontextmanager
    async def seated_active(self, match_id: str, user_id: int) -> AsyncIterator[tuple[LiveMatch, Seat]]:
        """``async with service.seated_active(id, user) as (live, seat):`` — the caller's seat in an active
        match, under its lock and caught up with the database (for a player's own way to end it: abort,
        claim). Raises PlayError ``match_not_found`` (404), ``not_your_seat`` (403), ``match_not_active``
        (409)."""
        live = await self.get_live(match_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise PlayError(403, "not_your_seat", "you do not play in this match")
        async with live.lock:
            await self.catch_up(live)
            if live.status != ACTIVE:
                raise PlayError(409, "match_not_active", f"the match is {live.status}")
            yield live, seat

    async def fresh(self, match_id: str, known: Message | None = None) -> LiveMatch:
        """The match caught up with the database; skips the query when ``known`` (a bus message) shows
        the cache already has that change."""
        live = await self.get_live(match_id)
        if known is not None and live.seq >= int(known.get("seq", 0)) and known.get("status") == live.status:
            return live
        async with live.lock:
            await self.catch_up(live)
        return live

    async def changed(self, live: LiveMatch, *, since: int | None = None) -> None:
        """After a committed change: notify every worker, with the players' socket messages built here,
        once (issue 12 §3: pushes are computed by the match's owner), and let the bot driver look.

        The message is a ``change`` (bus/messages.py: ``seq``, ``status``, ``since``, ``push``, ``lang``?):
        ``push`` holds each seated member's ``state`` message with the events after ``since``
        (default: the last action's, ``seq - 1``; a change without an action, such as a start or an
        abort, passes ``since=seq``). A socket that last got ``since`` sends its seat's text as it is;
        any other socket reads the match itself."""
        since = max(live.seq - 1, 0) if since is None else since
        push = {
            str(seat): views.state_message(live, seat, since)
            for seat in (0, 1)
            if live.record.seat_users[seat] is not None and live.state is not None
        }
        message = Change(type="change", seq=live.seq, status=live.status, since=since, push=push)
        lang = views.push_lang(live)
        if lang:  # texts in this language only: a reader of another builds their own (web/ws.py)
            message["lang"] = lang
        await self.bus.publish(match_channel(live.id), message)
        self.bots.poke(live)
        if live.status in ENDED:  # off the hot path: the player's ack goes out first
            task = asyncio.create_task(self.leases.release(live.id))
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    # -- where a write runs: the owner (issue 12 §3) -----------------------------------------------
    async def _route(self, match_id: str, op: JSON) -> Any:
        """Run the write ``op`` on the match's owner: here when this worker owns it (or takes the free
        lease), else forwarded (play/forward.py); here too when nobody answers or Redis is unreachable —
        the (match_id, seq) key keeps that safe (play/ownership.py)."""
        owner = await self.leases.claim(match_id)
        if owner is not None and owner != self.leases.worker_id:
            try:
                return await self.forwarder.call(owner, op)
            except NoAnswer:
                self.leases.forget(match_id)
                log.warning("match %s: owner %s did not answer; writing here", match_id, owner)
        return await self.run_local(op)

    async def run_local(self, op: JSON) -> Any:
        """Run a write op on this worker: ``{"kind": "act", match, user, cid, seq, action, payload}``
        or ``{"kind": "apply_as", match, seat, action, source, expected_seq}``."""
        if op["kind"] == "act":
            return await self._act(
                op["match"], op["user"], op["cid"], op["seq"], op["action"], want_payload=op["payload"]
            )
        if op["kind"] == "apply_as":
            return await self._apply_as(
                op["match"], op["seat"], op["action"], source=op["source"], expected_seq=op["expected_seq"]
            )
        raise PlayError(422, "bad_request", f"unknown op {op.get('kind')!r}")

    async def _serve_forwarded(self, op: JSON) -> Any:
        return _encode(await self.run_local(op))

    # -- actions -----------------------------------------------------------------------------
    async def act(self, match_id: str, user_id: int, client_id: str, seq: int, action: JSON) -> StatePayload:
        """A player's action (``POST /api/matches/{id}/actions``): the player's new state, with the
        action's events. As :meth:`act_seq` otherwise."""
        op = {"kind": "act", "match": match_id, "user": user_id, "cid": client_id, "seq": seq}
        payload = await self._route(match_id, {**op, "action": action, "payload": True})
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
        op = {"kind": "act", "match": match_id, "user": user_id, "cid": client_id, "seq": seq}
        return int(await self._route(match_id, {**op, "action": action, "payload": False}))

    async def _act(
        self, match_id: str, user_id: int, client_id: str, seq: int, action: JSON, *, want_payload: bool
    ) -> StatePayload | int:
        started = time.perf_counter()
        live = await self.get_live(match_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise PlayError(403, "not_your_seat", "you do not play in this match")
        cid = f"{seat}:{client_id}"
        async with live.lock:
            if seq > live.seq or live.status != ACTIVE or self.leases.newly_owned(match_id):
                # The player saw a state this cache has not: another writer moved on (or ended the match),
                # or this worker has just taken the match over.
                await self.catch_up(live)
            if cid in live.client_ids:
                return await self._resent(live, seat, live.client_ids[cid], want_payload)
            _check_active(live)
            if is_overdue(live.record, self.now()):
                was_due = seat in live.to_move()
                applied = await self._timeout(live)
                if applied:
                    await self.changed(live)
                if was_due and (applied or _clock_played(live, seat)):
                    raise PlayError(409, "clock_expired", "your move time ran out; the clock has played")
                _check_active(live)
            # Resigning is legal in every state of an active match (DESIGN.md §Public JSON API), so it is
            # never refused as stale: a bot's or the opponent's move landing just before it changes nothing.
            resigning = action.get("kind") == "resign"
            if seq != live.seq and not resigning:
                raise stale(live.seq)
            for attempt in range(RESIGN_TRIES if resigning else 1):
                try:
                    await self._apply(live, seat, action, source="player", user_id=user_id, cid=cid)
                    break
                except (repo.SeqConflict, repo.MatchNotActive):
                    await self.catch_up(live)
                    if cid in live.client_ids:
                        return await self._resent(live, seat, live.client_ids[cid], want_payload)
                    _check_active(live)
                    if attempt + 1 >= (RESIGN_TRIES if resigning else 1):
                        raise stale(live.seq) from None
            payload = views.cached_payload(live, seat, seq) if want_payload else None
        self.metrics.acted(live.record.game, time.perf_counter() - started)
        await self.changed(live)
        return payload if payload is not None else live.seq

    async def apply_as(
        self, match_id: str, seat: Seat, action: JSON, *, source: str, expected_seq: int
    ) -> bool:
        """Apply an action for ``seat`` on behalf of a bot or the clock, if the match is still at
        ``expected_seq`` and active; on the match's owner (:meth:`_route`). False when the match moved on
        (the caller looks again); PlayError if the engine rejects the action."""
        op = {"kind": "apply_as", "match": match_id, "seat": seat, "action": action, "source": source}
        return bool(await self._route(match_id, {**op, "expected_seq": expected_seq}))

    async def _apply_as(
        self, match_id: str, seat: Seat, action: JSON, *, source: str, expected_seq: int
    ) -> bool:
        live = await self.get_live(match_id)
        async with live.lock:
            if expected_seq != live.seq or live.status != ACTIVE or self.leases.newly_owned(match_id):
                await self.catch_up(live)
            if live.status != ACTIVE or live.seq != expected_seq:
                return False
            try:
                await self._apply(live, seat, action, source=source, user_id=None, cid=None)
            except (repo.SeqConflict, repo.MatchNotActive):
                await self.catch_up(live)
                return False
        await self.changed(live)
        return True

    async def run_clock(self, match_id: str) -> bool:
        """If the match's move clock has run out, apply ``timeout_action`` for the seat to move (source
        ``clock``); True if a timeout was stored by this call. Safe to call from several workers at once:
        the (match_id, seq) key lets one of them store it, the others find the deadline moved. A match owned
        by another worker is left to it (its own sweeper runs it; if it died, its lease expires and then
        this worker takes the match)."""
        owner = await self.leases.claim(match_id)
        if owner is not None and owner != self.leases.worker_id:
            return False
        live = await self.get_live(match_id)
        async with live.lock:
            await self.catch_up(live)
            if live.status != ACTIVE or not is_overdue(live.record, self.now()):
                return False
            applied = await self._timeout(live)
        if applied:
            await self.changed(live)
        return applied

    async def _timeout(self, live: LiveMatch) -> bool:
        """The clock's move for the first seat to move (call under ``live.lock``, match overdue); an abort
        instead when that seat's player has not made their first action yet (issue 14 §2)."""
        to_move = sorted(live.to_move())
        if not to_move:
            return False
        seat = to_move[0]
        if live.between_members() and seat not in live.moved:
            return await self._abort_unopened(live, seat)
        raw = live.game.action_to_json(live.game.timeout_action(live.state, seat))
        try:
            await self._apply(live, seat, raw, source="clock", user_id=None, cid=None)
        except (repo.SeqConflict, repo.MatchNotActive):
            await self.catch_up(live)
            return False
        return True

    async def _apply(
        self, live: LiveMatch, seat: Seat, raw: JSON, *, source: str, user_id: int | None, cid: str | None
    ) -> None:
        """Validate on a copy, store the row (ending the match if it is over), then commit to the cache."""
        game = live.game
        try:
            action = game.parse_action(raw)
            if source != "clock" and game.clock_only(action):
                raise IllegalAction("illegal_action", "only the clock plays this action")
            state = game.copy(live.state)
            events = game.apply(state, seat, action)
        except IllegalAction as exc:
            raise PlayError(422, exc.code, exc.message) from None
        now = self.now()
        record = ActionRecord(
            match_id=live.id,
            seq=live.seq + 1,
            seat=seat,
            action=game.action_to_json(action),
            source=source,
            client_action_id=cid,
            user_id=user_id,
            created_at=now,
        )
        outcome = game.outcome(state)
        finish = endings.by_action(live, seat, raw, source, outcome, now) if outcome is not None else None
        deadline = next_deadline(live.record, now) if finish is None else None
        await in_thread(self._store, record, finish, deadline, live.record)
        self.metrics.stored(live.record.game, source)
        live.commit(record, state, events)
        live.record = dataclasses.replace(live.record, deadline_at=deadline)
        if finish is not None:
            live.ended(finish.status, finish.result, finish.at)

    def _store(self, record: ActionRecord, finish: Finish | None, deadline: Any, match: MatchRecord) -> None:
        if finish is None or not match.rated:
            repo.store_action(self.db, record, finish=finish, deadline_at=deadline)  # the hot path
            return
        with self.db.session() as s:  # a rated match's final action: stored and rated in one transaction
            repo.append_action(s, record, finish=finish, deadline_at=deadline)
            self.rate_in(s, match, finish)

    def rate_in(self, s: Any, match: MatchRecord, finish: Finish) -> None:
        """Rate ``match`` as ``finish`` ends it, in the session ``s`` of the transaction that ends it (a
        match that does not count is left alone: store.ratings.score_of_seat0)."""
        if match.rated and finish.status == FINISHED:
            ended = dataclasses.replace(
                match, status=finish.status, result=finish.result, finished_at=finish.at
            )
            rating_repo.rate_match(s, ended, self.rating_rules)

    def end_if_at(self, match: MatchRecord, finish: Finish, seq: int) -> bool:
        """End the active ``match`` as ``finish`` says if it is still at ``seq`` (and rate it when it counts),
        in one transaction; False (nothing written) if it ended or moved on meanwhile. The guarded UPDATE
        locks the row first, so a move stored by another worker meanwhile is seen. Blocking: run in a
        thread."""
        with self.db.session() as s:
            if not repo.end_match(s, match.id, finish, from_status=(ACTIVE,)):
                return False
            if repo.last_seq(s, match.id) != seq:
                s.rollback()
                return False
            self.rate_in(s, match, finish)
            return True

    async def _abort_unopened(self, live: LiveMatch, seat: Seat) -> bool:
        """Abort the match, no result: ``seat``'s clock ran out before its player's first action (call under
        ``live.lock``). False if another writer moved first."""
        result = {**self.result_json(live, Outcome(None, NO_FIRST_MOVE)), "seat": seat}
        finish = Finish(ABORTED, result, self.now())
        if not await in_thread(self.end_if_at, live.record, finish, live.seq):
            await self.catch_up(live)
            return False
        live.ended(finish.status, finish.result, finish.at)
        return True

    async def _resent(
        self, live: LiveMatch, seat: Seat, seq: int, want_payload: bool = True
    ) -> StatePayload | int:
        """The result a resent action first got: the state right after it, with its events (or its seq)."""
        if not want_payload:
            return seq
        state = await in_thread(live.state_at, seq)
        return views.payload_at(live, seat, state, seq, since=seq - 1)

    def result_json(self, live: LiveMatch, outcome: Outcome) -> JSON:
        """``Outcome.to_json()`` plus the seats' names (``bot:<level>`` for bots)."""
        return endings.result_of(live, outcome)

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
        rows = await in_thread(self._list, {"user_id": user_id, "limit": limit}, user_id)
        for row in rows:
            if row.status == ACTIVE:
                row.to_move = sorted((await self.fresh(row.id)).to_move())
        return rows

    async def admin_matches(
        self, *, status: str | None, game: str | None, username: str | None, limit: int = 200
    ) -> list[MatchListItem]:
        """All matches filtered by status, game and player name (an unknown name matches nothing)."""
        return await in_thread(
            self._list, {"status": status, "game": game, "username": username, "limit": limit}, None
        )

    def _list(self, filters: dict[str, Any], viewer: int | None) -> list[MatchListItem]:
        with self.db.session() as s:
            username = filters.pop("username", None)
            if username is not None:
                user = users.find_user(s, username)
                if user is None:
                    return []
                filters["user_id"] = user.id
            records = (
                repo.list_for_user(s, filters["user_id"], filters["limit"])
                if viewer is not None
                else repo.list_matches(s, **filters)
            )
            ids = {u for r in records for u in r.seat_users if u is not None}
            names = users.usernames(s, ids)
            ratings = rating_views.seat_ratings(
                s, self.rating_rules, records, rating_views.rated_games(self.games), self.now()
            )
        items = [
            views.list_item(
                r,
                (names.get(r.seat_users[0] or -1), names.get(r.seat_users[1] or -1)),
                viewer,
                self.games.get(r.game),
            )
            for r in records
        ]
        for item in items:
            for seat, brief in zip(item.seats, ratings.get(item.id, []), strict=False):
                seat.rating = brief
        return items

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
        live = await self.get_live(match_id)
        async with live.lock:
            await self.catch_up(live)
            if check is not None:
                check(live)
            if live.status not in from_status:
                raise PlayError(409, conflict, f"the match is {live.status}")
            finish = Finish(ABORTED, self.result_json(live, Outcome(None, reason)), self.now())
            if not await in_thread(self._end, live.id, finish, from_status):
                await self.catch_up(live)
                raise PlayError(409, conflict, f"the match is {live.status}")
            live.ended(finish.status, finish.result, finish.at)
        self.bots.cancel(match_id)
        await self.changed(live, since=live.seq)
        return views.summary(live)

    def _end(self, match_id: str, finish: Finish, from_status: tuple[str, ...]) -> bool:
        with self.db.session() as s:
            return repo.end_match(s, match_id, finish, from_status=from_status)


def _encode(result: Any) -> Any:
    """A write's result as JSON-ready data (what a forwarded op answers)."""
    return result.model_dump(mode="json") if isinstance(result, StatePayload) else result


def _clock_played(live: LiveMatch, seat: Seat) -> bool:
    """Whether the last stored action is the clock's move for ``seat`` (stored by another writer)."""
    return bool(live.actions) and live.actions[-1].source == "clock" and live.actions[-1].seat == seat


def _check_active(live: LiveMatch) -> None:
    if live.status != ACTIVE:
        raise PlayError(409, "match_not_active", f"the match is {live.status}")


def _names(s: Any, record: MatchRecord) -> Names:
    found = users.usernames(s, {u for u in record.seat_users if u is not None})
    a, b = record.seat_users
    return (found.get(a) if a is not None else None, found.get(b) if b is not None else None)
