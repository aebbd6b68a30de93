"""The worker threads of blocking work (SQLAlchemy, replays) for the match service and the lobby modules."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from duelclub import i18n

_T = TypeVar("_T")
_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", str, Callable[..., Any], tuple[Any, ...]]


class WorkerThreads:
    """``count`` threads taking jobs from one queue and handing each result back to the caller's event loop.

    Lighter than ``loop.run_in_executor`` on a ``ThreadPoolExecutor`` (issue 29 §1: the hand-off was a tenth
    of the CPU of an action): no ``concurrent.futures.Future`` (a ``threading.Condition`` and its lock per
    call) chained to an asyncio one, only the asyncio future, resolved by ``call_soon_threadsafe``. The
    threads start on first use and are daemons; :meth:`stop` (also run at interpreter exit) lets them finish
    the jobs queued so far and waits for them."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def submit(self, job: _Job) -> None:
        if len(self._threads) < self.count:
            self._start()
        self._jobs.put(job)

    def _start(self) -> None:
        with self._lock:
            while len(self._threads) < self.count:
                t = threading.Thread(target=self._work, name=f"db_{len(self._threads)}", daemon=True)
                t.start()
                self._threads.append(t)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            loop, fut, lang, fn, args = job
            try:
                with i18n.use_lang(lang):
                    result = fn(*args)
            except BaseException as exc:  # handed to the caller, as an executor would
                _resolve(loop, fut, None, exc)
            else:
                _resolve(loop, fut, result, None)
            del job, fut, fn, args

    def stop(self, timeout: float = 10.0) -> None:
        """Let the threads finish the queued jobs, then end them; waits up to ``timeout`` seconds in all
        (daemon threads: one stuck in a call does not hold the process's exit beyond that)."""
        with self._lock:
            threads, self._threads, self.count = self._threads, [], 0
        for _ in threads:
            self._jobs.put(None)
        deadline = time.monotonic() + timeout
        for t in threads:
            if t is not threading.current_thread():
                t.join(max(0.0, deadline - time.monotonic()))


def _resolve(loop: asyncio.AbstractEventLoop, fut: asyncio.Future[Any], result: Any, exc: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
        loop.call_soon_threadsafe(_settle, fut, result, exc)


def _settle(fut: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    if fut.cancelled():  # the caller gave up; the work itself stood (see in_thread)
        return
    if exc is not None:
        fut.set_exception(exc)
    else:
        fut.set_result(result)


_threads = WorkerThreads(32)
atexit.register(lambda: _threads.stop())


def use_threads(count: int) -> None:
    """Size the worker threads of :func:`in_thread` (the app sizes them to its database pool, issue 12 §2)."""
    global _threads
    if _threads.count != count:
        old, _threads = _threads, WorkerThreads(count)
        old.stop(timeout=0)  # its threads end once the jobs queued to them are done


async def in_thread(fn: Callable[..., _T], *args: Any) -> _T:
    """Run blocking work (SQLAlchemy, replays) in the service's worker threads (:class:`WorkerThreads`).

    Not ``anyio.to_thread``: on the hot path anyio's capacity limiter, cancel scope and backend look-ups cost
    more than the database write they wrap (each asks for the running loop, which on Python 3.11 is a
    ``getpid`` system call). Cancelling the caller does not stop the thread: its write commits or fails on
    its own, and the (match_id, seq) key keeps the log right either way.

    ``fn`` runs in the caller's language (duelclub.i18n): words written in the thread are the request's. Only
    the language is carried over, not the whole context (``asyncio.to_thread`` copies every context
    variable, and with them libraries' markers of an async context)."""
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[_T] = loop.create_future()
    _threads.submit((loop, fut, i18n.current_lang(), fn, args))
    return await fut
