"""Password hashing off the database connection and behind its own limiter (issue 13 §1.1).

argon2 is deliberately slow: a login used to hold a pooled database connection while it ran, and a burst of
logins drained the pool (HTTP 500 for everybody). Here every hash and verification runs in a pool of
``HASH_CONCURRENCY`` threads of its own (more callers wait in its queue holding nothing: its own limiter),
and the auth routes open a database session only before and after it. The hashing threads run at a lower
CPU priority (nice +:data:`HASH_NICE`, Linux): during a burst the event loop and the database threads of
everybody else's requests come first.

The parameters are settings (``ARGON2_TIME_COST``, ``ARGON2_MEMORY_KIB``, ``ARGON2_PARALLELISM``; README):
by default argon2id with m = 19 MiB, t = 2, p = 1 — OWASP's first recommended profile. A stored hash made
with other parameters still verifies (they are part of the hash) and is replaced at the next good login.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from starlette.requests import HTTPConnection

from duelclub.settings import Settings
from duelclub.store import users

_T = TypeVar("_T")
HASH_NICE = 10
"""How much lower the hashing threads' CPU priority is than the rest of the process's."""


def _lower_priority() -> None:
    """Raise this thread's nice value (Linux threads have their own; elsewhere nothing happens)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICE)


class Hashing:
    """The app's password hashing (``app.state.hashing``): :meth:`hash`, :meth:`verify`, :meth:`rehash`."""

    def __init__(self, settings: Settings) -> None:
        self.hasher = users.make_hasher(
            time_cost=settings.ARGON2_TIME_COST,
            memory_kib=settings.ARGON2_MEMORY_KIB,
            parallelism=settings.ARGON2_PARALLELISM,
        )
        self._threads = ThreadPoolExecutor(
            max_workers=settings.HASH_CONCURRENCY, thread_name_prefix="argon2", initializer=_lower_priority
        )
        self._dummy: str | None = None

    async def _run(self, fn: Callable[..., _T], *args: object) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._threads, partial(fn, *args))

    async def hash(self, password: str) -> str:
        """The argon2id hash of ``password`` (a PHC string)."""
        return await self._run(self.hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches ``password_hash``. None (an unknown name) costs the same as a real
        check and is False, so timing does not tell which names exist."""
        if password_hash is None:
            if self._dummy is None:
                self._dummy = await self.hash("not a password of anyone")
            await self._run(users.verify_hash, self.hasher, self._dummy, password)
            return False
        return await self._run(users.verify_hash, self.hasher, password_hash, password)

    async def rehash(self, password_hash: str, password: str) -> str | None:
        """A new hash of ``password`` if ``password_hash`` (just verified) has other parameters; else None."""
        if not self.hasher.check_needs_rehash(password_hash):
            return None
        return await self.hash(password)


def get_hashing(conn: HTTPConnection) -> Hashing:
    """The app's :class:`Hashing`."""
    hashing: Hashing = conn.app.state.hashing
    return hashing
