"""The hot path's write of one action (issue 12 §2, issue 29 §1): straight to the driver, past SQLAlchemy's
Session and compiler, one round trip on PostgreSQL. The rows and records are those of store/matches.py."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import Connection

from duelclub.store.db import Database
from duelclub.store.health import is_outage
from duelclub.store.matches import ActionRecord, Finish, MatchNotActive, SeqConflict, append_action
from duelclub.store.models import MatchAction


def store_action(
    db: Database, record: ActionRecord, *, finish: Finish | None = None, deadline_at: datetime | None = None
) -> None:
    """The hot path's one transaction (issue 12 §2): :func:`append_action` and its commit.

    The statements go straight to the driver, past SQLAlchemy's Session and compiler (issue 12 §2: a third
    of the CPU of the ORM path; issue 29 §1). A move that does not end the match: on PostgreSQL one prepared
    statement in autocommit (:func:`_advance_pg`: one round trip), on SQLite its two statements on the one
    writer connection (:func:`_advance_sqlite`). A final move: on PostgreSQL the same SQL as
    :func:`append_action` in one transaction; on other databases (and SQLite) :func:`append_action` in a
    Session. Raises MatchNotActive / SeqConflict as :func:`append_action`."""
    dialect = db.engine.dialect.name
    if dialect == "sqlite" and finish is None:
        with db.engine.begin() as conn:  # BEGIN IMMEDIATE (store/db.py) on the one writer connection
            _advance_sqlite(conn, record, deadline_at)
        return
    if dialect != "postgresql":
        with db.session() as s:
            append_action(s, record, finish=finish, deadline_at=deadline_at)
        return
    if finish is None:
        with db.engine.connect() as conn, _driver(conn) as driver:
            _advance_pg(driver, record, deadline_at)
        return
    with db.engine.begin() as conn, _driver(conn) as driver:
        _append_pg(driver, record, finish, deadline_at)


@contextlib.contextmanager
def _driver(conn: Connection) -> Iterator[Any]:
    """``conn``'s driver connection. A driver error of a store outage (store/health.py) invalidates ``conn``
    before it is returned: SQLAlchemy never saw the error (the statement went past it), and would roll the
    dead connection back on return — which fails, and logs an ERROR with a traceback for every connection the
    outage cut (issue 29 §6: benchmarks/chaos.py --pg-restart)."""
    try:
        yield conn.connection.driver_connection
    except Exception as exc:
        if is_outage(exc):
            conn.invalidate(exc)
        raise


_PG_FINISH = (
    "UPDATE matches SET status = %s, result = %s, finished_at = %s, deadline_at = NULL,"
    " last_seq = %s, last_action_at = %s WHERE id = %s AND status = 'active'"
)
_PG_INSERT = (
    "INSERT INTO match_actions (match_id, seq, seat, action, source, client_action_id, user_id, created_at)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
)

_SQLITE_ADVANCE = (
    "UPDATE matches SET deadline_at = ?, last_seq = ?, last_action_at = ? WHERE id = ? AND status = 'active'"
)
_SQLITE_INSERT = (
    "INSERT INTO match_actions (match_id, seq, seat, action, source, client_action_id, user_id, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)

PG_MOVE = (  # a move that does not end the match: one statement, one round trip (see _advance_pg)
    "WITH m AS (UPDATE matches SET deadline_at = %s, last_seq = %s, last_action_at = %s"
    " WHERE id = %s AND status = 'active' RETURNING id)"
    " INSERT INTO match_actions (match_id, seq, seat, action, source, client_action_id, user_id, created_at)"
    " SELECT m.id, %s, %s, %s::json, %s, %s, %s, %s FROM m"
)

PG_HOT_STATEMENTS = (PG_MOVE, _PG_FINISH, _PG_INSERT)
"""Every statement :func:`store_action` sends past SQLAlchemy (tests audit them with the rest)."""
SQLITE_HOT_STATEMENTS = (_SQLITE_ADVANCE, _SQLITE_INSERT)
"""The same on SQLite (a move that does not end the match; the final one takes :func:`append_action`)."""


def _sqlite_binds(dialect: Any) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """The bind processors SQLAlchemy itself applies to ``match_actions.created_at`` (and every UTC datetime
    column) and ``action`` on this dialect, so a row written past it reads back exactly the same."""
    found = _SQLITE_BINDS.get(id(dialect))
    if found is None:
        cols = MatchAction.__table__.c
        when = cols.created_at.type.bind_processor(dialect) or (lambda v: v)
        as_json = cols.action.type.bind_processor(dialect) or (lambda v: v)
        found = _SQLITE_BINDS[id(dialect)] = (when, as_json)
    return found


_SQLITE_BINDS: dict[int, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {}


def _advance_sqlite(conn: Any, record: ActionRecord, deadline_at: datetime | None) -> None:
    """:func:`append_action` of a move that does not end the match, on SQLite: its two statements straight
    to the driver on the transaction's connection (pysqlite keeps them prepared in its statement cache),
    with SQLAlchemy's own bind processors — no Session, no compilation (issue 29 §1: the store write as one
    prepared statement)."""
    advance_sqlite(conn.connection.driver_connection, conn.dialect, record, deadline_at)


def advance_sqlite(
    driver: sqlite3.Connection, dialect: Any, record: ActionRecord, deadline_at: datetime | None
) -> None:
    """The two statements of a move that does not end the match on the pysqlite connection ``driver``, inside
    the caller's transaction, with ``dialect``'s bind processors (the rows SQLAlchemy itself would write).
    Raises MatchNotActive (no active match of that id) and SeqConflict (the seq or client id is taken)."""
    when, as_json = _sqlite_binds(dialect)
    cur = driver.cursor()
    try:
        advance = (when(deadline_at), record.seq, when(record.created_at), record.match_id)
        cur.execute(_SQLITE_ADVANCE, advance)
        if cur.rowcount != 1:
            raise MatchNotActive(record.match_id)
        row = (
            record.match_id,
            record.seq,
            record.seat,
            as_json(record.action),
            record.source,
            record.client_action_id,
            record.user_id,
            when(record.created_at),
        )
        try:
            cur.execute(_SQLITE_INSERT, row)
        except sqlite3.IntegrityError:
            raise SeqConflict(f"{record.match_id}#{record.seq}") from None
    finally:
        cur.close()


def move_row(record: ActionRecord, deadline_at: datetime | None) -> tuple[Any, ...]:
    """The parameters of :data:`PG_MOVE` for ``record`` (a move that does not end its match)."""
    return (
        deadline_at,
        record.seq,
        record.created_at,
        record.match_id,
        record.seq,
        record.seat,
        orjson.dumps(record.action, option=orjson.OPT_NON_STR_KEYS).decode(),
        record.source,
        record.client_action_id,
        record.user_id,
        record.created_at,
    )


def _advance_pg(conn: Any, record: ActionRecord, deadline_at: datetime | None) -> None:
    """:func:`append_action` of a move that does not end the match, on a psycopg connection out of any
    transaction: one prepared statement in autocommit (the guarded UPDATE and the INSERT in one, so
    atomic), one round trip instead of four (BEGIN, UPDATE, INSERT, COMMIT; issue 29 §1). No row
    inserted: the match is no longer active; a unique violation: the seq or client id is taken. (The same
    from the event loop: store/pg_writer.py; SQLite's: store/sqlite_writer.py.)"""
    import psycopg  # only where PostgreSQL is the database

    conn.autocommit = True
    try:
        with conn.cursor() as cur:
            try:
                cur.execute(PG_MOVE, move_row(record, deadline_at), prepare=True)
            except psycopg.errors.UniqueViolation:
                raise SeqConflict(f"{record.match_id}#{record.seq}") from None
            if cur.rowcount != 1:
                raise MatchNotActive(record.match_id)
    finally:
        with contextlib.suppress(psycopg.Error):  # a broken connection: its own error went up already
            conn.autocommit = False


def _append_pg(conn: Any, record: ActionRecord, finish: Finish, deadline_at: datetime | None) -> None:
    """:func:`append_action` of a final move on a psycopg connection inside the caller's transaction."""
    import psycopg  # only where PostgreSQL is the database

    with conn.cursor() as cur:
        result = orjson.dumps(finish.result, option=orjson.OPT_NON_STR_KEYS).decode()
        ended = (finish.status, result, finish.at, record.seq, record.created_at, record.match_id)
        cur.execute(_PG_FINISH, ended, prepare=True)
        if cur.rowcount != 1:
            raise MatchNotActive(record.match_id)
        row = (
            record.match_id,
            record.seq,
            record.seat,
            orjson.dumps(record.action, option=orjson.OPT_NON_STR_KEYS).decode(),
            record.source,
            record.client_action_id,
            record.user_id,
            record.created_at,
        )
        try:
            cur.execute(_PG_INSERT, row, prepare=True)
        except psycopg.errors.UniqueViolation:
            raise SeqConflict(f"{record.match_id}#{record.seq}") from None
