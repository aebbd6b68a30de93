"""The loop of a background notice sender (issue 28, DESIGN.md §Notices): :meth:`start` / :meth:`stop`
(a background worker of the match service), :meth:`wake` (look now: the caller just committed work), and
the subclass's :meth:`run_once` (one pass: lease due rows, send them, mark them; how many it took). A full
pass is followed at once by another; otherwise the loop sleeps ``poll_seconds`` or until woken. A failing
pass is logged and the loop goes on (a database outage at debug level: the site reports it elsewhere).

The mail sender (notify/sender.py) and the push sender (notify/push_sender.py) run on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from duelclub.aio import stop_task
from duelclub.store.health import is_outage


class NoticeSender:
    """Runs :meth:`run_once` until stopped (module docstring). Subclasses set ``batch`` and
    ``poll_seconds`` and may open and close resources around the loop (:meth:`opened`, :meth:`closed`)."""

    batch = 10
    poll_seconds = 2.0
    log = logging.getLogger("duelclub.notify")

    def __init__(self) -> None:
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def wake(self) -> None:
        """Look for due rows now (call after committing one)."""
        self._wake.set()

    async def run_once(self) -> int:
        raise NotImplementedError

    async def opened(self) -> None:
        """Before the loop's first pass."""

    async def closed(self) -> None:
        """After the loop's last pass."""

    async def start(self) -> None:
        if self._task is None:
            self._wake, self._stopping = asyncio.Event(), False
            await self.opened()
            self._task = asyncio.create_task(self._run(), name=type(self).__name__)

    async def stop(self, grace: float = 10.0) -> None:
        """Let the pass under way finish (a database step cut off would leave its thread and transaction
        behind the stopped app), for at most ``grace`` seconds; then cancel."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self._wake.set()
        with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
            await asyncio.wait_for(asyncio.shield(task), grace)
        await stop_task(task)
        await self.closed()

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            try:
                while await self.run_once() >= self.batch and not self._stopping:
                    pass  # a full batch: more may be due
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if is_outage(exc):
                    self.log.debug("%s: the database is unavailable", type(self).__name__)
                else:
                    self.log.exception("%s: a pass failed", type(self).__name__)
            with contextlib.suppress(TimeoutError):  # asyncio.timeout: wait_for may swallow a cancellation
                async with asyncio.timeout(self.poll_seconds):
                    await self._wake.wait()
