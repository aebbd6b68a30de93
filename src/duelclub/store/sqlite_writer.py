"""The hot path's write of a move on a SQLite file, from the event loop (issue 29 §1 and §2).

On SQLite a move's commit is ~20 µs of CPU (WAL, ``synchronous=NORMAL``: the commit writes its pages to the
WAL in the operating system's cache, no fsync), while handing it to a worker thread and back costs a futex
wake of the thread and the loop's self-pipe — on this VM ~100–200 µs of CPU each when the thread or the
loop was idle, as it is between the moves of a club evening. :class:`SqliteMoveWriter` therefore commits a
move that does not end its match on a connection of the event loop's own, without leaving the loop:
``BEGIN IMMEDIATE`` (the write lock), ``hot_write.advance_sqlite``'s two statements, ``COMMIT``.

It never waits on the loop. Its connection's busy timeout is 0: when another connection holds the write
lock (the one writer connection of store/db.py, serving the thread path: a final move, a chat line, a
lobby write), ``BEGIN IMMEDIATE`` fails at once and the move takes the thread path, queueing for the
writer connection first come first served as before. And it never checkpoints on the loop (a checkpoint
fsyncs the WAL and the database file): its ``wal_autocheckpoint`` is 0, and every
:data:`CHECKPOINT_EVERY` commits a thread of its own checkpoints on the thread path's writer connection
(:meth:`SqliteMoveWriter._checkpoint`), so the WAL stays as small as SQLite's own automatic checkpoints
keep it.
Any other SQLite error (a full disk, an I/O error) rolls the transaction back and hands the move to the
thread path too, which meets it as it always has (web/outage.py).

What survives what is unchanged (store/db.py): an acknowledged move is committed to the WAL before its
acknowledgement, so a ``kill -9`` loses nothing (benchmarks/kill9.py); a power cut may roll back the last
commits before a checkpoint. With ``SQLITE_SYNCHRONOUS=FULL`` every commit fsyncs, which would block the
loop: then (and for an in-memory database, which has no second connection) every move takes the thread
path.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from datetime import datetime

from sqlalchemy import make_url

from duelclub.store import hot_write
from duelclub.store.db import Database
from duelclub.store.matches import ActionRecord, MatchNotActive, SeqConflict

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 500
"""Loop commits between two checkpoints: a move writes ~2 pages to the WAL, so ~1,000 pages between them,
as SQLite's own automatic checkpoint (``wal_autocheckpoint`` 1,000)."""


class SqliteMoveWriter:
    """Writes the moves of this worker's matches on a SQLite file from the event loop (the module docstring).

    :meth:`start` opens the loop's connection, :meth:`stop` closes it; in between :meth:`usable` says
    whether a move may go this way. Counters: :attr:`statements` (loop commits), :attr:`handed_over`
    (moves that found the write lock taken, or met an error, and took the thread path)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._conn: sqlite3.Connection | None = None
        self._checkpointer: threading.Thread | None = None
        self._since_checkpoint = 0
        self.statements = 0
        """Transactions committed from the loop so far (for the tests' transaction counts)."""
        self.handed_over = 0

    @staticmethod
    def wanted(db: Database) -> bool:
        """Whether ``db`` is a SQLite file whose commits do not fsync (``synchronous`` NORMAL or OFF)."""
        return (
            db.engine.dialect.name == "sqlite"
            and db.one_writer
            and not _path(db).startswith("file:")
            and db.sqlite_synchronous.upper() in {"NORMAL", "OFF", "1", "0"}
        )

    async def start(self) -> None:
        conn = sqlite3.connect(_path(self.db), isolation_level=None, check_same_thread=False, timeout=0)
        for pragma in (
            "PRAGMA foreign_keys=ON",
            "PRAGMA journal_mode=WAL",
            f"PRAGMA synchronous={self.db.sqlite_synchronous}",
            "PRAGMA busy_timeout=0",  # never wait on the loop: a taken lock sends the move to the thread path
            "PRAGMA wal_autocheckpoint=0",  # never checkpoint on the loop: _request_checkpoint does
        ):
            conn.execute(pragma)
        self._conn = conn

    async def stop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=5.0)

    def usable(self) -> bool:
        """Started, and the store not known to be down (then the thread path takes the write)."""
        return self._conn is not None and self.db.health.down_since is None

    async def advance(self, record: ActionRecord, deadline_at: datetime | None) -> bool:
        """Commit a move that does not end its match on the loop's connection: True once committed; False
        when it could not be (the write lock taken, or a SQLite error: nothing written) — the caller then
        stores it through the thread path (``hot_write.store_action``). MatchNotActive / SeqConflict as
        there (the transaction rolled back)."""
        conn = self._conn
        assert conn is not None
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:  # SQLITE_BUSY: another connection is writing
            self.handed_over += 1
            return False
        try:
            hot_write.advance_sqlite(conn, self.db.engine.dialect, record, deadline_at)
            conn.execute("COMMIT")
        except (MatchNotActive, SeqConflict):
            conn.execute("ROLLBACK")
            raise
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self.handed_over += 1
            return False
        self.statements += 1
        self._since_checkpoint += 1
        if self._since_checkpoint >= CHECKPOINT_EVERY and self._checkpointer is None:
            self._since_checkpoint = 0
            self._checkpointer = threading.Thread(
                target=self._checkpoint, name="sqlite_checkpoint", daemon=True
            )
            self._checkpointer.start()
        return True

    def _checkpoint(self) -> None:
        """A ``RESTART`` checkpoint on the thread path's writer connection, in a thread of its own (it
        fsyncs): it holds the write lock while it copies the WAL into the database, so the loop's moves
        meanwhile find the lock taken and queue for that connection behind it (first come first served,
        as SQLite's own automatic checkpoint after a commit makes the next writers wait), and the next
        writer starts the WAL from its beginning — a ``PASSIVE`` checkpoint between moves that keep
        coming never catches up with them, and the WAL would grow without end."""
        try:
            raw = self.db.engine.raw_connection()  # the one writer connection (store/db.py)
            try:
                driver = raw.driver_connection
                assert driver is not None
                driver.execute("PRAGMA wal_checkpoint(RESTART)")
            finally:
                raw.close()
        except Exception:
            log.warning("SQLite checkpoint failed", exc_info=True)
        finally:
            self._checkpointer = None


def _path(db: Database) -> str:
    database = make_url(db.url).database
    assert database, "a SQLite file"
    return database
