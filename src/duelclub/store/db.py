"""Engine and session factory (SQLite by default, PostgreSQL in production).

SQLite connections get ``PRAGMA foreign_keys=ON`` (both engines enforce the same constraints), WAL
journaling (readers never wait for the writer) and a busy timeout of :data:`SQLITE_BUSY_MS`. Writers take
the write lock up front (issue 13 §1.2): pysqlite's own transaction handling is switched off and SQLAlchemy's
``begin`` event emits ``BEGIN IMMEDIATE`` — SQLAlchemy's documented pysqlite recipe. A deferred transaction
that reads first and then writes cannot wait for a concurrent writer (SQLite answers ``database is locked``
at once, whatever the busy timeout: waiting would deadlock), which made HTTP 500s under load; an IMMEDIATE
one queues for the lock instead. Sessions that only read (:meth:`Database.read_session`: the session
look-up of every request, the match service's catch-up reads) begin with a plain deferred ``BEGIN``.

``Database.health`` (store/health.py) follows outages: the web layer and the background workers report
failures to it, the pool's ``connect`` and ``checkout`` events report signs of life (issue 31 §2).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker

from duelclub.store.health import StoreHealth

SQLITE_BUSY_MS = 10_000
"""How long a SQLite connection waits for the write lock before ``database is locked``."""
READ_ONLY = "duelclub_read_only"
"""Execution option of :meth:`Database.read_session`'s connections: a deferred ``BEGIN`` on SQLite."""


def _sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.isolation_level = None  # pysqlite emits no BEGIN of its own: _sqlite_begin does
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    cur.close()


def _sqlite_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get(READ_ONLY) else "BEGIN IMMEDIATE")


def _make_sqlite_folder(url: str) -> None:
    """Create the folder of a SQLite database file (the data directory of the embedded default) if it is
    missing; an in-memory database has none."""
    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)


def make_engine(url: str, pool_size: int = 5) -> Engine:
    """A SQLAlchemy engine for ``url`` (``sqlite:///…`` or ``postgresql+psycopg://…``).

    PostgreSQL: ``pool_size`` connections (the web app sizes it to its thread limit, so no thread waits for a
    connection) and a few more under a burst; no ping per checkout (a round trip on every transaction,
    issue 12) — connections are recycled after :data:`POOL_RECYCLE_SECONDS` instead, and one that died with
    its server fails its transaction once and is dropped from the pool."""
    if url.startswith("sqlite"):
        _make_sqlite_folder(url)
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 10}, pool_size=pool_size, max_overflow=2
        )
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(
        url, pool_size=pool_size, max_overflow=max(2, pool_size // 4), pool_recycle=POOL_RECYCLE_SECONDS
    )


POOL_RECYCLE_SECONDS = 1800


class Database:
    """Owns one engine and its session factory; closed with :meth:`dispose`."""

    def __init__(self, url: str, *, pool_size: int = 5) -> None:
        self.url = url
        self.engine = make_engine(url, pool_size)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.read_engine = self.engine.execution_options(**{READ_ONLY: True})
        self._read_sessions = sessionmaker(self.read_engine, expire_on_commit=False)
        self.health = StoreHealth()
        """Up or down, as this process last saw it (store/health.py)."""
        event.listen(self.engine, "connect", self._connected)
        event.listen(self.engine, "checkout", self._checked_out)

    def _connected(self, _dbapi_conn: Any, _record: Any) -> None:
        self.health.ok()

    def _checked_out(self, _dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
        if self.health.down_since is not None:
            self.health.ok(reused=True)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session; commits on success, rolls back on error."""
        with self._sessions() as s:
            try:
                yield s
                s.commit()
            except BaseException:
                s.rollback()
                raise

    @contextmanager
    def read_session(self) -> Iterator[Session]:
        """A session for reads only (on SQLite a deferred transaction, which takes no write lock: a write in
        it may fail with ``database is locked`` under load — use :meth:`session` to write)."""
        with self._read_sessions() as s:
            try:
                yield s
            finally:
                s.rollback()

    def dispose(self) -> None:
        self.engine.dispose()
