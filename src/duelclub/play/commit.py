"""The one writer of matches (DESIGN.md §Persistence): an action in, its stored records out.

Every action — a player's (:meth:`MatchWriter.act`), a bot's (:meth:`MatchWriter.apply_as`) or the clock's
(:meth:`MatchWriter.run_clock`) — takes one path on the match's owner (play/routing.py sends it there): under
the match's asyncio lock, catch up from the database when the cache may be behind (play/cache.py), parse and
validate with the engine on a copy of the state, insert the ``match_actions`` row (and end the match in the
same transaction when the engine's outcome says so), and only then swap the cached state and hand the match to
play/publish.py. Two writers racing for one seq are settled by the (match_id, seq) primary key: the loser
reloads; a player gets ``stale_seq``, a bot simply looks again.

The clock takes the same path (source ``clock``): when a match's ``deadline_at`` has passed,
``game.timeout_action`` is applied for the seat to move — unless that seat's player has not made a first
action of their own yet in a match between members: then the match is aborted without a result (reason
``no_first_move``, issue 14 §2). A player's action that arrives after its deadline runs the clock first and is
then refused (``clock_expired``), so a last-second move and the timeout never both count. A deadline found
run out is read again first, and the clocks re-armed after an outage this worker saw end (play/clock.py
``ClockRearm``, issue 29 §6): the cache may hold a deadline that the outage's re-arm has moved. ``now`` (a
callable) is the writer's clock; tests set a fake one on the service.

Ratings (issue 14 §2): the transaction that stores a rated match's final action also rates it
(``store.ratings.rate_match``: at most once per match, from the ratings held when it ended).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from duelclub.bus.messages import ActAck
from duelclub.games.contract import IllegalAction, Outcome, PlatformReason, Seat
from duelclub.play import endings, views
from duelclub.play.cache import MatchCache
from duelclub.play.clock import ClockRearm, is_overdue, next_deadline
from duelclub.play.errors import PlayError, stale
from duelclub.play.live import JSON, LiveMatch
from duelclub.play.metrics import PlayMetrics
from duelclub.play.ownership import Leases
from duelclub.play.publish import ChangePublisher
from duelclub.play.schemas import MatchSummary, StatePayload
from duelclub.play.threads import in_thread
from duelclub.ratings.rules import RatingRules
from duelclub.store import hot_write
from duelclub.store import matches as repo
from duelclub.store import ratings as rating_repo
from duelclub.store.db import Database
from duelclub.store.matches import ABORTED, ACTIVE, FINISHED, ActionRecord, Finish, MatchRecord
from duelclub.store.pg_writer import PgMoveWriter
from duelclub.store.sqlite_writer import SqliteMoveWriter

log = logging.getLogger(__name__)

RESIGN_TRIES = 3
"""How often a resignation is tried again when another write took its seq (it is never stale)."""
NO_FIRST_MOVE: PlatformReason = "no_first_move"
"""Result reason of a match aborted because a player's clock ran out before their first action."""


class MatchWriter:
    """Applies and stores the actions and ends of this worker's matches (the owner's side of a write): reads
    through ``cache``, writes to ``db``, then hands each committed change to ``publisher``."""

    def __init__(
        self,
        db: Database,
        cache: MatchCache,
        publisher: ChangePublisher,
        leases: Leases,
        *,
        now: Callable[[], datetime],
        rating_rules: RatingRules,
        metrics: PlayMetrics,
    ) -> None:
        self.db = db
        self.cache = cache
        self.publisher = publisher
        self.leases = leases
        self.now = now
        self.rating_rules = rating_rules
        self.metrics = metrics
        self.rearm = ClockRearm(db)
        """Re-arms the clocks that ran out during a store outage (shared with the clock sweeper)."""
        self.moves: PgMoveWriter | SqliteMoveWriter = (
            SqliteMoveWriter(db) if SqliteMoveWriter.wanted(db) else PgMoveWriter(db)
        )
        """Writes the moves from the event loop once :meth:`start`ed, on PostgreSQL and on a SQLite file
        (store/pg_writer.py, store/sqlite_writer.py); else, and for a final move, the thread path."""

    async def start(self) -> None:
        if self.moves.wanted(self.db):
            await self.moves.start()

    async def stop(self) -> None:
        await self.moves.stop()

    # -- the three kinds of action ------------------------------------------------------------------
    async def act(
        self, match_id: str, user_id: int, client_id: str, seq: int, action: JSON, *, want_payload: bool
    ) -> StatePayload | int:
        """A player's action on this worker (``MatchService.act_seq`` has the rules and errors): the
        player's new state when ``want_payload``, else the action's seq."""
        started = time.perf_counter()
        live = await self.cache.get_live(match_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise PlayError(403, "not_your_seat", "you do not play in this match")
        cid = f"{seat}:{client_id}"
        async with live.lock:
            if seq > live.seq or live.status != ACTIVE or self.leases.newly_owned(match_id):
                # The player saw a state this cache has not: another writer moved on (or ended the match),
                # or this worker has just taken the match over.
                await self.cache.catch_up(live)
            if cid in live.client_ids:
                return await self._resent(live, seat, live.client_ids[cid], want_payload)
            _check_active(live)
            if is_overdue(live.record, self.now()):
                await self._recheck_deadline(live)
                if cid in live.client_ids:
                    return await self._resent(live, seat, live.client_ids[cid], want_payload)
                _check_active(live)
            if is_overdue(live.record, self.now()):
                was_due = seat in live.to_move()
                applied = await self._timeout(live)
                if applied:
                    await self.publisher.changed(live)
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
                    await self.cache.catch_up(live)
                    if cid in live.client_ids:
                        return await self._resent(live, seat, live.client_ids[cid], want_payload)
                    _check_active(live)
                    if attempt + 1 >= (RESIGN_TRIES if resigning else 1):
                        raise stale(live.seq) from None
            payload = views.cached_payload(live, seat, seq) if want_payload else None
        self.metrics.acted(live.record.game, time.perf_counter() - started)
        await self.publisher.changed(live, ack=ActAck(seat=seat, id=client_id))
        return payload if payload is not None else live.seq

    async def apply_as(
        self, match_id: str, seat: Seat, action: JSON, *, source: str, expected_seq: int
    ) -> bool:
        """A bot's (or the clock's) action for ``seat`` on this worker, if the match is still at
        ``expected_seq`` and active; False when it moved on, PlayError if the engine rejects the action."""
        live = await self.cache.get_live(match_id)
        async with live.lock:
            if expected_seq != live.seq or live.status != ACTIVE or self.leases.newly_owned(match_id):
                await self.cache.catch_up(live)
            if live.status != ACTIVE or live.seq != expected_seq:
                return False
            try:
                await self._apply(live, seat, action, source=source, user_id=None, cid=None)
            except (repo.SeqConflict, repo.MatchNotActive):
                await self.cache.catch_up(live)
                return False
        await self.publisher.changed(live)
        return True

    async def run_clock(self, match_id: str) -> bool:
        """The clock on this worker: if the match's move clock has run out, the timeout (or the abort) of
        :meth:`_timeout`; True if this call stored it. Another writer's move meanwhile moves the deadline,
        and then nothing is stored."""
        live = await self.cache.get_live(match_id)
        async with live.lock:
            await self.cache.catch_up(live)
            if self.rearm.pending():
                await self._recheck_deadline(live)
            if live.status != ACTIVE or not is_overdue(live.record, self.now()):
                return False
            applied = await self._timeout(live)
        if applied:
            await self.publisher.changed(live)
        return applied

    async def _recheck_deadline(self, live: LiveMatch) -> None:
        """Before the clock plays (under ``live.lock``): read the match again — its deadline may have moved
        — and, if the store is back after an outage this worker has not re-armed the clocks for, re-arm
        them first (play/clock.py ``ClockRearm``) and read it once more."""
        await self.cache.catch_up(live)
        if self.rearm.pending():
            await in_thread(self.rearm.settle)
            await self.cache.catch_up(live)

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
            await self.cache.catch_up(live)
            return False
        return True

    # -- parse, apply, append, outcome ----------------------------------------------------------------
    async def _apply(
        self, live: LiveMatch, seat: Seat, raw: JSON, *, source: str, user_id: int | None, cid: str | None
    ) -> None:
        """Validate on a copy, store the row (ending the match if it is over), then commit to the cache."""
        game = live.game
        try:
            action = game.parse_action(raw)
            if source != "clock" and game.clock_only(action):
                raise IllegalAction("clock_only", "only the clock plays this action")
            state = game.copy(live.state)
            events = game.apply(state, seat, action)
        except IllegalAction as exc:
            # a refused move is rare from the UI (it sends only what `legal` lists): its trace, to replay
            log.info(
                "match %s seq %d: seat %d's action refused (%s): %.300s",
                live.id,
                live.seq,
                seat,
                exc.code,
                raw,
            )
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
        if deadline is not None and live.first_move_seconds and game.to_move(state) - live.moved - {seat}:
            # a tournament seat still to make its first move gets the no-show grace (issue 26)
            deadline = max(deadline, now + timedelta(seconds=live.first_move_seconds))
        # a move that does not end the match: from the loop where it can (store/pg_writer.py, sqlite_writer)
        if not (finish is None and self.moves.usable() and await self.moves.advance(record, deadline)):
            await in_thread(self._store, record, finish, deadline, live.record)
        self.metrics.stored(live.record.game, source)
        live.commit(record, state, events)
        live.record = dataclasses.replace(live.record, deadline_at=deadline)
        if finish is not None:
            live.ended(finish.status, finish.result, finish.at)

    def _store(self, record: ActionRecord, finish: Finish | None, deadline: Any, match: MatchRecord) -> None:
        if finish is None or not match.rated:
            hot_write.store_action(self.db, record, finish=finish, deadline_at=deadline)  # the hot path
            return
        with self.db.session() as s:  # a rated match's final action: stored and rated in one transaction
            repo.append_action(s, record, finish=finish, deadline_at=deadline)
            self.rate_in(s, match, finish)

    async def _resent(
        self, live: LiveMatch, seat: Seat, seq: int, want_payload: bool = True
    ) -> StatePayload | int:
        """The result a resent action first got: the state right after it, with its events (or its seq)."""
        if not want_payload:
            return seq
        state = await in_thread(live.state_at, seq)
        return views.payload_at(live, seat, state, seq, since=seq - 1)

    # -- ends without an action ---------------------------------------------------------------------
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
        result = {**endings.result_of(live, Outcome(None, NO_FIRST_MOVE)), "seat": seat}
        finish = Finish(ABORTED, result, self.now())
        if not await in_thread(self.end_if_at, live.record, finish, live.seq):
            await self.cache.catch_up(live)
            return False
        live.ended(finish.status, finish.result, finish.at)
        return True

    async def end_unplayed(
        self,
        match_id: str,
        reason: PlatformReason,
        *,
        from_status: tuple[str, ...],
        conflict: str,
        check: Callable[[LiveMatch], None] | None = None,
    ) -> MatchSummary:
        """End a match in ``from_status`` as aborted (``MatchService.end_unplayed`` has the rules and
        errors), then publish it (:meth:`ChangePublisher.aborted`)."""
        live = await self.cache.get_live(match_id)
        async with live.lock:
            await self.cache.catch_up(live)
            if check is not None:
                check(live)
            if live.status not in from_status:
                raise PlayError(409, conflict, f"the match is {live.status}")
            finish = Finish(ABORTED, endings.result_of(live, Outcome(None, reason)), self.now())
            if not await in_thread(self._end, live.id, finish, from_status):
                await self.cache.catch_up(live)
                raise PlayError(409, conflict, f"the match is {live.status}")
            live.ended(finish.status, finish.result, finish.at)
        await self.publisher.aborted(live)
        return views.summary(live)

    def _end(self, match_id: str, finish: Finish, from_status: tuple[str, ...]) -> bool:
        with self.db.session() as s:
            return repo.end_match(s, match_id, finish, from_status=from_status)


def _clock_played(live: LiveMatch, seat: Seat) -> bool:
    """Whether the last stored action is the clock's move for ``seat`` (stored by another writer)."""
    return bool(live.actions) and live.actions[-1].source == "clock" and live.actions[-1].seat == seat


def _check_active(live: LiveMatch) -> None:
    if live.status != ACTIVE:
        raise PlayError(409, "match_not_active", f"the match is {live.status}")
