"""Engine and session factory (SQLite by default, PostgreSQL in production).

SQLite connections get ``PRAGMA foreign_keys=ON`` and WAL journaling through a connect event, so both
engines enforce the same constraints.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def make_engine(url: str, pool_size: int = 5) -> Engine:
    """A SQLAlchemy engine for ``url`` (``sqlite:///…`` or ``postgresql+psycopg://…``).

    PostgreSQL: ``pool_size`` connections (the web app sizes it to its thread limit, so no thread waits for a
    connection) and a few more under a burst; no ping per checkout (a round trip on every transaction,
    issue 12) — connections are recycled after :data:`POOL_RECYCLE_SECONDS` instead, and one that died with
    its server fails its transaction once and is dropped from the pool."""
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 10}, pool_size=pool_size, max_overflow=2
        )
        event.listen(engine, "connect", _sqlite_pragmas)
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

    def dispose(self) -> None:
        self.engine.dispose()
