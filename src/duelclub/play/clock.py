"""Move clocks (DESIGN.md §Real time — clocks are deadlines on the match row).

A clocked match stores ``move_seconds`` (``T``, a match-level setting chosen by whoever opens the match:
invite, challenge or queue; never an engine option) and ``deadline_at`` on its row. The deadline is set when
the match starts and after every action (:func:`next_deadline`, written in the same transaction as the
action by ``store.matches.append_action``), so the deadline and the log never disagree.

When the deadline passes, ``game.timeout_action(state, seat)`` is applied as an ordinary logged action with
source ``clock`` (``MatchService.run_clock``, handed to the sweeper as a callable), through the same
(match_id, seq) path as a player's move.
:class:`ClockSweeper` polls for overdue matches — also those whose deadline passed while no worker ran — and
is safe with several workers: the seq key lets exactly one of them store the timeout.

A store outage pauses the clocks (issue 29 §6): while the database is down no timeout can be stored (and no
player can move), and once it is back :class:`ClockRearm` moves every deadline that ran out during the
outage on by the outage's length (``store.matches.rearm_deadlines``), before this worker plays any timeout:
the sweeper and a player's act that finds its match overdue settle it first. Each worker re-arms from the
outage its own ``db.health`` saw (``StoreHealth.outages``); a deadline re-armed by one worker lands after
the outage's end, so another worker's re-arm moves it again only if it fell within the few moments by which
the two workers' sight of the outage differs — a little more time, never a timeout for the outage.

Which matches have a clock (``Game.clock_mode``, :func:`clock_setting`): ``none`` never; ``correspondence``
only when the opener sets a correspondence clock, ``T`` of 1 to 7 days (Межа: rules/mezha.md D19 keeps turn
time unlimited by default, issue 28 §4 offers the correspondence clock); ``optional`` when the opener sets
``T``; ``required`` always between members (Дві вежі §9, D39; absent ``T`` means
:data:`DEFAULT_MOVE_SECONDS`); a match against a bot never, except a tournament board, which always plays the
tournament's clock (play/tournament_driver.py). ``T`` is 10 s to 7 days (604,800 s) in every game with a clock
(issue 28 §4: correspondence play).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from duelclub.aio import BackgroundLoop
from duelclub.play.errors import PlayError
from duelclub.play.threads import in_thread
from duelclub.store import matches as repo
from duelclub.store.db import Database
from duelclub.store.matches import MatchRecord
from duelclub.store.models import utcnow

if TYPE_CHECKING:
    from duelclub.play.live import AnyGame

log = logging.getLogger(__name__)
DAY = 86_400
MIN_MOVE_SECONDS, MAX_MOVE_SECONDS = 10, 7 * DAY
CORRESPONDENCE_PRESETS = (DAY, 2 * DAY, 3 * DAY, 5 * DAY, 7 * DAY)
"""The correspondence clocks the lobby offers (1 to 7 days per move; issue 28 §4)."""
MOVE_SECONDS_PRESETS = (15, 30, 60, 120, 300, *CORRESPONDENCE_PRESETS)
DEFAULT_MOVE_SECONDS = 60
"""``T`` for a ``required`` clock when the opener did not choose one."""


def clock_setting(game: AnyGame, *, vs_bot: bool, move_seconds: int | None) -> int | None:
    """The ``move_seconds`` a new match gets: None (no clock) or ``T`` seconds per move.

    Raises PlayError 422 ``bad_clock`` for a clock on a game without one, ``T`` outside 10..604800 (7 days),
    or, in a ``correspondence`` game, outside 86400..604800 (1 to 7 days)."""
    if vs_bot:
        return None
    if game.clock_mode == "none":
        if move_seconds is not None:
            raise PlayError(422, "bad_clock", f"{game.slug} has no move clock")
        return None
    if move_seconds is None:
        return DEFAULT_MOVE_SECONDS if game.clock_mode == "required" else None
    if game.clock_mode == "correspondence" and not DAY <= move_seconds <= MAX_MOVE_SECONDS:
        raise PlayError(
            422,
            "bad_clock",
            f"{game.slug} has only correspondence clocks: {DAY}..{MAX_MOVE_SECONDS} s per move",
        )
    if not MIN_MOVE_SECONDS <= move_seconds <= MAX_MOVE_SECONDS:
        raise PlayError(
            422,
            "bad_clock",
            f"seconds per move are {MIN_MOVE_SECONDS}..{MAX_MOVE_SECONDS}, not {move_seconds}",
        )
    return move_seconds


def next_deadline(record: MatchRecord, now: datetime) -> datetime | None:
    """The deadline after a move made (or a match started) at ``now``: None when the match has no clock."""
    if record.move_seconds is None:
        return None
    return now + timedelta(seconds=record.move_seconds)


def is_overdue(record: MatchRecord, now: datetime) -> bool:
    """Whether the match's running move clock has run out at ``now``."""
    return record.deadline_at is not None and record.deadline_at <= now


def clock_payload(record: MatchRecord, now: datetime | None = None) -> dict[str, Any] | None:
    """``{"move_seconds", "deadline_at", "server_now", "remaining_ms"}`` for clocked matches, else None.

    ``server_now`` lets a browser whose own clock is off count down correctly."""
    if record.move_seconds is None:
        return None
    now = now or utcnow()
    deadline = record.deadline_at
    remaining = max(0, int((deadline - now).total_seconds() * 1000)) if deadline is not None else None
    return {
        "move_seconds": record.move_seconds,
        "deadline_at": deadline.isoformat() if deadline is not None else None,
        "server_now": now.isoformat(),
        "remaining_ms": remaining,
    }


class ClockRearm:
    """Re-arms the deadlines that ran out while the store was down (see the module docstring), once per
    outage that ``db.health`` saw end. :meth:`pending` is one attribute read; :meth:`settle` is blocking
    (run it in a thread)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._seen = db.health.ended
        self.rearmed = 0
        """Deadlines this worker moved so far (tests and logs)."""

    def pending(self) -> bool:
        """Whether an outage ended that this worker has not re-armed the clocks for."""
        return self._db.health.ended != self._seen

    def settle(self) -> int:
        """Move on the deadlines of every outage ended since the last call; how many moved."""
        health = self._db.health
        ended, windows = health.ended, list(health.outages)
        fresh = windows[max(0, len(windows) - (ended - self._seen)) :]
        moved = 0
        with self._db.session() as s:
            for down_at, back_at in fresh:
                moved += repo.rearm_deadlines(s, down_at, back_at)
        self._seen = ended
        self.rearmed += moved
        if moved:
            log.warning("clock: %d move clock(s) that ran out during the outage re-armed", moved)
        return moved


SWEEP_SECONDS = MIN_MOVE_SECONDS / 2
"""The sweeper's longest sleep. Every deadline is set at least :data:`MIN_MOVE_SECONDS` ahead (a move clock
``T`` ≥ 10 s, :func:`next_deadline`), so a deadline set by any worker after a pass is read by the next pass,
before it runs out, and the sweeper then sleeps until it: no timeout is late for the longer sleep. One
transaction per pass (the overdue matches and the next deadline together): an idle worker's clock costs
0.2 transactions a second, not 2 (issue 29 §1)."""


class ClockSweeper:
    """Applies timeouts of overdue matches: one background loop per service, polling the ``deadline_at``
    index.

    It wakes at the earliest running deadline (at most every ``interval`` seconds, default
    :data:`SWEEP_SECONDS`, so a deadline set by another worker is seen before it runs out). :meth:`sweep`
    does one pass (tests call it after moving their fake clock). It knows nothing of the service:
    ``run_clock(match_id) -> Awaitable[bool]`` stores the timeout of one match if it is overdue (True if this
    call stored one), ``now()`` is the service's clock, ``db`` where the deadlines are read; the service
    builds it (``MatchService.clock_sweeper``)."""

    def __init__(
        self,
        run_clock: Callable[[str], Awaitable[bool]],
        now: Callable[[], datetime],
        db: Database,
        *,
        interval: float = SWEEP_SECONDS,
        rearm: ClockRearm | None = None,
    ) -> None:
        self._run_clock = run_clock
        self.now = now
        self._db = db
        self._rearm = rearm or ClockRearm(db)
        self._loop = BackgroundLoop(
            "clock-sweeper", interval, self._pass, min_delay=0.02, logger=log, outage=db.health.failed
        )

    async def start(self) -> None:
        await self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()

    async def sweep(self) -> int:
        """Run the clock of every overdue match once; the number of timeouts this worker stored."""
        applied, _ = await self._sweep()
        return applied

    async def _sweep(self) -> tuple[int, datetime | None]:
        """:meth:`sweep`, and the earliest running deadline read with the overdue matches (None: none)."""
        now = self.now()
        ids, upcoming = await in_thread(self._due, now)
        if self._rearm.pending():  # the store is back after an outage: no timeouts for it
            await in_thread(self._rearm.settle)
            ids, upcoming = await in_thread(self._due, now)
        applied = 0
        for match_id in ids:
            try:
                applied += int(await self._run_clock(match_id))
            except Exception as exc:
                if not self._db.health.failed(exc):  # an outage is logged once, by the database's health
                    log.exception("clock: match %s", match_id)
        return applied, upcoming

    def _due(self, now: datetime) -> tuple[list[str], datetime | None]:
        with self._db.session() as s:
            return repo.overdue_match_ids(s, now), repo.next_deadline_at(s, after=now)

    async def _pass(self) -> float | None:
        """One sweep; the seconds until the earliest running deadline if that is sooner than ``interval``."""
        _, upcoming = await self._sweep()
        if upcoming is None:
            return None
        return min(self._loop.interval, (upcoming - self.now()).total_seconds())
