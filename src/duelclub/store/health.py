"""Whether the database answers (issue 31 §2): which failures are an outage, and one log line per change.

:func:`is_outage` tells a store outage — the server unreachable or gone (a refused, dropped or closed
connection; PostgreSQL shutting down, starting up or out of connection slots: SQLSTATE classes 08 and 53 and
57P), or no pooled connection free within the pool's timeout — from every other database error (a
constraint, a deadlock, a bad statement, SQLite's «database is locked»), which stays a bug or a conflict and
is reported as before. It looks through the exception's cause and context chain and into exception groups (a
failure inside a task group, a rollback that failed after the error), and through SQLAlchemy's wrapper to the
driver's error (``DBAPIError.orig``); psycopg's own errors count too (the act path writes through the driver
connection, ``store/matches.py``).

:class:`StoreHealth` (one per :class:`~duelclub.store.db.Database`, ``db.health``) turns the failures and
successes it hears of into state changes: the first outage failure logs one WARNING «database unavailable …»,
the first sign of life after it («database is back after N s») another; nothing per request in between. A
sign of life is a new connection made by the pool (after an outage every pooled connection is gone, so the
first query that succeeds made one), or, after the pool ran dry, any connection handed out again.

It also keeps the outages it saw end, as wall-clock windows (``outages``: the last :data:`OUTAGES_KEPT`), for
the move clocks: a deadline that ran out while the store was down is re-armed afterwards (play/clock.py
``ClockRearm``, issue 29 §6), never played as a timeout for the outage.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

from sqlalchemy import exc as sa_exc

log = logging.getLogger(__name__)

OUTAGE_SQLSTATE_PREFIXES = ("08", "53", "57P")
"""SQLSTATEs of an unreachable server: connection exceptions (08), insufficient resources (53: too many
connections, out of memory or disk), operator intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03
cannot connect now — starting up or shutting down, 57P04 database dropped, 57P05 idle session timeout)."""
_MAX_DEPTH = 8
OUTAGES_KEPT = 16
"""How many ended outages :class:`StoreHealth` remembers (``outages``)."""


def _chain(exc: BaseException, depth: int = 0) -> Iterator[BaseException]:
    """``exc``, the errors it wraps (``orig``), its cause and context, and the members of exception groups."""
    if depth > _MAX_DEPTH:
        return
    yield exc
    if isinstance(exc, BaseExceptionGroup):
        for member in exc.exceptions:
            yield from _chain(member, depth + 1)
    orig = getattr(exc, "orig", None) if isinstance(exc, sa_exc.DBAPIError) else None
    for inner in (orig, exc.__cause__, exc.__context__):
        if isinstance(inner, BaseException) and inner is not exc:
            yield from _chain(inner, depth + 1)


def _driver_outage(exc: BaseException) -> bool:
    psycopg = sys.modules.get("psycopg")  # never imported where SQLite is the database: nothing to look for
    if psycopg is None or not isinstance(exc, psycopg.OperationalError):
        return False
    sqlstate: str | None = getattr(exc, "sqlstate", None)
    # No SQLSTATE: the client found the connection unusable (refused, closed, "consuming input failed").
    return sqlstate is None or sqlstate.startswith(OUTAGE_SQLSTATE_PREFIXES)


def outage_cause(exc: BaseException) -> BaseException | None:
    """The error in ``exc``'s chain that makes it a store outage, or None (see the module docstring)."""
    for found in _chain(exc):
        if isinstance(found, sa_exc.TimeoutError):  # QueuePool: no connection free within pool_timeout
            return found
        if isinstance(found, sa_exc.DBAPIError) and found.connection_invalidated:
            return found
        if _driver_outage(found):
            return found
    return None


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` means the database cannot be reached now (rather than a bug or a conflict)."""
    return outage_cause(exc) is not None


def describe(exc: BaseException) -> str:
    """``Type: first line of the message`` (at most 200 characters) of an outage's cause, for the log."""
    cause = outage_cause(exc) or exc
    if isinstance(cause, sa_exc.DBAPIError) and cause.orig is not None:
        cause = cause.orig
    text = str(cause).strip().splitlines()[0] if str(cause).strip() else ""
    return f"{type(cause).__name__}: {text}"[:200]


class StoreHealth:
    """The database's state as this process last saw it: up, or down since a moment (``down_since``, on
    ``clock``, time.monotonic by default). Thread-safe; :meth:`failed` and :meth:`ok` cost one attribute
    read while nothing changes."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._clock, self._wall = clock, wall
        self._lock = threading.Lock()
        self.down_since: float | None = None
        self._down_at: datetime | None = None
        self.outages: list[tuple[datetime, datetime]] = []
        """The last :data:`OUTAGES_KEPT` outages that ended: (down at, back at), aware UTC, oldest first."""
        self.ended = 0
        """How many outages ended so far (``outages`` keeps only the last few)."""
        self._pool_only = False
        """The outage so far is only a pool that ran dry (no new connection is needed to end it)."""

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def failed(self, exc: BaseException) -> bool:
        """True if ``exc`` is a store outage (:func:`is_outage`); the first one of an outage logs a WARNING.
        Any other error: False, and nothing is logged (the caller reports it as before)."""
        cause = outage_cause(exc)
        if cause is None:
            return False
        pool_only = isinstance(cause, sa_exc.TimeoutError)
        if self.down_since is not None and (pool_only or not self._pool_only):
            return True
        with self._lock:
            was_down = self.down_since is not None
            if not was_down:
                self.down_since, self._down_at = self._clock(), self._wall()
            self._pool_only = pool_only and (not was_down or self._pool_only)
        if not was_down:
            log.warning(
                "database unavailable (%s); requests get 503 store_unavailable until it is back",
                describe(exc),
            )
        return True

    def ok(self, *, reused: bool = False) -> None:
        """A sign of life: a new connection was made (``reused`` False), or one was handed out of the pool
        (``reused`` True: ends only an outage that was a pool gone dry). The first after an outage logs."""
        since = self.down_since
        if since is None or (reused and not self._pool_only):
            return
        with self._lock:
            since, self.down_since, self._pool_only = self.down_since, None, False
            if since is not None and self._down_at is not None:
                self.outages = [*self.outages, (self._down_at, self._wall())][-OUTAGES_KEPT:]
                self.ended += 1
        if since is not None:
            log.warning("database is back after %.1f s", self._clock() - since)
