"""Engine and session factory (SQLite by default, PostgreSQL in production).

SQLite connections get ``PRAGMA foreign_keys=ON`` (both engines enforce the same constraints), WAL
journaling (readers never wait for the writer) and a busy timeout of :data:`SQLITE_BUSY_MS`. Writers take
the write lock up front (issue 13 §1.2): pysqlite's own transaction handling is switched off and SQLAlchemy's
``begin`` event emits ``BEGIN IMMEDIATE`` — SQLAlchemy's documented pysqlite recipe. A deferred transaction
that reads first and then writes cannot wait for a concurrent writer (SQLite answers ``database is locked``
at once, whatever the busy timeout: waiting would deadlock), which made HTTP 500s under load; an IMMEDIATE
one queues for the lock instead. Sessions that only read (:meth:`Database.read_session`: the session
look-up of every request, the match service's catch-up reads) begin with a plain deferred ``BEGIN``.

One writer (issue 29 §2): a SQLite file has one write lock, and threads that queue for it inside SQLite
wait in its busy handler, which sleeps in steps of up to 100 ms and serves no one in order — under load a
write could wait seconds while others got in (p99 2.9 s against PostgreSQL's 0.4 s at 50 matches). So a
SQLite :class:`Database` writes through an engine of exactly one connection: writers queue for it in the
pool, first come first served, and never wait inside SQLite; reads go through a pool of their own (WAL:
readers never wait for the writer). The one exception: the moves that the event loop commits itself
(store/sqlite_writer.py) on a connection that never waits — it tries the lock, and hands the move to the
writer connection when the lock is taken. ``PRAGMA synchronous=NORMAL``: in WAL mode a commit is then written
to the WAL without an fsync, the WAL being synced at checkpoints. What survives what (SQLite's own
guarantee, https://www.sqlite.org/pragma.html#pragma_synchronous): a process killed at any point
(``kill -9``, a crash) loses no committed transaction, because the WAL is in the operating system's
cache, which outlives the process — and an action is acknowledged only after its commit, so nothing
acknowledged is lost (benchmarks/kill9.py proves it); a power cut or a kernel crash may roll back the
last commits before the last checkpoint (the database stays consistent, never corrupt). A club that
needs acknowledged moves to survive a power cut runs PostgreSQL, or sets ``SQLITE_SYNCHRONOUS=FULL``.

``Database.health`` (store/health.py) follows outages: the web layer and the background workers report
failures to it, the pool's ``connect`` and ``checkout`` events report signs of life (issue 31 §2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
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


WRITER_WAIT_SECONDS = 30
"""How long a SQLite write waits for the one writer connection before the pool's TimeoutError (an outage
to the web layer: 503 ``store_unavailable``)."""


def _sqlite_pragmas(synchronous: str) -> Callable[[Any, Any], None]:
    def connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # pysqlite emits no BEGIN of its own: _sqlite_begin does
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        cur.close()

    return connect


def _in_memory(url: str) -> bool:
    database = make_url(url).database
    return not database or database == ":memory:" or "mode=memory" in url


def _sqlite_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get(READ_ONLY) else "BEGIN IMMEDIATE")


def _make_sqlite_folder(url: str) -> None:
    """Create the folder of a SQLite database file (the data directory of the embedded default) if it is
    missing; an in-memory database has none."""
    database = make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)


def make_engine(url: str, pool_size: int = 5, *, synchronous: str = "NORMAL", writer: bool = False) -> Engine:
    """A SQLAlchemy engine for ``url`` (``sqlite:///…`` or ``postgresql+psycopg://…``).

    SQLite: ``synchronous`` is the ``PRAGMA synchronous`` of its connections; ``writer`` makes the engine of
    the one writer connection (``pool_size`` ignored; see the module docstring).

    PostgreSQL: ``pool_size`` connections (the web app sizes it to its thread limit, so no thread waits for a
    connection) and a few more under a burst; no ping per checkout (a round trip on every transaction,
    issue 12) — connections are recycled after :data:`POOL_RECYCLE_SECONDS` instead, and one that died with
    its server fails its transaction once and is dropped from the pool."""
    if url.startswith("sqlite"):
        _make_sqlite_folder(url)
        sizes = {"pool_size": 1, "max_overflow": 0, "pool_timeout": WRITER_WAIT_SECONDS} if writer else {
            "pool_size": pool_size, "max_overflow": 2
        }  # fmt: skip
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10}, **sizes)
        event.listen(engine, "connect", _sqlite_pragmas(synchronous))
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(
        url, pool_size=pool_size, max_overflow=max(2, pool_size // 4), pool_recycle=POOL_RECYCLE_SECONDS
    )


POOL_RECYCLE_SECONDS = 1800


class Database:
    """Owns one engine and its session factory; closed with :meth:`dispose`."""

    def __init__(self, url: str, *, pool_size: int = 5, sqlite_synchronous: str = "NORMAL") -> None:
        self.url = url
        one_writer = url.startswith("sqlite") and not _in_memory(url)
        self.one_writer = one_writer
        """A SQLite file: writes go through one writer connection (the module docstring)."""
        self.sqlite_synchronous = sqlite_synchronous
        """SQLite's ``PRAGMA synchronous`` of every connection (ignored on PostgreSQL)."""
        self.engine = make_engine(url, pool_size, synchronous=sqlite_synchronous, writer=one_writer)
        """The engine that writes (on a SQLite file: the one writer connection)."""
        readers = make_engine(url, pool_size, synchronous=sqlite_synchronous) if one_writer else self.engine
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.read_engine = readers.execution_options(**{READ_ONLY: True})
        self._read_sessions = sessionmaker(self.read_engine, expire_on_commit=False)
        self.health = StoreHealth()
        """Up or down, as this process last saw it (store/health.py)."""
        for engine in {self.engine, readers}:
            event.listen(engine, "connect", self._connected)
            event.listen(engine, "checkout", self._checked_out)
        self._readers = readers

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
        self._readers.dispose()
