"""Small asyncio helpers shared by the long-running parts of a worker (play/, web/)."""

from __future__ import annotations

import asyncio
import contextlib


async def stop_task(task: asyncio.Task[None] | None) -> None:
    """Cancel a background task and wait until it has ended (its errors, if any, are not re-raised: a
    stopping worker only needs it gone). None is allowed (a task that never started)."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
