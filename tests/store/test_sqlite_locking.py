"""SQLite writers take the write lock up front (issue 13 §1.2): two transactions that read and then write at
the same time both commit — with deferred transactions the second failed at once with «database is locked»
(HTTP 500s under a 50-match load), whatever the busy timeout."""

from __future__ import annotations

import contextlib
import threading

from sqlalchemy import func, select, text

from duelclub.store.db import Database
from duelclub.store.models import User


def _read_then_write(
    db: Database, name: str, both_read: threading.Barrier, errors: list[BaseException]
) -> None:
    try:
        with db.session() as s:
            s.scalar(select(func.count()).select_from(User))
            # with BEGIN IMMEDIATE the other one waits for our lock instead of reading alongside
            with contextlib.suppress(threading.BrokenBarrierError):
                both_read.wait(timeout=1.0)
            s.add(User(username=name, username_key=name, username_skeleton=name, password_hash="x"))
            s.flush()
    except BaseException as exc:
        errors.append(exc)


def test_two_read_then_write_transactions_both_commit(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    try:
        barrier, errors = threading.Barrier(2), []
        threads = [
            threading.Thread(target=_read_then_write, args=(db, name, barrier, errors))
            for name in ("ann", "bea")
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert errors == []
        with db.read_session() as s:
            assert s.scalar(select(func.count()).select_from(User)) == 2
    finally:
        db.dispose()


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    try:
        with db.read_session() as s:
            assert s.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert s.execute(text("PRAGMA busy_timeout")).scalar() >= 5000
    finally:
        db.dispose()


def test_sqlite_writes_through_one_connection_in_turn_and_reads_beside_it(sqlite_url: str) -> None:
    """Issue 29 §2: writers queue for the one writer connection (first come, first served) instead of
    sleeping in SQLite's busy handler; a reader is not held up by a writer in progress."""
    db = Database(sqlite_url)
    try:
        assert (db.engine.pool.size(), db.engine.pool._max_overflow) == (1, 0)  # type: ignore[attr-defined]
        order: list[int] = []
        started = threading.Barrier(9)

        def write(i: int) -> None:
            started.wait(5)
            with db.session() as s:
                s.add(
                    User(username=f"u{i}", username_key=f"u{i}", username_skeleton=f"u{i}", password_hash="x")
                )
                s.flush()  # the writer connection is taken here
                order.append(i)

        with db.session() as s:
            s.execute(text("SELECT 1"))
            threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
            for t in threads:
                t.start()
            started.wait(5)
            with db.read_session() as r:  # while the writer is taken: a reader still reads
                assert r.scalar(select(func.count()).select_from(User)) == 0
            assert order == []  # every writer waits for ours
        for t in threads:
            t.join(30)
        assert sorted(order) == list(range(8))
        with db.read_session() as s:
            assert s.scalar(select(func.count()).select_from(User)) == 8
    finally:
        db.dispose()


def test_sqlite_synchronous_is_normal_unless_full_is_asked(sqlite_url: str) -> None:
    for asked, pragma in (("NORMAL", 1), ("FULL", 2)):
        db = Database(sqlite_url, sqlite_synchronous=asked)
        try:
            with db.session() as s:
                assert s.execute(text("PRAGMA synchronous")).scalar() == pragma
            with db.read_session() as s:
                assert s.execute(text("PRAGMA synchronous")).scalar() == pragma
        finally:
            db.dispose()
