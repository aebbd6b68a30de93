"""Move clocks across a store outage (issue 29 §6, play/clock.py ``ClockRearm``): a deadline that ran out
while the database was down is re-armed by the outage's length once it is back — by the sweeper before it
plays any timeout, and by a player's act that finds its match overdue — so no timeout is played for the
outage; the re-armed clock still runs out afterwards. The outage is the one ``db.health`` records (a pool
that ran dry, then a connection handed out again), on a :class:`FakeClock`: nothing sleeps. The real
outage, a private PostgreSQL cluster stopped under the app, is in tests/web/test_store_outage.py."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from fake_clock import FakeClock
from sqlalchemy import exc as sa_exc
from test_clock import T, _clocked, _log, _mover, _open, _row, _users

from duelclub.play.service import MatchService
from duelclub.store.db import Database
from duelclub.store.health import StoreHealth

OUTAGE = T + 10
"""Seconds the store is down: longer than a move's time, so the running clock runs out inside it."""


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def worker(db: Database, clock: FakeClock, service_factory: Callable[..., MatchService]) -> MatchService:
    db.health = StoreHealth(wall=clock)  # outages on the fake clock
    service = service_factory(db, bots=False)
    service.now = clock
    return service


def outage(db: Database, clock: FakeClock, seconds: float) -> None:
    """The store down for ``seconds`` as ``db.health`` sees it: a failure, time passing, a sign of life."""
    assert db.health.failed(sa_exc.TimeoutError("no connection free"))
    clock.advance(seconds)
    db.health.ok(reused=True)
    assert not db.health.down


async def test_a_clock_that_ran_out_during_an_outage_is_re_armed_not_played(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b)
    opened = await _open(worker, mid, [a, b])
    deadline = _row(db, mid).deadline_at
    assert deadline is not None
    clock.advance(5)
    outage(db, clock, OUTAGE)  # the deadline (T after the last move) passes inside it
    sweeper = worker.clock_sweeper()
    assert await sweeper.sweep() == 0
    assert len(_log(db, mid)) == opened
    assert _row(db, mid).deadline_at == deadline + timedelta(seconds=OUTAGE)
    assert worker.writer.rearm.rearmed == 1
    assert await sweeper.sweep() == 0  # once per outage
    assert _row(db, mid).deadline_at == deadline + timedelta(seconds=OUTAGE)
    # The re-armed clock runs: what was left at the outage's start (T - 5 s) runs out after it.
    clock.advance(T - 5)
    assert await sweeper.sweep() == 1
    assert _log(db, mid)[-1].source == "clock"


async def test_a_players_act_after_an_outage_is_not_refused_for_a_clock_that_ran_out_during_it(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b)
    opened = await _open(worker, mid, [a, b])
    uid, st = await _mover(worker, mid, [a, b])
    outage(db, clock, OUTAGE)
    after = await worker.act(mid, uid, "late-but-fair", st.seq, st.legal[0])  # no clock_expired
    assert after.seq == opened + 1
    assert [e.source for e in _log(db, mid)[opened:]] == ["player"]


async def test_a_clock_that_ran_out_before_the_outage_is_played_after_it(
    db: Database, worker: MatchService, clock: FakeClock
) -> None:
    a, b = _users(db, "alice", "bob")
    mid = await _clocked(worker, a, b)
    opened = await _open(worker, mid, [a, b])
    clock.advance(T + 1)  # ran out while the store was up: the timeout is due, outage or not
    outage(db, clock, 3)
    assert await worker.clock_sweeper().sweep() == 1
    assert len(_log(db, mid)) == opened + 1
