"""The bot driver: plays bot seats through the match service (DESIGN.md §Layers — play/ schedules bots).

Bots never think in a web process (issue 12 item 1). After every change the service calls
:meth:`BotDriver.poke`. A bot moves when exactly its seat is in ``to_move`` — never while a human seat may
also act, so in Mezha's pause between seasons the bot waits for the human's «Следующий сезон»
(rules/mezha.md D17). Then the driver enqueues a bot job (``store/botjobs.py``) at the match's seq holding
only ``game.to_position(game.determinize(state, seat, rng))`` — the bot cannot see the opponent's hand, the
deck orders, future omens or the stream key, whatever its code does — with a fresh seed for the bot's own
``random.Random`` (never the match stream). A bot worker process (``bots/worker.py``) answers it.

The driver's collector applies answered jobs through its ``act`` callable (``MatchService.apply_as(...,
source="bot", expected_seq=job.seq)``) and deletes them; a late or repeated answer is harmless (``apply_as``
returns False when the match moved on). It collects its own jobs when told (PostgreSQL NOTIFY; on SQLite it
polls every ``poll_seconds`` while it has jobs out), and every ``sweep_seconds`` it also applies any job
answered more than ``sweep_seconds`` ago — whatever web worker created it, so the jobs of a dead web worker
are not lost — and deletes the jobs of matches that are no longer active.

What thinks is chosen by the ``bots`` argument: a :class:`BotWorkers` (production: bot worker processes
started by ``duelclub serve`` or ``duelclub bots``), or a ``BotFactory`` — FOR TESTS ONLY: the driver then
also runs the same worker loop (:class:`duelclub.bots.worker.BotWorker`) in a thread of this process with that
factory and the service's games, so tests with fake bots and the fake game keep playing without processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import anyio.to_thread

from duelclub.bots.base import Bot
from duelclub.bots.worker import BotWorker, PollWakeup, pg_dsn
from duelclub.games.contract import Seat
from duelclub.play.errors import PlayError
from duelclub.play.threads import in_thread
from duelclub.store import botjobs
from duelclub.store import matches as repo
from duelclub.store.db import Database
from duelclub.store.health import is_outage
from duelclub.store.models import utcnow

if TYPE_CHECKING:
    from duelclub.play.live import AnyGame, LiveMatch

log = logging.getLogger(__name__)
BotFactory = Callable[[str, str], Bot]
"""``(game slug, level) -> bot`` — given to the service, it makes the bots of an in-process worker (tests)."""


@dataclass(frozen=True)
class BotWorkers:
    """Bots think in bot worker processes (production).

    ``think_seconds`` is stored in each job (None: the level's own budget, ``BOT_THINK_SECONDS``);
    ``poll_seconds`` is how often a SQLite web worker looks for its answers (``BOT_POLL_SECONDS``);
    ``sweep_seconds`` how often any web worker collects old answers and obsolete jobs.
    """

    think_seconds: float | None = None
    poll_seconds: float = 0.05
    sweep_seconds: float = 1.0
    idle_sweep_factor: float = 5.0
    """While this driver waits for no job of its own it sweeps only every ``sweep_seconds ×`` this (issue 29
    §1: an idle worker swept every second); the sweep then only collects a dead worker's answers and the jobs
    of ended matches, which may wait that long."""
    lease_seconds: float = 10.0
    """The lease of the in-process test worker only."""


BotSource = BotFactory | BotWorkers
Act = Callable[..., Awaitable[bool]]
"""``act(match_id, seat, action, *, expected_seq=seq) -> Awaitable[bool]``: apply a bot's answer if the match
is still at ``expected_seq`` (False: it moved on); PlayError if the engine refuses it
(``MatchService.apply_as`` with ``source="bot"``)."""
Look = Callable[[str], Awaitable["LiveMatch"]]
"""``look(match_id) -> Awaitable[LiveMatch]``: the match as the service has it cached."""


def bot_seat_due(live: LiveMatch) -> Seat | None:
    """The bot seat that must act now: the only seat in ``to_move``, held by a bot; else None."""
    to_move = live.to_move()
    if len(to_move) != 1:
        return None
    (seat,) = to_move
    record = live.record
    if record.seat_bots[seat] is None or record.seat_users[seat] is not None:
        return None
    return seat


class BotDriver:
    """Enqueues bot jobs for due bot seats and applies their answers (one per service).

    It knows nothing of the service, which builds it with: ``db`` (where jobs live), ``game(slug)``, ``act``
    (:data:`Act`: applies an answer) and ``look`` (:data:`Look`: reads a match). ``bots``: None (no bot
    matches), a :class:`BotWorkers` (bot worker processes), or a factory (tests only: an in-process worker
    thinks with it).
    """

    def __init__(
        self,
        db: Database,
        game: Callable[[str], AnyGame],
        *,
        act: Act,
        look: Look,
        bots: BotSource | None,
    ) -> None:
        self._db = db
        self._game = game
        self._act = act
        self._look = look
        self._config = bots if isinstance(bots, BotWorkers) else BotWorkers(poll_seconds=0.02)
        self._factory = bots if bots is not None and not isinstance(bots, BotWorkers) else None
        self._available = bots is not None
        self.name = f"web-{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
        self._pending: dict[str, int] = {}
        """match id -> the seq of the job this driver enqueued and has not applied yet."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._answers = asyncio.Event()
        self._idle_wait = False
        """The collector waits longer than ``poll_seconds`` (no job of its own out, or woken by NOTIFY)."""
        self._closed = False
        self._local: _LocalWorker | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def available(self) -> bool:
        return self._available

    # -- the web side ---------------------------------------------------------------------------
    def poke(self, live: LiveMatch) -> None:
        """Enqueue a job if a bot is due at ``live.seq`` (once per seq; idempotent in the store too)."""
        if not self._available or self._closed:
            return
        seat = bot_seat_due(live)
        if seat is None or self._pending.get(live.id) == live.seq:
            return
        level = live.record.seat_bots[seat]
        assert level is not None and live.state is not None
        game = live.game
        # Synchronously (no await): the cached state cannot change under the determinization.
        state = game.determinize(live.state, seat, _rng())
        job = botjobs.Job(
            match_id=live.id,
            seq=live.seq,
            seat=seat,
            game=game.slug,
            level=level,
            position=game.to_position(state),
            seed=secrets.randbits(63),
            think_seconds=self._config.think_seconds,
            creator=self.name,
        )
        self._pending[live.id] = live.seq
        self._start_loops()
        self._spawn(self._enqueue(job))

    def cancel(self, match_id: str) -> None:
        """Forget the match's jobs (it ended without the bot, e.g. an admin abort)."""
        if self._pending.pop(match_id, None) is not None and not self._closed:
            self._spawn(self._in_db(botjobs.delete_for_match, match_id))

    async def resume(self) -> None:
        """Enqueue the jobs of every active match whose bot is due (startup after a restart)."""
        if not self._available:
            return
        self._start_loops()
        ids = await anyio.to_thread.run_sync(self._active_ids)
        for match_id in ids:
            try:
                self.poke(await self._look(match_id))
            except Exception:
                log.exception("bot resume failed for match %s", match_id)

    def _active_ids(self) -> list[str]:
        with self._db.session() as s:
            return repo.active_bot_match_ids(s)

    async def stop(self) -> None:
        self._closed = True
        tasks = [*self._loops, *self._tasks]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._loops.clear()
        self._tasks.clear()
        if self._local is not None:
            await anyio.to_thread.run_sync(self._local.stop)
            self._local = None

    # -- background -----------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _start_loops(self) -> None:
        if self._loops or self._closed:
            return
        self._loop = asyncio.get_running_loop()
        self._loops.append(asyncio.create_task(self._collector(), name="bots:collector"))
        if self._db.url.startswith("postgresql"):
            self._loops.append(asyncio.create_task(self._listen(), name="bots:listen"))
        if self._factory is not None:
            self._local = _LocalWorker(self, self._factory)

    async def _in_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        def run() -> Any:
            with self._db.session() as s:
                return fn(s, *args)

        return await in_thread(run)

    async def _enqueue(self, job: botjobs.Job) -> None:
        try:

            def run(s: Any) -> None:
                botjobs.delete_for_match(s, job.match_id, below_seq=job.seq)
                botjobs.enqueue(s, job, utcnow())

            await self._in_db(run)
        except Exception:
            log.exception("bot job for match %s seq %d not enqueued", job.match_id, job.seq)
            if self._pending.get(job.match_id) == job.seq:
                del self._pending[job.match_id]
            return
        if self._local is not None:
            self._local.wakeup.set()
        if self._idle_wait and not self._listening():  # the collector sleeps long: poll from now on
            self._answers.set()

    def answered(self) -> None:
        """Collect now (thread-safe; called for an answer to one of this driver's jobs)."""
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed
                self._loop.call_soon_threadsafe(self._answers.set)

    async def _collector(self) -> None:
        config = self._config
        loop = asyncio.get_running_loop()
        last_sweep = loop.time()
        while True:
            sweep_every = config.sweep_seconds * (1.0 if self._pending else config.idle_sweep_factor)
            timeout = sweep_every if not self._pending or self._listening() else config.poll_seconds
            self._idle_wait = timeout > config.poll_seconds
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation that
            # arrives as the event is set, and this loop would then outlive stop() (a hang at shutdown).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._answers.wait()
            self._answers.clear()
            try:
                sweep = loop.time() - last_sweep >= sweep_every
                if sweep:
                    last_sweep = loop.time()
                await self._collect(sweep)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not self._db.health.failed(exc):  # an outage is logged once, by the database's health
                    log.exception("bot answers: collection failed")

    def _listening(self) -> bool:
        return self._db.url.startswith("postgresql") and self._local is None

    async def _collect(self, sweep: bool) -> None:
        jobs: list[botjobs.Job] = []
        if self._pending:
            jobs = await self._in_db(lambda s: botjobs.answered(s, creator=self.name))
        if sweep:
            before = utcnow() - timedelta(seconds=self._config.sweep_seconds)
            jobs += await self._in_db(_sweep, before)
            if self._pending:
                await self._forget_lost()
        seen: set[tuple[str, int]] = set()
        for job in jobs:
            if (job.match_id, job.seq) not in seen:
                seen.add((job.match_id, job.seq))
                await self._apply(job)

    async def _forget_lost(self) -> None:
        """Stop waiting for jobs that are gone (obsolete) or that no worker will answer (a bot that failed
        ``botjobs.MAX_ATTEMPTS`` times: the match waits for the clock or the human, as when a bot crashes)."""
        keys = list(self._pending.items())
        alive = await self._in_db(botjobs.live_keys, keys)
        for key in keys:
            if key not in alive and self._pending.get(key[0]) == key[1]:
                log.warning("bot job for match %s seq %d dropped (gone or failed)", *key)
                del self._pending[key[0]]

    async def _apply(self, job: botjobs.Job) -> None:
        assert job.action is not None
        try:
            applied = await self._act(job.match_id, job.seat, job.action, expected_seq=job.seq)
        except PlayError as exc:
            log.error("bot answer refused on match %s seq %d: %s", job.match_id, job.seq, exc.code)
            applied = False
        await self._in_db(botjobs.delete_job, job.match_id, job.seq)
        if self._pending.get(job.match_id) == job.seq:
            del self._pending[job.match_id]
        if not applied and not self._closed:  # the match moved on: is the bot due again?
            with contextlib.suppress(Exception):
                self.poke(await self._look(job.match_id))

    async def _listen(self) -> None:
        """PostgreSQL: wake the collector on NOTIFY for this driver's answers (reconnects on failure)."""
        from duelclub.store.listen import AsyncListenConnection  # no wake-up every 0.1 s while idle

        dsn = pg_dsn(self._db.url)
        while True:
            try:
                async with await AsyncListenConnection.connect(dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {botjobs.ANSWERS_CHANNEL}")
                    async for note in conn.notifies():
                        if note.payload == self.name:
                            self._answers.set()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # An outage is logged once, by the database's health when the pool's queries fail (not
                # from here: this connection is not the pool's, and its return would never be seen there).
                if not is_outage(exc):
                    log.warning("bot answers: LISTEN failed; retrying", exc_info=True)
                await asyncio.sleep(1.0)


def _sweep(s: Any, before: datetime) -> list[botjobs.Job]:
    """The sweep's reads and its clean-up in one transaction (issue 29 §1: an idle worker sweeps every
    second): the answers older than ``before`` whatever their creator, and the jobs of ended matches
    removed."""
    jobs = botjobs.answered(s, before=before)
    botjobs.delete_obsolete(s)
    return jobs


def _rng() -> Any:
    import random

    return random.Random(secrets.randbits(64))


class _LocalWorker:
    """FOR TESTS ONLY: the bot worker loop in a thread of this process, with an injected factory and the
    service's games (production bots think in bot worker processes, ``bots/worker.py``)."""

    def __init__(self, driver: BotDriver, factory: BotFactory) -> None:
        self.wakeup = PollWakeup()
        self.worker = BotWorker(
            driver._db,
            driver._game,
            lambda slug, level, _think: factory(slug, level),
            name=f"local-{driver.name}",
            lease_seconds=driver._config.lease_seconds,
            poll_seconds=driver._config.poll_seconds,
            wakeup=self.wakeup,
            on_answer=lambda job: driver.answered() if job.creator == driver.name else None,
        )
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self.worker.run, args=(self._stop,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.wakeup.close()
        self._thread.join(10)
