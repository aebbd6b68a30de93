"""The worker threads of blocking work (SQLAlchemy, replays) for the match service and the lobby modules."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from duelclub import i18n

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

    ``fn`` runs in the caller's language (duelclub.i18n): words written in the thread are the request's. Only
    the language is carried over, not the whole context (``asyncio.to_thread`` copies every context
    variable, and with them libraries' markers of an async context)."""
    call = partial(_in_lang, i18n.current_lang(), fn, *args)
    return await asyncio.get_running_loop().run_in_executor(_threads, call)


def _in_lang(lang: str, fn: Callable[..., _T], *args: Any) -> _T:
    with i18n.use_lang(lang):
        return fn(*args)
