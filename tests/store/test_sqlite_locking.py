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
