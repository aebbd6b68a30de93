"""The hot path's write of a move on PostgreSQL, from the event loop (issue 29 §1).

:func:`duelclub.store.hot_write.store_action` runs in a worker thread: the hop there and back (a futex wake
of the thread, then the loop's self-pipe) and SQLAlchemy's pool checkout and return were ~20 % of an
action's CPU at 50 matches (py-spy; ``benchmarks/load.py --pg``: 2.1 → 1.7 ms per action in alternating
runs). :class:`PgMoveWriter` sends the same one prepared statement (``hot_write.PG_MOVE``: the guarded
``UPDATE matches`` and the ``INSERT`` into ``match_actions`` in one, autocommit) on an asyncio psycopg
connection from a small pool of its own (``psycopg_pool.AsyncConnectionPool``), awaited on the loop: one
round trip, no thread.

The price, measured: the statement's own waits now take turns of the loop (psycopg's asyncio waits), so
under load a move's answer waits behind the other sockets' work. At 500 matches on one worker (load 3) the
p99 went from 37–70 ms to 110–170 ms (p50 about the same, 4–7 ms) for 5–15 % less CPU per action; the
issue's bound is 300 ms. Pre-opened connections (4) and a larger pool (4 → 16: 119–130 ms) did not change it.

Only a move that does not end the match goes this way; a final move (rated in the same transaction) and
every write while the store is down (``db.health``: a store outage) take the thread path as before, so an
outage is met exactly as there: the first failure here is an outage error (psycopg's
``OperationalError``, or the pool's ``PoolTimeout`` — a subclass of it) which the socket reports
(web/outage.py) and tells ``db.health``; the next writes go the thread path, which fails fast while the
server is down, and whose first success says it is back. Once ``db.health`` has seen an outage end, the
next move opens a new pool (its connections died with the server, and its own reconnection may be waiting
out a back-off) and closes the old one in the background. The pool that met the outage is closed at once
(no reconnection attempts, each a WARNING of psycopg_pool's, while the thread path answers); the log keeps
``db.health``'s two lines per outage (issue 31 §2; tests/web/test_store_outage.py).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from duelclub.store.db import Database
from duelclub.store.health import is_outage
from duelclub.store.hot_write import PG_MOVE, move_row
from duelclub.store.matches import ActionRecord, MatchNotActive, SeqConflict

HOT_CONNECTIONS = 8
"""The most connections of a worker's move pool (it opens one, and more while moves wait for one). A move
holds one for one round trip: ~0.3 ms on an idle machine, 5–10 ms when PostgreSQL's backends wait for a
CPU, so at 500 matches on two busy cores ~4 are in use at once. Kept small: each is a PostgreSQL backend
(settings.py ``DB_POOL_SIZE``: two web workers and the bot workers share ``max_connections``)."""
CONNECTION_WAIT_SECONDS = 5.0
"""How long a move waits for a free connection (``PoolTimeout``, an outage: 503 ``store_unavailable``)."""


class PgMoveWriter:
    """Writes the moves of this worker's matches on PostgreSQL from the event loop (the module docstring).

    :meth:`start` opens the pool (without waiting for its first connection), :meth:`stop` closes it; in
    between :meth:`usable` says whether a move may go this way."""

    def __init__(self, db: Database, *, max_size: int = HOT_CONNECTIONS) -> None:
        self.db = db
        self.max_size = max_size
        self._pool: Any = None
        self._outages_seen = 0
        self._renewing = asyncio.Lock()
        self._closing: set[asyncio.Task[None]] = set()
        self.statements = 0
        """Statements sent so far (each one transaction: autocommit), for the tests' transaction counts."""

    @staticmethod
    def wanted(db: Database) -> bool:
        """Whether ``db`` is PostgreSQL (SQLite's writes stay on its one writer connection, in a thread)."""
        return db.engine.dialect.name == "postgresql"

    async def start(self) -> None:
        self._outages_seen = self.db.health.ended
        self._pool = await self._open()

    async def stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            self._close(pool)
        while self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)

    def usable(self) -> bool:
        """Started, and the store not known to be down (then the thread path takes the write)."""
        return self._pool is not None and self.db.health.down_since is None

    async def advance(self, record: ActionRecord, deadline_at: datetime | None) -> bool:
        """Store a move that does not end its match: ``hot_write.store_action``'s errors (MatchNotActive,
        SeqConflict; an outage's psycopg ``OperationalError``), from the loop; True (stored).

        Awaited in the caller's task, not shielded in one of its own: a task costs two more turns of the
        loop per move, which at 500 matches doubled the p99. A caller cancelled mid-write (its socket
        closed) leaves the write committed or not, as the thread path does; either way the cache has not
        taken the move, and the (match_id, seq) key refuses a second copy of it (the next act catches
        up, play/cache.py)."""
        if self.db.health.ended != self._outages_seen or self._pool.closed:
            await self._renew()
        import psycopg  # only where PostgreSQL is the database

        pool = self._pool
        try:
            async with pool.connection() as conn:
                self.statements += 1
                cur = await conn.execute(PG_MOVE, move_row(record, deadline_at), prepare=True)
        except psycopg.errors.UniqueViolation:
            raise SeqConflict(f"{record.match_id}#{record.seq}") from None
        except psycopg.OperationalError as exc:
            if is_outage(exc) and not pool.closed:  # no reconnecting until the store is back
                self._close(pool)
            raise
        if cur.rowcount != 1:
            raise MatchNotActive(record.match_id)
        return True

    async def _open(self) -> Any:
        from psycopg import AsyncConnection
        from psycopg_pool import AsyncConnectionPool

        conninfo = self.db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        pool = AsyncConnectionPool(
            conninfo,
            connection_class=AsyncConnection[Any],
            kwargs={"autocommit": True},
            min_size=1,
            max_size=self.max_size,
            timeout=CONNECTION_WAIT_SECONDS,
            name="moves",
            open=False,
        )
        await pool.open(wait=False)
        return pool

    async def _renew(self) -> None:
        """An outage ended since the pool was opened, or the pool was closed when it met one: a new pool;
        the old one closes in the background."""
        async with self._renewing:
            ended = self.db.health.ended
            if self._pool is None or (ended == self._outages_seen and not self._pool.closed):
                return
            old, self._pool = self._pool, await self._open()
            self._outages_seen = ended
            self._close(old)

    def _close(self, pool: Any) -> None:
        task = asyncio.ensure_future(pool.close(timeout=2.0))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
