"""The worker threads of blocking work (SQLAlchemy, replays) for the match service and the lobby modules."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

_T = TypeVar("_T")
_threads = ThreadPoolExecutor(max_workers=32, thread_name_prefix="db")


def use_threads(count: int) -> None:
    """Size the thread pool of :func:`in_thread` (the app sizes it to its database pool, issue 12 §2)."""
    global _threads
    if _threads._max_workers != count:
        old, _threads = _threads, ThreadPoolExecutor(max_workers=count, thread_name_prefix="db")
        old.shutdown(wait=False)


async def in_thread(fn: Callable[..., _T], *args: Any) -> _T:
    """Run blocking work (SQLAlchemy, replays) in the service's worker threads.

    A plain executor rather than ``anyio.to_thread``: on the hot path anyio's capacity limiter, cancel scope
    and backend look-ups cost more than the database write they wrap (each asks for the running loop, which
    on Python 3.11 is a ``getpid`` system call). Cancelling the caller does not stop the thread: its write
    commits or fails on its own, and the (match_id, seq) key keeps the log right either way.

    The work runs in a copy of the caller's context (as ``asyncio.to_thread`` does; a bare executor does
    not): the words it writes (options, reasons) are in the request's language (i18n.py), not always
    Russian — the Ukrainian lobby showed «колода: обычная» (issue 30 QA)."""
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(_threads, partial(context.run, fn, *args))
