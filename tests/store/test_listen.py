"""Connections that LISTEN without waking ten times a second (store/listen.py, issue 29 §1 and §4): a
notification still arrives at once, and an idle wait wakes the event loop once, not every 0.1 s."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import psycopg
import pytest

from duelclub.bots.worker import pg_dsn
from duelclub.store.listen import AsyncListenConnection, ListenConnection

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.parametrize("database_url", ["postgresql"], indirect=True),  # conftest's
]


def _notify_soon(dsn: str, channel: str, payload: str, after: float = 0.2) -> threading.Timer:
    def send() -> None:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))

    timer = threading.Timer(after, send)
    timer.start()
    return timer


def test_a_blocking_listener_gets_a_notification_at_once(database_url: str) -> None:
    dsn = pg_dsn(database_url)
    with ListenConnection.connect(dsn, autocommit=True) as conn:
        conn.execute("LISTEN listen_test_sync")
        _notify_soon(dsn, "listen_test_sync", "hello").join()
        notes = [n.payload for n in conn.notifies(timeout=5.0, stop_after=1)]
    assert notes == ["hello"]


async def _wakeups_while_idle(connection_class: Any, dsn: str, seconds: float) -> int:
    """How often the event loop's selector returned while a connection of ``connection_class`` waited
    ``seconds`` in ``notifies()`` with nothing to receive."""
    loop = asyncio.get_running_loop()
    selector = loop._selector  # type: ignore[attr-defined]  # the default loop of the tests
    selects = [0]
    original = selector.select

    def counting(timeout: float | None = None) -> Any:
        selects[0] += 1
        return original(timeout)

    async with await connection_class.connect(dsn, autocommit=True) as conn:
        await conn.execute("LISTEN listen_test_idle")
        selector.select = counting
        try:
            async for _ in conn.notifies(timeout=seconds):
                pass
        finally:
            selector.select = original
    return selects[0]


async def test_an_idle_asyncio_listener_does_not_wake_the_loop_every_tenth_of_a_second(
    database_url: str,
) -> None:
    dsn = pg_dsn(database_url)
    stock = await _wakeups_while_idle(psycopg.AsyncConnection, dsn, 1.0)
    quiet = await _wakeups_while_idle(AsyncListenConnection, dsn, 1.0)
    assert stock >= 8, stock  # psycopg's own: a step every 0.1 s
    assert quiet <= 3, quiet
    async with await AsyncListenConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute("LISTEN listen_test_async")
        timer = _notify_soon(dsn, "listen_test_async", "hi")
        notes = [n.payload async for n in conn.notifies(timeout=5.0, stop_after=1)]
        timer.join()
    assert notes == ["hi"]
