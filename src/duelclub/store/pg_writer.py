"""The hot path's write of a move on PostgreSQL, from the event loop (issue 29 §1).

:func:`duelclub.store.hot_write.store_action` runs in a worker thread: the hop there and back (a futex wake
of the thread, then the loop's self-pipe) and SQLAlchemy's pool checkout and return were ~20 % of an
action's CPU at 50 matches (py-spy; ``benchmarks/load.py --pg``: 2.1 → 1.7 ms per action in alternating
runs). :class:`PgMoveWriter` sends the same one prepared statement (``hot_write.PG_MOVE``: the guarded
``UPDATE matches`` and the ``INSERT`` into ``match_actions`` in one, autocommit) on an asyncio psycopg
connection from a small pool of its own (``psycopg_pool.AsyncConnectionPool``), awaited on the loop: one
round trip, no thread.

Only a move that does not end the match goes this way; a final move (rated in the same transaction) and
every write while the store is down (``db.health``: a store outage) take the thread path as before, so an
outage is met exactly as there: the first failure here is an outage error (psycopg's
``OperationalError``, or the pool's ``PoolTimeout`` — a subclass of it) which the socket reports
(web/outage.py) and tells ``db.health``; the next writes go the thread path, which fails fast while the
server is down, and whose first success says it is back. Once ``db.health`` has seen an outage end, the
next move opens a new pool (its connections died with the server, and its own reconnection may be waiting
out a back-off) and closes the old one in the background.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

from duelclub.store.db import Database
from duelclub.store.hot_write import PG_MOVE, move_row
from duelclub.store.matches import ActionRecord, MatchNotActive, SeqConflict

log = logging.getLogger(__name__)

HOT_CONNECTIONS = 4
"""Connections of a worker's move pool. A move's statement holds one for one round trip (~0.3 ms on this
machine), so 4 carry ~10,000 moves a second; more would only cost PostgreSQL backends (its default
``max_connections`` is 100 for two web workers, their thread pools and the bot workers)."""
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

    async def advance(self, record: ActionRecord, deadline_at: datetime | None) -> None:
        """Store a move that does not end its match: ``hot_write.store_action``'s result and errors
        (MatchNotActive, SeqConflict; an outage's psycopg ``OperationalError``), from the loop.

        The write runs on as a task if the caller is cancelled (a socket that closed): like the thread path
        it commits or fails on its own, and the (match_id, seq) key keeps the log right either way."""
        if self.db.health.ended != self._outages_seen:
            await self._renew()
        task = asyncio.ensure_future(self._advance(self._pool, record, deadline_at))
        task.add_done_callback(_retrieve)
        await asyncio.shield(task)

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
        """An outage ended since the pool was opened: a new pool; the old one closes in the background."""
        async with self._renewing:
            ended = self.db.health.ended
            if ended == self._outages_seen or self._pool is None:
                return
            old, self._pool = self._pool, await self._open()
            self._outages_seen = ended
            self._close(old)

    def _close(self, pool: Any) -> None:
        task = asyncio.ensure_future(pool.close(timeout=2.0))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _advance(self, pool: Any, record: ActionRecord, deadline_at: datetime | None) -> None:
        import psycopg  # only where PostgreSQL is the database

        try:
            async with pool.connection() as conn:
                self.statements += 1
                cur = await conn.execute(PG_MOVE, move_row(record, deadline_at), prepare=True)
        except psycopg.errors.UniqueViolation:
            raise SeqConflict(f"{record.match_id}#{record.seq}") from None
        if cur.rowcount != 1:
            raise MatchNotActive(record.match_id)


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Consume a finished write's error: its caller has it, or has gone (a closed socket's write)."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("move write failed: %r", task.exception())
