"""The tournament driver (issue 26 §Real time and scale; DESIGN.md §Tournaments): the background worker that
records results, ends no-shows, pairs rounds and finishes tournaments.

Every worker runs one; each running tournament is driven by one worker at a time — the holder of the lease
``tournament:{id}`` (play/ownership.py, the same leases as matches; a worker that cannot ask Redis goes
ahead).
The lease is what keeps the work in one place; what keeps it right is the tournament row's ``version``
(store/tournaments.py): a pairing is written only at the version it was computed from, in one transaction
with its matches, so two workers that both saw "round ended" pair it once, and a restart mid-tournament
resumes from the stored rows (the pass below is idempotent). Nothing lives only in memory.

A pass over one tournament (:meth:`TournamentDriver.advance`):

1. an open tournament whose start time has come is started (play/tournament_ops.py ``start``);
2. each board whose match ended gets its result: a win 1 / 0, a draw ½; a match that ended before both first
   moves (``unplayed``, ``no_first_move``) is a forfeit lost by the seat at fault; an aborted one (an admin's
   abort) a double forfeit. A no-show — a seat that made no first move within ``grace_seconds`` of being
   to move — ends the match that way (reason ``unplayed``, ``ended_by: no_show``); two no-shows withdraw the
   player. Past a round deadline (``round_minutes``), a match still in play is lost on time by the seat to
   move (both first moves made; else it is a no-show);
3. unless paused, :func:`~duelclub.play.tournaments.progress.next_step` says what comes next: pair (the new
   boards' matches are ordinary matches, active at once, their commitment stored with the board before
   any action; bots think as in any bot match), or finish.

The driver wakes every ``interval`` seconds, and at once when a match it watches ends (it subscribes to the
``match:{id}`` channels of the boards in play) or when :meth:`TournamentDriver.kick` is called (a start, a
resume, a withdrawal). Every change is published as ``{"type": "tournament", "id"}`` on ``lobby`` (lobby and
tournament pages re-read it); each player of a new match hears ``{"type": "match", "why": "tournament"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta
from typing import Any

from duelclub.aio import BackgroundLoop
from duelclub.bus import Bus, Message, Subscription, match_channel
from duelclub.games.contract import Outcome, Seat
from duelclub.games.fairness import commitment, new_server_seed
from duelclub.play import endings, notify
from duelclub.play.clock import clock_setting
from duelclub.play.errors import PlayError
from duelclub.play.live import LiveMatch
from duelclub.play.lobby import is_rated, new_match_id
from duelclub.play.ownership import Leases
from duelclub.play.port import LobbyPort
from duelclub.play.threads import in_thread
from duelclub.play.tournament_boards import Boards, board_result, core_games, seeded
from duelclub.play.tournament_boards import read as read_boards
from duelclub.play.tournament_ops import start as start_tournament
from duelclub.play.tournaments.model import PairingError
from duelclub.play.tournaments.progress import Format, Step, next_step
from duelclub.store import tournaments as repo
from duelclub.store.matches import ACTIVE, ENDED, FINISHED, Finish
from duelclub.store.tournaments import LIVE, OPEN, PAUSED, RUNNING, Snapshot, TournamentRecord

log = logging.getLogger(__name__)
GRACE_SECONDS = 120.0
"""Default time a seat has for its first move in a tournament match before it is a no-show."""
TOURNAMENT_CHANNEL = notify.LOBBY_CHANNEL


def lease_id(tournament_id: str) -> str:
    """The key of a tournament's lease among the match leases: ``tournament:{id}``."""
    return f"tournament:{tournament_id}"


IDLE_SECONDS = 5.0
"""The driver's sleep while no tournament is due and it drives none (issue 29 §1: an idle worker read the
tournaments every second), cut short at the next open tournament's start time; a creation, a start, a
resume, a withdrawal or a cancel on this worker wakes it at once (:meth:`TournamentDriver.kick`)."""


class TournamentDriver:
    """Drives every tournament this worker holds the lease of (see the module docstring); register it with
    ``MatchService.add_background``. ``grace_seconds``: the no-show grace; ``interval``: seconds between
    passes when nothing wakes it."""

    def __init__(
        self,
        service: LobbyPort,
        leases: Leases,
        bus: Bus,
        *,
        grace_seconds: float = GRACE_SECONDS,
        interval: float = 1.0,
    ) -> None:
        self._service = service
        self._leases = leases
        self._bus = bus
        self.grace_seconds = grace_seconds
        self._interval = interval
        self._idle = max(interval, IDLE_SECONDS)
        self._wait = interval
        """The next pass's sleep (unless woken): ``interval``; longer while nothing is due."""
        self._wake = asyncio.Event()
        self._locks: dict[str, asyncio.Lock] = {}
        self._boards: dict[str, Boards] = {}
        """tournament id → what the last pass read of it (play/tournament_boards.py)."""
        self._watched: dict[str, Subscription] = {}
        self._loop = BackgroundLoop("tournaments", 0.0, self._pass, logger=log)

    async def start(self) -> None:
        await self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()
        for sub in self._watched.values():
            await sub.close()
        self._watched.clear()

    def kick(self) -> None:
        """Run a pass now (after a start, a resume, a withdrawal, a cancel)."""
        self._wake.set()

    def _idle_wait(self, upcoming: datetime | None, now: datetime) -> float:
        """Nothing to drive: sleep until the next open tournament's start, :data:`IDLE_SECONDS` at most."""
        until = (upcoming - now).total_seconds() if upcoming is not None else self._idle
        return max(self._interval, min(self._idle, until))

    @property
    def driving(self) -> set[str]:
        """The tournaments this worker keeps state for (it held their lease at its last pass)."""
        return set(self._locks) | set(self._boards)

    @property
    def watching(self) -> set[str]:
        """The match ids whose channels this worker is subscribed to."""
        return set(self._watched)

    async def _pass(self) -> None:
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancellation that arrives as the
        # event is set (a kick during stop), and the pass would go on past the app's shutdown.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self._wait):
                await self._wake.wait()
        self._wake.clear()
        now = self._service.now()

        def due() -> tuple[list[str], datetime | None]:
            with self._service.session() as s:
                ids = repo.due(s, now)
                return ids, (repo.next_start(s, now) if not ids else None)

        due_now, upcoming = await in_thread(due)
        self._wait = self._interval if due_now or self.driving else self._idle_wait(upcoming, now)
        for gone in self.driving - set(due_now):  # finished or cancelled (by anyone, on any worker)
            await self._done(gone)
        for tournament_id in due_now:
            owner = await self._leases.claim(lease_id(tournament_id))
            if owner is not None and owner != self._leases.worker_id:
                if tournament_id in self.driving:
                    await self._done(tournament_id, release=False)  # another worker drives it now
                continue
            try:
                await self.advance(tournament_id)
            except PlayError as exc:
                log.warning("tournament %s: %s", tournament_id, exc)

    async def advance(self, tournament_id: str) -> None:
        """One pass over the tournament (idempotent; safe from several workers at once)."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            await self._advance(tournament_id)

    async def _advance(self, tournament_id: str) -> None:
        snap = await self._read(tournament_id)
        if snap is None:
            return
        t, now = snap.tournament, self._service.now()
        if t.status == OPEN:
            if t.starts_at is not None and t.starts_at <= now:
                await self._auto_start(t)
            return
        if t.status not in LIVE:
            await self._done(t.id)
            return
        if await self._settle(snap, now):
            await self._changed(t.id)
            snap = await self._read(tournament_id)
            if snap is None:
                return
            t = snap.tournament
        self._watch(t.id)
        if t.status == PAUSED or t.status not in LIVE:
            return
        step = self._plan(snap, now)
        if step.kind == "finish":
            await self._finish(t, now)
        elif step.kind == "pair":
            await self._pair(snap, step, now)

    async def _read(self, tournament_id: str) -> Snapshot | None:
        """The tournament, reading only what can have changed since the last pass (tournament_boards)."""
        known = self._boards.get(tournament_id)

        def read() -> tuple[Snapshot, Boards] | None:
            with self._service.session() as s:
                return read_boards(s, tournament_id, known)

        found = await in_thread(read)
        if found is None:
            self._boards.pop(tournament_id, None)
            return None
        snap, self._boards[tournament_id] = found
        return snap

    async def _auto_start(self, t: TournamentRecord) -> None:
        try:
            await start_tournament(self._service, t.id, None, True)
        except PlayError as exc:  # too few players at the start time: cancelled
            log.info("tournament %s not started at its time: %s", t.id, exc.code)

            def cancel() -> None:
                with self._service.session() as s:
                    repo.set_status(s, t.id, (OPEN,), repo.CANCELLED, finished_at=self._service.now())

            await in_thread(cancel)
        await self._changed(t.id)
        self.kick()

    # -- results -------------------------------------------------------------------------------
    async def _settle(self, snap: Snapshot, now: datetime) -> bool:
        """Record the results of ended matches; end no-shows and matches past the round deadline."""
        t = snap.tournament
        changed = False
        boards = self._boards.get(t.id)
        in_play = [boards.games[k] for k in sorted(boards.open)] if boards is not None else snap.games
        for g in in_play:
            if g.ended_at is not None or g.match_id is None:
                continue
            found = board_result(g)
            if found is None:
                changed |= await self._police(t, g, now)
                continue
            score, forfeit, at_fault = found
            number = None if at_fault is None else (g.first if at_fault == 0 else g.second)
            changed |= await in_thread(self._record, t.id, g, score, forfeit, number, now)
        return changed

    def _record(
        self,
        tid: str,
        g: repo.GameRecord,
        score: float | None,
        forfeit: bool,
        no_show: int | None,
        now: datetime,
    ) -> bool:
        with self._service.session() as s:
            if not repo.record_result(s, tid, g.round, g.board, score=score, forfeit=forfeit, at=now):
                return False
            if no_show is not None and repo.add_forfeit(s, tid, no_show) >= 2:
                repo.withdraw(s, tid, no_show, now)
            repo.touch(s, tid)  # the version moves with every result (and last: see store/tournaments.py)
            return True

    async def _police(self, t: TournamentRecord, g: repo.GameRecord, now: datetime) -> bool:
        """End the match of ``g`` if a seat is a no-show or the round deadline has passed."""
        assert g.match_id is not None
        deadline = self._past_deadline(t, now)
        if not deadline and (now - g.created_at).total_seconds() < self.grace_seconds:
            return False  # too early for a no-show, no deadline: not even a cache look
        # The cached match is enough to decide (no read per match per pass); the end is written at the seq
        # seen, so a move stored meanwhile makes ``end_if_at`` refuse it.
        live = await self._service.get_live(g.match_id)
        if live.status != ACTIVE or (not deadline and len(live.moved) == 2):
            return False
        seen = live.seq
        seat = self._no_show(live, now)
        finish: Finish | None = None
        if seat is not None:
            finish = endings.unplayed(live, seat, "no_show", now)
        elif deadline:
            to_move = sorted(live.to_move())
            if to_move:
                outcome = Outcome(1 - to_move[0], "timeout")
                finish = Finish(FINISHED, self._service.result_json(live, outcome), now)
        if finish is None:
            return False
        async with live.lock:
            await self._service.catch_up(live)
            if live.status != ACTIVE or live.seq != seen:
                return False  # it moved on (or ended) since the look: the next pass looks again
            if not await in_thread(self._service.end_if_at, live.record, finish, seen):
                return False
            live.ended(finish.status, finish.result, finish.at)
        await self._service.changed(live, since=live.seq)
        return True

    def _no_show(self, live: LiveMatch, now: datetime) -> Seat | None:
        """The seat to move that has made no move of its own for ``grace_seconds`` since its turn began."""
        since = live.actions[-1].created_at if live.actions else live.record.started_at
        if since is None or (now - since).total_seconds() < self.grace_seconds:
            return None
        for seat in sorted(live.to_move()):
            if seat not in live.moved and live.record.seat_users[seat] is not None:
                return seat
        return None

    @staticmethod
    def _past_deadline(t: TournamentRecord, now: datetime) -> bool:
        if t.round_minutes is None or t.round_started_at is None:
            return False
        return now >= t.round_started_at + timedelta(minutes=t.round_minutes)

    # -- pairing -------------------------------------------------------------------------------
    def _plan(self, snap: Snapshot, now: datetime) -> Step:
        """What comes next (progress.next_step). A pure function of the stored rows (whose every change bumps
        the version) and of whether an arena's time is over: when both are as at the last ``wait``, it is
        ``wait`` again without computing it (an arena of thousands of boards costs milliseconds a plan)."""
        t = snap.tournament
        arena_over = t.ends_at is not None and now >= t.ends_at
        boards = self._boards.get(t.id)
        inputs = (t.version, arena_over)
        if boards is not None and boards.waited == inputs:
            return Step("wait")
        withdrawn = {e.number for e in snap.entries if e.withdrawn_at is not None}
        fmt: Format = t.format  # type: ignore[assignment]
        try:
            step = next_step(
                fmt,
                players=seeded(snap),
                games=core_games(snap),
                withdrawn=withdrawn,
                current_round=t.current_round,
                rounds=t.rounds,
                double=t.double,
                arena_over=arena_over,
            )
        except PairingError as exc:  # a Swiss with no pairing left: it ends here
            log.info("tournament %s: %s; finishing", t.id, exc)
            return Step("finish")
        if boards is not None:
            boards.waited = inputs if step.kind == "wait" else None
        return step

    async def _pair(self, snap: Snapshot, step: Step, now: datetime) -> None:
        t = snap.tournament
        entries = {e.number: e for e in snap.entries}
        boards: list[dict[str, Any]] = []
        matches: list[dict[str, Any]] = []
        for number, b in enumerate(step.boards, start=1):
            row: dict[str, Any] = {"round": step.round, "board": number, "first": b.first, "second": b.second}
            row["created_at"] = now
            if b.is_match:
                fields = self._match_fields(t, entries[b.first], entries[b.second or 0], now)
                matches.append(fields)
                row["match_id"] = fields["id"]
            else:
                row.update(score=b.score, forfeit=b.forfeit, ended_at=now)
            boards.append(row)

        def write() -> bool:
            with self._service.session() as s:
                if not repo.write_boards(
                    s,
                    t.id,
                    version=t.version,
                    boards=boards,
                    matches=matches,
                    current_round=step.round,
                    round_started_at=now,
                ):
                    s.rollback()
                    return False
                return True

        if not await in_thread(write):
            return  # another worker paired first: the next pass reads its boards
        for fields in matches:
            live = await self._service.fresh(fields["id"])
            self._service.opened(live)
            await self._service.changed(live)
            users = [fields["seat0_user_id"], fields["seat1_user_id"]]
            await notify.match_started(self._service, users, fields["id"], "tournament")
        await self._changed(t.id)
        if any(not b.is_match for b in step.boards):
            self.kick()  # byes and forfeits only may already end the round

    def first_move_seconds(self, move_seconds: int) -> float:
        """The first deadline of a tournament match with a move clock: max(move clock, no-show grace), so
        the clock's own first-move abort (``no_first_move``) never comes before the tournament's grace."""
        return max(float(move_seconds), self.grace_seconds)

    def _match_fields(
        self, t: TournamentRecord, first: repo.EntryRecord, second: repo.EntryRecord, now: datetime
    ) -> dict[str, Any]:
        game = self._service.game(t.game)
        vs_bot = first.bot_level is not None or second.bot_level is not None
        # Every board plays the tournament's clock, a bot's too: a member must not stall a round against a
        # bot (the bot thinks within seconds, far inside any clock: bots/levels.py budgets).
        seconds = clock_setting(game, vs_bot=False, move_seconds=t.move_seconds)
        server_seed, match_id = new_server_seed(), new_match_id()
        return {
            "id": match_id,
            "game": t.game,
            "options": dict(t.options),
            "status": ACTIVE,
            "seat0_user_id": first.user_id,
            "seat1_user_id": second.user_id,
            "seat0_bot": first.bot_level,
            "seat1_bot": second.bot_level,
            "commitment": commitment(server_seed, match_id),
            "server_seed": server_seed.hex(),
            "client_seed_a": "",
            "client_seed_b": "",
            "created_at": now,
            "started_at": now,
            "move_seconds": seconds,
            "deadline_at": now + timedelta(seconds=self.first_move_seconds(seconds)) if seconds else None,
            "opened_by": t.organiser_id,
            "invite_token": None,
            "rated": is_rated(game, vs_bot=vs_bot, rated=t.rated),
        }

    async def _finish(self, t: TournamentRecord, now: datetime) -> None:
        def write() -> bool:
            with self._service.session() as s:
                return repo.set_status(s, t.id, (RUNNING,), repo.FINISHED, finished_at=now)

        if await in_thread(write):
            await self._changed(t.id)
        await self._done(t.id)

    async def _done(self, tournament_id: str, *, release: bool = True) -> None:
        """Forget a tournament that is over (finished, cancelled) or driven elsewhere now: its lease (given
        up when ``release``), its lock, its boards and its match subscriptions."""
        if release:
            await self._leases.release(lease_id(tournament_id))
        self._locks.pop(tournament_id, None)
        boards = self._boards.pop(tournament_id, None)
        for match_id in boards.watched if boards is not None else ():
            sub = self._watched.pop(match_id, None)
            if sub is not None:
                await sub.close()

    # -- news ----------------------------------------------------------------------------------
    async def _changed(self, tournament_id: str) -> None:
        await self._service.publish(TOURNAMENT_CHANNEL, {"type": "tournament", "id": tournament_id})

    def _watch(self, tournament_id: str) -> None:
        """Subscribe to the channels of the boards in play (a match's end wakes the driver at once), and
        drop those of the boards that ended."""
        boards = self._boards.get(tournament_id)
        if boards is None:
            return
        live = boards.in_play()
        for match_id in live - boards.watched:
            boards.watched.add(match_id)
            asyncio.get_running_loop().create_task(self._subscribe(tournament_id, match_id))
        for match_id in boards.watched - live:
            boards.watched.discard(match_id)
            sub = self._watched.pop(match_id, None)
            if sub is not None:
                asyncio.get_running_loop().create_task(sub.close())

    async def _subscribe(self, tournament_id: str, match_id: str) -> None:
        if match_id in self._watched:
            return
        sub = await self._bus.subscribe(match_channel(match_id))
        boards = self._boards.get(tournament_id)
        if boards is None or match_id not in boards.watched or match_id in self._watched:
            await sub.close()  # the board ended (or the tournament was dropped) while subscribing
            return
        self._watched[match_id] = sub

        def heard() -> None:
            if any(_ended(m) for m in sub.drain()):
                self.kick()

        sub.on_message = heard


def _ended(message: Message) -> bool:
    return (message.get("type") == "change" and message.get("status") in ENDED) or message.get(
        "type"
    ) == "resync"
