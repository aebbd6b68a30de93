"""The moves committed from the event loop on a SQLite file (store/sqlite_writer.py, issue 29 §1 and §2): the
same rows and errors as the thread path, a taken write lock or a SQLite error hands the move to the thread
path without waiting or writing, the WAL is checkpointed off the loop, and a started match service commits
its moves this way."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from move_rows import AT, first_move_of_started_service, log_rows, match_row, move, next_move
from sqlalchemy import make_url

from duelclub.play.service import MatchService
from duelclub.play.threads import in_thread
from duelclub.store import hot_write, sqlite_writer
from duelclub.store import matches as repo
from duelclub.store.db import Database
from duelclub.store.sqlite_writer import SqliteMoveWriter


@pytest.fixture
def file_db(sqlite_url: str) -> Any:
    database = Database(sqlite_url)
    yield database
    database.dispose()


@pytest.fixture
async def writer(file_db: Database) -> AsyncIterator[SqliteMoveWriter]:
    moves = SqliteMoveWriter(file_db)
    await moves.start()
    yield moves
    await moves.stop()


def _path(db: Database) -> str:
    path = make_url(db.url).database
    assert path
    return path


def test_only_a_sqlite_file_whose_commits_do_not_fsync_is_written_from_the_loop(sqlite_url: str) -> None:
    for url, synchronous, wanted in (
        (sqlite_url, "NORMAL", True),
        (sqlite_url, "OFF", True),
        (sqlite_url, "FULL", False),  # every commit fsyncs: it would block the loop
    ):
        db = Database(url, sqlite_synchronous=synchronous)
        try:
            assert SqliteMoveWriter.wanted(db) is wanted, (url, synchronous)
        finally:
            db.dispose()


async def test_a_move_from_the_loop_stores_the_rows_of_the_thread_path(
    file_db: Database, writer: SqliteMoveWriter
) -> None:
    ids = match_row(file_db, "loop")
    match_row(file_db, "thread")
    deadline = AT + timedelta(minutes=2)
    for seq in (1, 2):
        at = AT + timedelta(seconds=seq)
        assert await writer.advance(move("loop", seq, ids[seq % 2], at), deadline) is True
        hot_write.store_action(file_db, move("thread", seq, ids[seq % 2], at), deadline_at=deadline)
    assert log_rows(file_db, "loop") == log_rows(file_db, "thread")
    assert log_rows(file_db, "loop")[0] == (deadline, 2, AT + timedelta(seconds=2))
    assert (writer.statements, writer.handed_over) == (2, 0)


async def test_a_taken_seq_and_an_ended_match_raise_the_thread_paths_errors(
    file_db: Database, writer: SqliteMoveWriter
) -> None:
    ids = match_row(file_db, "m1")
    await writer.advance(move("m1", 1, ids[0], AT), None)
    with pytest.raises(repo.SeqConflict):
        await writer.advance(move("m1", 1, ids[1], AT), None)
    ended = match_row(file_db, "m2", status="finished")
    with pytest.raises(repo.MatchNotActive):
        await writer.advance(move("m2", 1, ended[0], AT), None)
    assert await writer.advance(move("m1", 2, ids[1], AT), None) is True  # rolled back: the connection serves
    assert log_rows(file_db, "m1")[0][1] == 2 and log_rows(file_db, "m2")[1] == []


async def test_a_taken_write_lock_hands_the_move_over_without_waiting_or_writing(
    file_db: Database, writer: SqliteMoveWriter
) -> None:
    """Another connection holds the write lock (the thread path's writer, say): the loop does not wait for
    it (busy timeout 0: a wait would block every socket of the worker), writes nothing, and says so."""
    ids = match_row(file_db, "busy")
    other = sqlite3.connect(_path(file_db), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert await writer.advance(move("busy", 1, ids[0], AT), None) is False
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert log_rows(file_db, "busy")[1] == [] and writer.handed_over == 1
    assert await writer.advance(move("busy", 1, ids[0], AT), None) is True  # the lock is free again


async def test_a_sqlite_error_rolls_back_and_hands_the_move_over(
    file_db: Database, writer: SqliteMoveWriter, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = match_row(file_db, "disk")

    def full_disk(driver: sqlite3.Connection, *_args: Any) -> None:
        driver.execute("UPDATE matches SET last_seq = 99 WHERE id = 'disk'")  # a first statement went through
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(hot_write, "advance_sqlite", full_disk)
    assert await writer.advance(move("disk", 1, ids[0], AT), None) is False
    monkeypatch.undo()
    assert log_rows(file_db, "disk")[0][1] == 0  # rolled back
    assert await writer.advance(move("disk", 1, ids[0], AT), None) is True


async def test_the_wal_is_checkpointed_off_the_loop(
    file_db: Database, writer: SqliteMoveWriter, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop's connection never checkpoints (``wal_autocheckpoint=0``); every CHECKPOINT_EVERY commits
    a thread does, with the write lock (moves meanwhile take the thread path), so the WAL restarts from its
    beginning and stays small: 1,500 moves of ~5 pages each (the row, the match, their indexes) would grow
    it to ~30 MB without. (Each checkpoint is let finish before the next move: this loop writes back to
    back, where a server's loop has gaps between moves in which a checkpoint gets the lock.)"""
    monkeypatch.setattr(sqlite_writer, "CHECKPOINT_EVERY", 50)
    ids = match_row(file_db, "wal")
    wal = Path(_path(file_db) + "-wal")
    largest = 0
    for seq in range(1, 1501):
        record = move("wal", seq, ids[seq % 2], AT)
        if not await writer.advance(record, None):  # a checkpoint holds the lock: as play/commit.py does
            await in_thread(hot_write.store_action, file_db, record)
        if (checkpointer := writer._checkpointer) is not None:
            checkpointer.join(timeout=10)
        largest = max(largest, wal.stat().st_size)
    assert largest < 3_000_000, largest
    assert writer.statements + writer.handed_over == 1500 and writer.statements > 1000
    assert log_rows(file_db, "wal")[0][1] == 1500


async def test_a_started_service_commits_its_moves_from_the_loop(
    file_db: Database, service_factory: Callable[..., MatchService], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, mid, seq, threaded = await first_move_of_started_service(file_db, service_factory, monkeypatch)
    moves = service.writer.moves
    assert log_rows(file_db, mid)[0][1] == seq + 1
    # busy_timeout 0: a move that finds another connection writing at that instant (the accepted invite's
    # own side writes, on a loaded machine) goes to the thread path by design; the next ones, from the loop
    for _ in range(3):
        if moves.statements:
            break
        seq = await next_move(service, mid)
        assert log_rows(file_db, mid)[0][1] == seq + 1
    assert moves.statements >= 1, "no move was committed from the loop"
    assert threaded.count("_store") == moves.handed_over  # each move took exactly one of the two paths
