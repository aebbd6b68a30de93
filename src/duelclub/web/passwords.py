"""Password hashing off the database connection and behind its own limiter (issue 13 §1.1).

argon2 is deliberately slow: a login used to hold a pooled database connection while it ran, and a burst of
logins drained the pool (HTTP 500 for everybody). Here every hash and verification runs in a worker thread
of its own, at most ``HASH_CONCURRENCY`` at a time per process (an anyio ``CapacityLimiter``; more callers
wait in line holding nothing), and the auth routes open a database session only before and after it.

The parameters are settings (``ARGON2_TIME_COST``, ``ARGON2_MEMORY_KIB``, ``ARGON2_PARALLELISM``; README):
by default argon2id with m = 19 MiB, t = 2, p = 1 — OWASP's first recommended profile. A stored hash made
with other parameters still verifies (they are part of the hash) and is replaced at the next good login.
"""

from __future__ import annotations

from anyio import CapacityLimiter, to_thread
from starlette.requests import HTTPConnection

from duelclub.settings import Settings
from duelclub.store import users


class Hashing:
    """The app's password hashing (``app.state.hashing``): :meth:`hash`, :meth:`verify`, :meth:`rehash`."""

    def __init__(self, settings: Settings) -> None:
        self.hasher = users.make_hasher(
            time_cost=settings.ARGON2_TIME_COST,
            memory_kib=settings.ARGON2_MEMORY_KIB,
            parallelism=settings.ARGON2_PARALLELISM,
        )
        self.limiter = CapacityLimiter(settings.HASH_CONCURRENCY)
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        """The argon2id hash of ``password`` (a PHC string)."""
        return await to_thread.run_sync(self.hasher.hash, password, limiter=self.limiter)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches ``password_hash``. None (an unknown name) costs the same as a real
        check and is False, so timing does not tell which names exist."""
        if password_hash is None:
            if self._dummy is None:
                self._dummy = await self.hash("not a password of anyone")
            await to_thread.run_sync(
                users.verify_hash, self.hasher, self._dummy, password, limiter=self.limiter
            )
            return False
        return await to_thread.run_sync(
            users.verify_hash, self.hasher, password_hash, password, limiter=self.limiter
        )

    async def rehash(self, password_hash: str, password: str) -> str | None:
        """A new hash of ``password`` if ``password_hash`` (just verified) has other parameters; else None."""
        if not self.hasher.check_needs_rehash(password_hash):
            return None
        return await self.hash(password)


def get_hashing(conn: HTTPConnection) -> Hashing:
    """The app's :class:`Hashing`."""
    hashing: Hashing = conn.app.state.hashing
    return hashing
