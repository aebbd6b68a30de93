"""The moves written from the event loop on PostgreSQL (store/pg_writer.py, issue 29 §1): the same rows and
errors as the thread path (store/hot_write.py), a caller's cancellation does not lose a write, a new pool
after an outage, and the match service writes its moves this way once started."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from move_rows import AT, first_move_of_started_service, log_rows, match_row, move

from duelclub.play.service import MatchService
from duelclub.store import hot_write
from duelclub.store import matches as repo
from duelclub.store.db import Database
from duelclub.store.pg_writer import PgMoveWriter

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.parametrize("database_url", ["postgresql"], indirect=True),  # conftest's, emptied
]


@pytest.fixture
def pg_db(database_url: str) -> Any:
    """The PostgreSQL test database, emptied (conftest's ``database_url``, PostgreSQL only here)."""
    database = Database(database_url)
    yield database
    database.dispose()


@pytest.fixture
async def writer(pg_db: Database) -> AsyncIterator[PgMoveWriter]:
    moves = PgMoveWriter(pg_db)
    await moves.start()
    yield moves
    await moves.stop()


async def test_a_move_from_the_loop_stores_the_rows_of_the_thread_path(
    pg_db: Database, writer: PgMoveWriter
) -> None:
    ids = match_row(pg_db, "loop")
    match_row(pg_db, "thread")
    deadline = AT + timedelta(minutes=2)
    for seq in (1, 2):
        at = AT + timedelta(seconds=seq)
        await writer.advance(move("loop", seq, ids[seq % 2], at), deadline)
        hot_write.store_action(pg_db, move("thread", seq, ids[seq % 2], at), deadline_at=deadline)
    assert log_rows(pg_db, "loop") == log_rows(pg_db, "thread")
    assert log_rows(pg_db, "loop")[0] == (deadline, 2, AT + timedelta(seconds=2))


async def test_a_taken_seq_and_an_ended_match_raise_the_thread_paths_errors(
    pg_db: Database, writer: PgMoveWriter
) -> None:
    ids = match_row(pg_db, "m1")
    await writer.advance(move("m1", 1, ids[0], AT), None)
    with pytest.raises(repo.SeqConflict):
        await writer.advance(move("m1", 1, ids[1], AT), None)
    ended = match_row(pg_db, "m2", status="finished")
    with pytest.raises(repo.MatchNotActive):
        await writer.advance(move("m2", 1, ended[0], AT), None)
    assert log_rows(pg_db, "m1")[0][1] == 1 and log_rows(pg_db, "m2")[1] == []


async def test_a_cancelled_write_is_stored_once_or_not_at_all(pg_db: Database, writer: PgMoveWriter) -> None:
    """A caller cancelled mid-write (its socket closed): the row is there or not, never twice, and the pool
    serves the next write."""
    ids = match_row(pg_db, "gone")
    for turns in (0, 1, 2, 3):  # cancelled at different points of the write
        caller = asyncio.ensure_future(writer.advance(move("gone", 1, ids[0], AT), None))
        for _ in range(turns):
            await asyncio.sleep(0)
        caller.cancel()
        with contextlib.suppress(asyncio.CancelledError, repo.SeqConflict):
            await caller
    with contextlib.suppress(repo.SeqConflict):  # the first copy may be in: the key refuses another
        await writer.advance(move("gone", 1, ids[0], AT), None)
    await writer.advance(move("gone", 2, ids[1], AT), None)
    assert [row[0] for row in log_rows(pg_db, "gone")[1]] == [1, 2]


async def test_after_an_outage_the_next_move_opens_a_new_pool(pg_db: Database, writer: PgMoveWriter) -> None:
    ids = match_row(pg_db, "back")
    await writer.advance(move("back", 1, ids[0], AT), None)
    first = writer._pool
    assert pg_db.health.failed(OSError("no")) is False  # not an outage: nothing changes
    pg_db.health.failed(psycopg.OperationalError("server closed the connection unexpectedly"))
    assert not writer.usable()  # down: the thread path takes the moves
    pg_db.health.ok()
    assert writer.usable()
    await writer.advance(move("back", 2, ids[1], AT), None)
    assert writer._pool is not first
    await writer.advance(move("back", 3, ids[0], AT), None)
    assert log_rows(pg_db, "back")[0][1] == 3


async def test_a_started_service_writes_its_moves_from_the_loop(
    pg_db: Database, service_factory: Callable[..., MatchService], monkeypatch: pytest.MonkeyPatch
) -> None:
    _service, mid, seq, threaded = await first_move_of_started_service(pg_db, service_factory, monkeypatch)
    assert "_store" not in threaded
    assert log_rows(pg_db, mid)[0][1] == seq + 1
