"""Small asyncio helpers shared by the long-running parts of a worker (play/, web/)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from duelclub.store.health import is_outage

T = TypeVar("T")
log = logging.getLogger(__name__)


async def stop_task(task: asyncio.Task[None] | None) -> None:
    """Cancel a background task and wait until it has ended (its errors, if any, are not re-raised: a
    stopping worker only needs it gone). None is allowed (a task that never started). A cancellation of the
    caller itself is not swallowed."""
    if task is None:
        return
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            raise
    except Exception:
        log.debug("a stopped task ended with an error", exc_info=True)


class LeanQueue(Generic[T]):
    """An unbounded FIFO for one consumer on the event loop: ``put_nowait``, ``await get()``, ``empty()``
    (the part of ``asyncio.Queue`` that one reader needs). A list and, only while the reader waits, one
    future: an ``asyncio.Queue`` (three deques and an event) cost ~3 KB per open WebSocket, and every
    socket holds two (issue 12: memory per idle socket, tracemalloc under benchmarks/load.py)."""

    __slots__ = ("_waiter", "items")

    def __init__(self) -> None:
        self.items: list[T] = []
        """Queued items, oldest first (a consumer may peek or take several at once)."""
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self.items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self) -> None:
        """Until an item is queued."""
        while not self.items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None

    async def get(self) -> T:
        await self.wait()
        return self.items.pop(0)

    def empty(self) -> bool:
        return not self.items


Step = Callable[[], Awaitable["float | None"]]
"""One pass of a background loop; it may return the seconds to wait before the next pass (None: the loop's
``interval``)."""


class BackgroundLoop:
    """Runs ``step`` again and again in one task: :meth:`start` / :meth:`stop` (the clock sweeper, the
    matchmaker, presence heartbeats, lease renewal).

    - ``interval``: seconds between the end of one pass and the start of the next, unless the pass returns
      its own delay (a float, in seconds; floored at ``min_delay``).
    - ``first_delay``: wait before the first pass (default: none — run at once).
    - An exception in a pass is logged on ``logger`` (with its traceback) and the loop goes on; while the same
      step keeps failing, at most one log line per ``log_every`` seconds, the next one saying how many were
      left out. Cancellation (:meth:`stop`) ends the loop, even in the middle of a pass.
    - ``outage``: tells a store outage (default ``store.health.is_outage``; pass ``db.health.failed`` to
      report it to the database's health, which logs the outage once): such a failure is counted and logged
      at DEBUG only (issue 31 §2), the loop goes on.
    """

    def __init__(
        self,
        name: str,
        interval: float,
        step: Step,
        *,
        first_delay: float = 0.0,
        min_delay: float = 0.0,
        logger: logging.Logger | None = None,
        log_every: float = 60.0,
        outage: Callable[[BaseException], bool] = is_outage,
    ) -> None:
        self.name = name
        self.interval = interval
        self._step = step
        self._first_delay = first_delay
        self._min_delay = min_delay
        self._log = logger or log
        self._log_every = log_every
        self._outage = outage
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._last_logged: float | None = None
        self.failures = 0
        """Passes that raised since the loop was made (tests and metrics read it)."""
        self._unlogged = 0

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        """Start the task (once; a second call while it runs does nothing)."""
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """Cancel the task and wait until it has ended; the loop may be started again afterwards. The loop
        also ends at its next turn if a step swallowed the cancellation (on Python 3.11 ``asyncio.wait_for``
        does when the awaited event is set as the cancellation arrives): a stop never hangs."""
        task, self._task = self._task, None
        self._stopping = True
        await stop_task(task)

    async def _run(self) -> None:
        if self._first_delay > 0:
            await asyncio.sleep(self._first_delay)
        while not self._stopping:
            delay: float | None = None
            try:
                delay = await self._step()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._failed(exc)
            await asyncio.sleep(max(self._min_delay, self.interval if delay is None else delay))

    def _failed(self, exc: Exception) -> None:
        self.failures += 1
        if self._outage(exc):
            self._log.debug("%s: a pass failed: the database is unavailable", self.name)
            return
        now = time.monotonic()
        if self._last_logged is not None and now - self._last_logged < self._log_every:
            self._unlogged += 1
            return
        left_out, self._unlogged, self._last_logged = self._unlogged, 0, now
        more = f" ({left_out} more failures not logged)" if left_out else ""
        self._log.exception("%s: a pass failed%s", self.name, more)
