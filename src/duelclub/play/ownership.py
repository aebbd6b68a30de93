"""Match ownership: each live match is owned by one worker at a time (issue 12 §3, DESIGN.md §Real time).

A lease per match lives in Redis: ``lease:match:{id}`` = ``"{worker id}:{token}"`` with a time to live
(:data:`LEASE_SECONDS`), set only if absent (``SET NX PX`` inside a script) with a fencing token from
``INCR lease:fence:{id}`` (that key expires :data:`FENCE_SECONDS` after the last new owner), so every new
owner of a match holds a larger token than any before it. The owner
renews its leases together (one pipeline per :data:`LEASE_SECONDS` / 3) and gives them up when their match
ends; a renewal only extends a lease that still holds this worker's token, so a worker that was frozen past
its lease learns it lost the match and stops calling itself the owner.

The lease follows the players (issue 29 §3): an owner that serves a player's act forwarded from a worker
which has a socket of the match, while it has none itself, hands the lease over to that worker (a new token,
``hand_over``; the answer carries the value, which the caller adopts). With a load balancer that sends
both players of a match to one worker (docs/architecture.md §Several workers) the match's writes and pushes
then stay on that worker: no forwarded act, no answer.

Ownership is what keeps the work of a match in one place (its acts, clock and bot answers, and the pushes,
computed once); it is not what keeps the log right. The log's guard is the ``(match_id, seq)`` key: a worker
can only append at the head of the log it has replayed, which is valid by construction whoever holds the
lease, so a worker that cannot reach Redis (or the owner) writes itself and loses nothing — at worst its
stale cache is refused once and catches up (play/commit.py). That is why the token is not written to the
database: the key already fences an ex-owner.

:class:`LocalLeases` (no Redis: one process) owns every match.
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from typing import Any, Protocol

from redis.asyncio import Redis

from duelclub.aio import BackgroundLoop

log = logging.getLogger(__name__)
LEASE_SECONDS = 15.0
OWNER_SEEN_SECONDS = LEASE_SECONDS / 3
"""How long a worker trusts the owner it saw (or that answered it) for a match before asking Redis again:
a renewal period of the owner's lease (``renew``: three per lease), so an owner that answered held a lease
good for at least as long again. It was 2 s: with two members thinking about a second each, the mover's
worker's view of the owner had usually just lapsed, and nearly every forwarded act first asked Redis
(a Lua script, ~6 % of a worker's busy CPU at 100 matches on two workers, py-spy; issue 29 §3). A worker
trusted wrongly — dead: the forward gets no answer and the act is written here; alive but no longer the
owner: it writes the act itself — is kept safe by the (match_id, seq) key, as every write is."""
OWNERS_REMEMBERED = 10_000
RETRY_AFTER_SECONDS = 1.0
"""After Redis failed, how long writes go ahead without asking it (the key guards them meanwhile)."""
FENCE_SECONDS = 8 * 86_400
"""How long a match's fence counter outlives its last new owner: longer than the longest move clock (7 days),
so a live match never restarts its tokens; a finished one leaves no key behind (a fresh-user run found one
``lease:fence:{id}`` left for every match ever played)."""
_ACQUIRE = """
local v = redis.call('GET', KEYS[1])
if not v then
  local t = redis.call('INCR', KEYS[2])
  redis.call('EXPIRE', KEYS[2], ARGV[#ARGV])
  redis.call('SET', KEYS[1], ARGV[1] .. ':' .. t, 'PX', ARGV[2])
  return {1, ARGV[1] .. ':' .. t}
end
if string.sub(v, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ':' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, v}
end
return {0, v}
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
_HAND_OVER = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
local t = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[#ARGV])
redis.call('SET', KEYS[1], ARGV[2] .. ':' .. t, 'PX', ARGV[3])
return ARGV[2] .. ':' .. t
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def lease_key(match_id: str) -> str:
    return f"lease:match:{match_id}"


def fence_key(match_id: str) -> str:
    return f"lease:fence:{match_id}"


class Leases(Protocol):
    """Who owns a match. ``worker_id`` is this process's id (also its forwarding channel's name)."""

    worker_id: str

    async def claim(self, match_id: str) -> str | None:
        """The owner of ``match_id`` after trying to take it: this worker's id (it owns it now, for at
        least the lease), another worker's id, or None when nobody can be asked (Redis unreachable)."""
        ...

    def owns(self, match_id: str) -> bool:
        """Whether this worker holds the lease (without asking Redis)."""
        ...

    def newly_owned(self, match_id: str) -> bool:
        """True once after this worker took ``match_id`` over (its cache may be behind: catch up)."""
        ...

    async def release(self, match_id: str) -> None:
        """Give the lease up (the match ended, or the cache dropped it)."""
        ...

    def forget(self, match_id: str) -> None:
        """Another worker seen as the owner did not answer: ask again next time."""
        ...

    async def hand_over(self, match_id: str, worker_id: str) -> str | None:
        """Give the lease this worker holds on ``match_id`` to worker ``worker_id``, with a new fencing
        token: the new lease value (``"{worker}:{token}"``, for that worker's :meth:`adopt`), or None when
        this worker does not hold it (or Redis could not be asked: it keeps the match)."""
        ...

    def adopt(self, match_id: str, value: str) -> None:
        """The owner handed this worker the lease ``value`` (:meth:`hand_over`): hold and renew it; the
        match's cache catches up before its next write (:meth:`newly_owned`)."""
        ...

    def confirm(self, match_id: str, owner: str) -> None:
        """Worker ``owner`` just answered a forwarded write saying it holds the lease: believe it for
        another while without asking Redis."""
        ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class LocalLeases:
    """One process, no Redis: this worker owns every match."""

    def __init__(self) -> None:
        self.worker_id = uuid.uuid4().hex[:16]

    async def claim(self, match_id: str) -> str | None:
        return self.worker_id

    def owns(self, match_id: str) -> bool:
        return True

    def newly_owned(self, match_id: str) -> bool:
        return False

    async def release(self, match_id: str) -> None:
        return None

    def forget(self, match_id: str) -> None:
        return None

    async def hand_over(self, match_id: str, worker_id: str) -> str | None:
        return None

    def adopt(self, match_id: str, value: str) -> None:
        return None

    def confirm(self, match_id: str, owner: str) -> None:
        return None

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


class RedisLeases:
    """Leases in Redis (module docstring). ``lease_seconds`` is the time to live of a lease."""

    def __init__(self, client: Redis, *, lease_seconds: float = LEASE_SECONDS) -> None:
        self.worker_id = uuid.uuid4().hex[:16]
        self._redis = client
        self._ttl_ms = int(lease_seconds * 1000)
        self._held: dict[str, str] = {}
        """match id → the lease value this worker holds (``"{worker}:{token}"``)."""
        self._fresh: set[str] = set()
        self._acquire: Any = client.register_script(_ACQUIRE)
        self._renew: Any = client.register_script(_RENEW)
        self._release: Any = client.register_script(_RELEASE)
        self._hand_over: Any = client.register_script(_HAND_OVER)
        every = self._ttl_ms / 3000  # three renewals per lease: one lost write does not lose the match
        self._renewal = BackgroundLoop("lease-renewal", every, self.renew, first_delay=every, logger=log)
        self._down_until = 0.0
        self._others: dict[str, tuple[str, float]] = {}
        """match id → (another worker that holds its lease, until when to believe it)."""

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> RedisLeases:
        client = Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2, health_check_interval=10)
        return cls(client, **kwargs)

    def token(self, match_id: str) -> int | None:
        """The fencing token of the lease this worker holds on ``match_id``."""
        held = self._held.get(match_id)
        return int(held.rsplit(":", 1)[1]) if held is not None else None

    def owns(self, match_id: str) -> bool:
        return match_id in self._held

    def newly_owned(self, match_id: str) -> bool:
        if match_id in self._fresh:
            self._fresh.discard(match_id)
            return True
        return False

    async def claim(self, match_id: str) -> str | None:
        if match_id in self._held:
            return self.worker_id
        known = self._others.get(match_id)
        if known is not None and known[1] > time.monotonic():
            return known[0]  # another worker's lease, seen a moment ago: no round trip per forwarded act
        if time.monotonic() < self._down_until:
            return None  # Redis failed a moment ago: do not make every act wait for its time-out
        try:
            took, value = await self._acquire(
                keys=[lease_key(match_id), fence_key(match_id)],
                args=[self.worker_id, self._ttl_ms, FENCE_SECONDS],
            )
        except Exception as exc:  # Redis unreachable: nobody can be asked
            self._down_until = time.monotonic() + RETRY_AFTER_SECONDS
            log.warning("leases: cannot reach Redis (%s); acting without a lease", type(exc).__name__)
            return None
        value = value.decode() if isinstance(value, bytes) else str(value)
        if took:
            self._held[match_id] = value
            self._fresh.add(match_id)
            return self.worker_id
        owner = value.rsplit(":", 1)[0]
        if len(self._others) > OWNERS_REMEMBERED:
            self._others.clear()
        self._others[match_id] = (owner, time.monotonic() + OWNER_SEEN_SECONDS)
        return owner

    def forget(self, match_id: str) -> None:
        """The owner seen for ``match_id`` did not answer: ask Redis again next time."""
        self._others.pop(match_id, None)

    def confirm(self, match_id: str, owner: str) -> None:
        """``owner`` answered a forwarded write and holds the lease: trust it for another
        :data:`OWNER_SEEN_SECONDS` (issue 29 §3: a player thinking a second or two between moves made the
        other worker ask Redis for the owner before nearly every forwarded act)."""
        known = self._others.get(match_id)
        if known is not None and known[0] == owner:
            self._others[match_id] = (owner, time.monotonic() + OWNER_SEEN_SECONDS)

    async def hand_over(self, match_id: str, worker_id: str) -> str | None:
        value = self._held.get(match_id)
        if value is None or worker_id == self.worker_id:
            return None
        try:
            given = await self._hand_over(
                keys=[lease_key(match_id), fence_key(match_id)],
                args=[value, worker_id, self._ttl_ms, FENCE_SECONDS],
            )
        except Exception as exc:  # Redis unreachable: keep the match (renewal will tell if it was lost)
            log.warning("leases: hand-over of %s failed (%s)", match_id, type(exc).__name__)
            return None
        if self._held.get(match_id) == value:
            del self._held[match_id]
            self._fresh.discard(match_id)
        if not given:  # the lease had lapsed or moved on: not ours to give
            return None
        given = given.decode() if isinstance(given, bytes) else str(given)
        self._others[match_id] = (worker_id, time.monotonic() + OWNER_SEEN_SECONDS)
        return given

    def adopt(self, match_id: str, value: str) -> None:
        if not value.startswith(f"{self.worker_id}:"):
            return
        self._others.pop(match_id, None)
        self._held[match_id] = value
        self._fresh.add(match_id)

    async def release(self, match_id: str) -> None:
        value = self._held.pop(match_id, None)
        self._fresh.discard(match_id)
        if value is not None:
            with contextlib.suppress(Exception):
                await self._release(keys=[lease_key(match_id)], args=[value])

    async def renew(self) -> None:
        """Extend every lease this worker holds (one pipeline); forget those it no longer holds."""
        held = list(self._held.items())
        if not held:
            return
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for match_id, value in held:
                    await self._renew(keys=[lease_key(match_id)], args=[value, self._ttl_ms], client=pipe)
                results = await pipe.execute()
        except Exception as exc:
            log.warning("leases: renewal failed (%s)", type(exc).__name__)
            return
        for (match_id, value), ok in zip(held, results, strict=True):
            if not ok and self._held.get(match_id) == value:
                del self._held[match_id]
                log.info("leases: lost match %s", match_id)

    async def start(self) -> None:
        await self._renewal.start()

    async def stop(self) -> None:
        await self._renewal.stop()
        for match_id in list(self._held):
            await self.release(match_id)
        with contextlib.suppress(Exception):
            await self._redis.aclose()
