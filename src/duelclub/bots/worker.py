"""The bot worker: takes bot jobs from the database, thinks, stores the answer (issue 12 item 1).

Bots never think in a web process. A web worker enqueues a job per due bot seat (``store/botjobs.py``) holding
only ``game.to_position(game.determinize(state, seat, rng))``; a bot worker :meth:`BotWorker.step`:

1. takes one due job with a lease of ``lease_seconds`` (``BOT_LEASE_SECONDS``, longer than any level's think
   budget);
2. rebuilds the state with ``game.from_position`` and runs ``make_bot(slug, level, think_seconds=…)``'s
   ``choose`` with ``random.Random(job.seed)``;
3. stores the action (JSON) guarded by its lease token.

A worker killed mid-think loses nothing: its lease runs out and another worker takes the job. A bot that
raises gives the job back at once, due again after ``attempts × RETRY_SECONDS`` (at most
``botjobs.MAX_ATTEMPTS`` tries). Wake-ups: on PostgreSQL the worker LISTENs for new jobs (and re-checks every
second for expired leases); on SQLite it polls, every ``poll_seconds`` while busy, backing off to
``MAX_IDLE_POLLS × poll_seconds`` when idle.

Run as a process with ``python -m duelclub.bots.worker [--name NAME] [--parent-pid PID]`` (what
``duelclub bots`` and ``duelclub serve``'s local pool start, see ``bots/pool.py``); with ``--parent-pid`` the
worker exits when that process is gone (PR_SET_PDEATHSIG on Linux, and a ``getppid`` check everywhere).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any, Protocol

from duelclub.bots.base import Bot, GameLookup
from duelclub.bots.metrics import ThinkTimer, think_timer
from duelclub.store import botjobs
from duelclub.store.db import Database
from duelclub.store.health import is_outage
from duelclub.store.models import utcnow

log = logging.getLogger(__name__)

ThinkFactory = Callable[[str, str, float | None], Bot]
"""``(game slug, level, think_seconds) -> bot`` — :func:`duelclub.bots.registry.make_bot`'s shape."""
RETRY_SECONDS = 0.25
"""A job whose bot raised is due again after ``attempts × RETRY_SECONDS``."""
MAX_IDLE_POLLS = 5
"""An idle SQLite worker polls at most every ``MAX_IDLE_POLLS × poll_seconds``."""
PG_RECHECK_SECONDS = 5.0
"""A listening PostgreSQL worker still looks every so often: leases expire without a notification (a worker
killed mid-think delays its bot by at most ``BOT_LEASE_SECONDS`` + this). Each look is two transactions (a
bot job, an analysis); at 1 s they were ~0.3 % of a core of an idle club (~0.06 ms per action at 50 matches,
issue 29 §1)."""


class Wakeup(Protocol):
    """How an idle worker waits for the next job. ``idle_wait``: the longest wait of an idle worker (None:
    ``MAX_IDLE_POLLS × poll_seconds``, for a wakeup that may miss a new job)."""

    idle_wait: float | None

    def wait(self, timeout: float) -> None:
        """Return after ``timeout`` seconds, or earlier when a job may be due."""

    def close(self) -> None: ...


class PollWakeup:
    """Sleep ``timeout`` seconds unless :meth:`set` is called (an in-process web worker's enqueue)."""

    idle_wait: float | None = None

    def __init__(self) -> None:
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def wait(self, timeout: float) -> None:
        self._event.wait(timeout)
        self._event.clear()

    def close(self) -> None:
        self._event.set()


class PgWakeup:
    """``LISTEN`` on :data:`botjobs.JOBS_CHANNEL` through a psycopg connection of its own (reconnected on
    failure; while it is down the worker simply sleeps and polls). A new job or analysis is notified, so an
    idle worker looks only every :data:`PG_RECHECK_SECONDS` (for expired leases): four looks a second cost a
    bot worker more CPU than the web worker's actions at 50 matches (issue 29 §1)."""

    idle_wait: float | None = PG_RECHECK_SECONDS

    def __init__(self, sqlalchemy_url: str) -> None:
        self._dsn = pg_dsn(sqlalchemy_url)
        self._conn: Any = None

    def _connect(self) -> Any:
        from duelclub.store.listen import ListenConnection  # no wake-up every 0.1 s while idle

        if self._conn is None or self._conn.closed:
            self._conn = ListenConnection.connect(self._dsn, autocommit=True)
            self._conn.execute(f"LISTEN {botjobs.JOBS_CHANNEL}")
        return self._conn

    def wait(self, timeout: float) -> None:
        timeout = min(timeout, PG_RECHECK_SECONDS)
        try:
            for _ in self._connect().notifies(timeout=timeout, stop_after=1):
                pass
        except Exception as exc:
            if is_outage(exc):  # the database is down: the worker's next poll says so, once
                log.debug("bot worker: LISTEN connection failed (database unavailable); polling")
            else:
                log.warning("bot worker: LISTEN connection failed; polling", exc_info=True)
            self.close()
            time.sleep(timeout)

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            finally:
                self._conn = None


def pg_dsn(sqlalchemy_url: str) -> str:
    """A libpq URI for a ``postgresql+psycopg://…`` SQLAlchemy URL (query parameters kept)."""
    from sqlalchemy.engine import make_url

    return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)


def wakeup_for(db: Database) -> Wakeup:
    """LISTEN/NOTIFY on PostgreSQL, polling otherwise."""
    return PgWakeup(db.url) if db.url.startswith("postgresql") else PollWakeup()


def default_name() -> str:
    return f"bots-{socket.gethostname()}-{os.getpid()}"


class BotWorker:
    """Takes and answers bot jobs on ``db``, one at a time.

    ``games`` looks games up by slug; ``make_bot`` builds the bot of a job; ``on_answer(job)`` is called after
    an answer is stored (an in-process web worker uses it to collect at once); ``side_work()`` runs when no
    job is due and says whether it did anything (the post-game analyses, ``bots/analysis_worker.py``).
    :meth:`run` loops until ``stop`` is set; :meth:`step` does one job and returns whether there was one.
    """

    def __init__(
        self,
        db: Database,
        games: GameLookup,
        make_bot: ThinkFactory,
        *,
        name: str | None = None,
        lease_seconds: float = 10.0,
        poll_seconds: float = 0.05,
        wakeup: Wakeup | None = None,
        on_answer: Callable[[botjobs.Job], None] | None = None,
        alive: Callable[[], bool] = lambda: True,
        think_timer: ThinkTimer | None = None,
        side_work: Callable[[], bool] | None = None,
    ) -> None:
        self.db = db
        self.games = games
        self.make_bot = make_bot
        self.name = name or default_name()
        self.lease_seconds = lease_seconds
        self.poll_seconds = poll_seconds
        self.wakeup = wakeup or wakeup_for(db)
        self.on_answer = on_answer
        self.alive = alive
        self.think_timer = think_timer
        self.side_work = side_work

    def take(self) -> botjobs.Job | None:
        with self.db.session() as s:
            return botjobs.take(s, self.name, utcnow(), self.lease_seconds)

    def think(self, job: botjobs.Job) -> dict[str, Any]:
        """The bot's action (JSON) for ``job``; raises whatever the game or the bot raises. The decision's
        wall-clock time goes to ``think_timer`` (bots/metrics.py)."""
        started = time.monotonic()
        game = self.games(job.game)
        state = game.from_position(job.position)
        bot = self.make_bot(job.game, job.level, job.think_seconds)
        action = bot.choose(game, state, job.seat, random.Random(job.seed))
        answer: dict[str, Any] = game.action_to_json(action)
        if self.think_timer is not None:
            self.think_timer(job.game, job.level, time.monotonic() - started)
        return answer

    def step(self) -> bool:
        """Take one due job, think, store the answer (or give the job back if the bot failed); with no job
        due, do one piece of ``side_work`` (a post-game analysis, ``bots/analysis_worker.py``)."""
        if self.bot_step():
            return True
        return self.side_work() if self.side_work is not None else False

    def bot_step(self) -> bool:
        """The bot-job part of :meth:`step` (no side work): False if no job was due. Side work calls it
        between its pieces, so that a live match never waits for a long analysis."""
        job = self.take()
        if job is None:
            return False
        try:
            action = self.think(job)
        except Exception:
            log.exception("bot %s:%s failed on match %s seq %d", job.game, job.level, job.match_id, job.seq)
            retry_at = utcnow() + timedelta(seconds=RETRY_SECONDS * job.attempts)
            with self.db.session() as s:
                botjobs.release(s, job, retry_at)
            return True
        with self.db.session() as s:
            stored = botjobs.answer(s, job, action, utcnow())
        if not stored:
            log.info("bot answer for match %s seq %d came too late (lease lost)", job.match_id, job.seq)
        elif self.on_answer is not None:
            self.on_answer(job)
        return True

    def run(self, stop: threading.Event) -> None:
        """Work until ``stop`` is set or ``alive()`` turns False; a failing database is retried."""
        idle = self.poll_seconds
        longest = self.wakeup.idle_wait or self.poll_seconds * MAX_IDLE_POLLS
        try:
            while not stop.is_set() and self.alive():
                try:
                    worked = self.step()
                except Exception as exc:
                    if not self.db.health.failed(exc):  # an outage: one line, by the database's health
                        log.exception("bot worker %s: database error", self.name)
                    worked = False
                if worked:
                    idle = self.poll_seconds
                    continue
                self.wakeup.wait(idle)
                idle = min(idle * 2, longest)
        finally:
            self.wakeup.close()


def _die_with_parent(parent_pid: int) -> Callable[[], bool]:
    """Ask Linux to SIGKILL this process when its parent dies; a ``getppid`` check for other systems."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            pr_set_pdeathsig = 1
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
        except Exception:
            log.warning("PR_SET_PDEATHSIG unavailable", exc_info=True)
    if os.getppid() != parent_pid:  # the parent died before prctl
        raise SystemExit(0)
    return lambda: os.getppid() == parent_pid


def main(argv: Sequence[str] | None = None) -> int:
    """One bot worker process on ``DATABASE_URL`` with the registries' games and bots (``BOT_LEASE_SECONDS``,
    ``BOT_POLL_SECONDS``); between bot jobs it computes post-game analyses (``ANALYSIS_EFFORT``)."""
    from duelclub.bots.registry import make_bot
    from duelclub.games.registry import get_game
    from duelclub.logs import configure as configure_logging
    from duelclub.settings import Settings

    parser = argparse.ArgumentParser(prog="duelclub-bot-worker")
    parser.add_argument("--name", default=None)
    parser.add_argument("--parent-pid", type=int, default=None)
    args = parser.parse_args(argv)
    settings = Settings()
    configure_logging(settings.LOG_FORMAT, settings.LOG_LEVEL)
    alive = _die_with_parent(args.parent_pid) if args.parent_pid is not None else (lambda: True)
    db = Database(settings.DATABASE_URL, sqlite_synchronous=settings.SQLITE_SYNCHRONOUS)
    from duelclub.bots.analysis_worker import AnalysisRunner  # after prctl: die with the parent meanwhile

    name = args.name or default_name()
    analyses = AnalysisRunner(db, get_game, name=name, effort=settings.ANALYSIS_EFFORT)
    worker = BotWorker(
        db,
        get_game,
        lambda slug, level, think: make_bot(slug, level, think_seconds=think),
        name=name,
        lease_seconds=settings.BOT_LEASE_SECONDS,
        poll_seconds=settings.BOT_POLL_SECONDS,
        alive=alive,
        think_timer=think_timer(),
        side_work=analyses.step,
    )
    analyses.between = worker.bot_step  # bot jobs go first, even in the middle of an analysis
    stop = threading.Event()
    log.info("bot worker %s started", worker.name)
    try:
        worker.run(stop)
    except KeyboardInterrupt:
        pass
    finally:
        db.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
