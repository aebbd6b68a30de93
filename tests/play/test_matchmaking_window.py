"""Rated matchmaking (issue 14 §3): rated seekers are paired only within a rating window that widens while
they wait (±200, +100 every 10 s), each seeker's window must hold the other; casual seekers are paired at
once whatever their ratings; rated and casual seekers never meet."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from fake_clock import FakeClock
from support import new_users

from duelclub.play import matchmaking
from duelclub.play.matchmaking import Matchmaker, Seeker, casual_pairs, rated_pairs, window
from duelclub.play.service import MatchService
from duelclub.store import lobby as qrepo
from duelclub.store.db import Database
from duelclub.store.models import MemberRating


def test_the_window_widens_by_100_every_10_seconds() -> None:
    assert [window(s) for s in (0, 9.99, 10, 19.9, 25, 60)] == [200, 200, 300, 300, 400, 800]
    assert window(-5) == 200


def _seeker(user_id: int, rating: float, win: int) -> Seeker:
    t = datetime(2026, 1, 1, tzinfo=UTC)
    entry = qrepo.QueueRecord(user_id, "duel", {}, None, "duel|rated", "", t, t, None, True)
    return Seeker(entry, rating, win)


def test_a_pair_kept_apart_by_a_block_is_skipped_for_the_next_oldest() -> None:
    old, blocked, other = _seeker(1, 1500, 200), _seeker(2, 1500, 200), _seeker(3, 1550, 200)
    apart = {frozenset((1, 2))}
    assert [(a.entry.user_id, b.entry.user_id) for a, b in rated_pairs([old, blocked, other], apart)] == [
        (1, 3)
    ]
    assert rated_pairs([old, blocked], apart) == []
    entries = [s.entry for s in (old, blocked, other)]
    assert [(a.user_id, b.user_id) for a, b in casual_pairs(entries, apart)] == [(1, 3)]
    assert [(a.user_id, b.user_id) for a, b in casual_pairs(entries)] == [(1, 2)]


def test_both_seekers_windows_must_hold_the_other() -> None:
    a, b = _seeker(1, 1500, 200), _seeker(2, 1800, 200)
    assert rated_pairs([a, b]) == []
    assert rated_pairs([_seeker(1, 1500, 300), _seeker(2, 1800, 300)]) != []
    assert rated_pairs([_seeker(1, 1500, 400), _seeker(2, 1800, 200)]) == [], (
        "the newcomer's window is narrower"
    )


def test_the_oldest_seeker_takes_the_oldest_fitting_opponent() -> None:
    old, far, near, nearer = (
        _seeker(1, 1500, 200),
        _seeker(2, 2000, 600),
        _seeker(3, 1650, 200),
        _seeker(4, 1520, 200),
    )
    pairs = rated_pairs([old, far, near, nearer])
    assert [(a.entry.user_id, b.entry.user_id) for a, b in pairs] == [(1, 3)]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def svc(db: Database, clock: FakeClock, service_factory: Callable[..., MatchService]) -> MatchService:
    service = service_factory(db, bots=False)
    service.now = clock
    return service


def _rate(db: Database, user_id: int, rating: float, clock: FakeClock) -> None:
    with db.session() as s:
        s.add(
            MemberRating(
                user_id=user_id, game="duel", rating=rating, rd=80, volatility=0.06, matches=12,
                wins=6, draws=0, losses=6, best=rating, streak=0, last_rated_at=clock(),
            )
        )  # fmt: skip


async def test_rated_seekers_300_apart_meet_once_their_windows_have_widened(
    db: Database, svc: MatchService, clock: FakeClock
) -> None:
    a, b = new_users(db, "mma", "mmb")
    _rate(db, b, 1800, clock)  # a has no rating yet: 1500
    await matchmaking.join(svc, a, game="duel", options={}, move_seconds=None)
    clock.advance(5)
    status = await matchmaking.join(svc, b, game="duel", options={}, move_seconds=None)
    assert (status.status, status.window, status.rating and status.rating.rating) == ("waiting", 200, 1800)
    maker = Matchmaker(svc)
    assert await maker.pair() == []
    clock.advance(5)  # a has waited 10 s (window 300), b only 5 s (200)
    assert await maker.pair() == []
    clock.advance(5)  # now both have 300
    (mid,) = await maker.pair()
    live = await svc.fresh(mid)
    assert live.record.rated and set(live.record.seat_users) == {a, b}
    assert (await matchmaking.status(svc, a)).match_id == mid


async def test_casual_seekers_meet_at_once_whatever_their_ratings_and_never_rated_ones(
    db: Database, svc: MatchService, clock: FakeClock
) -> None:
    a, b, c = new_users(db, "cza", "czb", "czc")
    _rate(db, b, 2400, clock)
    await matchmaking.join(svc, a, game="duel", options={}, move_seconds=None, rated=False)
    await matchmaking.join(svc, c, game="duel", options={}, move_seconds=None)  # rated: another pool
    status = await matchmaking.join(svc, b, game="duel", options={}, move_seconds=None, rated=False)
    assert status.status == "matched" and status.window is None
    live = await svc.fresh(status.match_id or "")
    assert not live.record.rated and set(live.record.seat_users) == {a, b}
    assert (await matchmaking.status(svc, c)).status == "waiting"


async def test_the_background_pass_sleeps_longer_while_fewer_than_two_wait(
    db: Database, svc: MatchService, clock: FakeClock
) -> None:
    """Issue 29 §1: with none or one entry waiting nothing can pair until a join (which runs its own pass),
    so the background pass sleeps IDLE_SECONDS; with two waiting (windows still apart) it keeps its
    interval."""
    a, b = new_users(db, "ida", "idb")
    _rate(db, b, 1900, clock)
    maker = Matchmaker(svc, interval=0.5, idle=7.0)
    assert await maker._pass() == 7.0  # nobody waits
    await matchmaking.join(svc, a, game="duel", options={}, move_seconds=None)
    assert await maker._pass() == 7.0  # one waits
    await matchmaking.join(svc, b, game="duel", options={}, move_seconds=None)
    assert await maker._pass() is None  # two wait, 400 apart: their windows widen with time
    assert matchmaking.IDLE_SECONDS >= 1.0
