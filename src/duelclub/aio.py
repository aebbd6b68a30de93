"""Small asyncio helpers shared by the long-running parts of a worker (play/, web/)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Generic, TypeVar

T = TypeVar("T")


async def stop_task(task: asyncio.Task[None] | None) -> None:
    """Cancel a background task and wait until it has ended (its errors, if any, are not re-raised: a
    stopping worker only needs it gone). None is allowed (a task that never started)."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task


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
