"""Which database errors are an outage, and the one log line per change of state (store/health.py, issue 31
§2) — without a server: the errors are built as SQLAlchemy and psycopg raise them."""

from __future__ import annotations

import logging

import psycopg
import pytest
from psycopg import errors as pg_errors
from sqlalchemy import exc as sa_exc

from duelclub.store.health import StoreHealth, describe, is_outage


def wrapped(orig: Exception, *, invalidated: bool = False) -> sa_exc.DBAPIError:
    """``orig`` as SQLAlchemy wraps a driver error."""
    return sa_exc.DBAPIError.instance(
        "SELECT 1", None, orig, psycopg.Error, connection_invalidated=invalidated
    )


REFUSED = psycopg.OperationalError('connection failed: connection to server at "127.0.0.1" failed: refused')


@pytest.mark.parametrize(
    "exc",
    [
        REFUSED,
        wrapped(REFUSED),
        psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly"),
        pg_errors.AdminShutdown("terminating connection due to administrator command"),
        pg_errors.CannotConnectNow("the database system is starting up"),
        pg_errors.TooManyConnections("sorry, too many clients already"),
        sa_exc.TimeoutError("QueuePool limit of size 5 overflow 2 reached, connection timed out"),
        wrapped(psycopg.InterfaceError("the connection is lost"), invalidated=True),
    ],
    ids=lambda e: type(e).__name__,
)
def test_an_unreachable_database_is_an_outage(exc: Exception) -> None:
    assert is_outage(exc)


@pytest.mark.parametrize(
    "exc",
    [
        wrapped(pg_errors.UniqueViolation("duplicate key")),
        wrapped(pg_errors.DeadlockDetected("deadlock detected")),
        wrapped(pg_errors.QueryCanceled("canceling statement due to statement timeout")),
        wrapped(pg_errors.UndefinedTable('relation "x" does not exist')),
        sa_exc.OperationalError("BEGIN", None, Exception("database is locked")),  # SQLite's, as pysqlite's
        ValueError("not a database error"),
    ],
    ids=lambda e: type(getattr(e, "orig", None) or e).__name__,
)
def test_other_database_errors_are_not(exc: Exception) -> None:
    assert not is_outage(exc)


def test_an_outage_is_found_behind_a_later_error_and_inside_a_group() -> None:
    try:
        try:
            raise wrapped(REFUSED)
        except sa_exc.DBAPIError:
            raise RuntimeError("rollback failed too") from None
    except RuntimeError as later:
        assert is_outage(later)  # the context (``from None`` hides it from the traceback, not from us)
    assert is_outage(ExceptionGroup("task group", [ValueError("x"), wrapped(REFUSED)]))


def test_describe_names_the_driver_error_in_one_line() -> None:
    assert describe(wrapped(REFUSED)).startswith("OperationalError: connection failed:")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def health_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "duelclub.store.health"]


def test_one_warning_when_the_outage_starts_and_one_when_the_database_is_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    clock = Clock()
    health = StoreHealth(clock=clock)
    health.ok()  # up: nothing to say
    assert all(health.failed(wrapped(REFUSED)) for _ in range(50))
    assert health.down
    clock.now += 3.5
    health.ok(reused=True)  # a pooled connection handed out proves nothing after a real outage
    assert health.down
    health.ok()  # a new connection was made
    health.ok()
    assert not health.down
    assert health_lines(caplog) == [
        f"database unavailable (OperationalError: {REFUSED}); requests get 503 store_unavailable until it"
        " is back",
        "database is back after 3.5 s",
    ]
    assert all(r.levelno == logging.WARNING and not r.exc_info for r in caplog.records)


def test_other_errors_change_nothing_and_log_nothing(caplog: pytest.LogCaptureFixture) -> None:
    health = StoreHealth()
    assert not health.failed(wrapped(pg_errors.UniqueViolation("duplicate key")))
    assert not health.down
    assert health_lines(caplog) == []


def test_a_pool_gone_dry_ends_with_the_next_connection_handed_out() -> None:
    health = StoreHealth()
    health.failed(sa_exc.TimeoutError("QueuePool limit reached"))
    health.ok(reused=True)
    assert not health.down


def test_a_real_outage_during_a_dry_pool_needs_a_new_connection_to_end() -> None:
    health = StoreHealth()
    health.failed(sa_exc.TimeoutError("QueuePool limit reached"))
    health.failed(REFUSED)
    health.ok(reused=True)
    assert health.down
    health.ok()
    assert not health.down
