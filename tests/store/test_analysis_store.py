"""``match_analyses`` on SQLite and PostgreSQL (issue 17 §4; store/analysis.py): asked for once, leased to one
worker at a time, stored once, guarded by the lease token like the bot jobs."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from duelclub.play import lobby
from duelclub.play.service import MatchService
from duelclub.store import analysis as store
from duelclub.store import users
from duelclub.store.db import Database
from duelclub.store.models import utcnow


async def _match(db: Database, service: MatchService) -> str:
    with db.session() as s:
        a, b = (users.create_user(s, n, "password123").id for n in ("anna", "boris"))
    created = await lobby.create_match(service, a, game="duel", vs="invite", options={})
    assert created.invite_token is not None
    match_id, _ = await lobby.accept_invite(service, created.invite_token, b, "c0ffee")
    return match_id


async def test_request_take_store_release(db: Database, service_factory: Callable[..., MatchService]) -> None:
    mid = await _match(db, service_factory(db, bots=False))
    now = utcnow()
    with db.session() as s:
        assert store.get(s, mid) is None
        store.request(s, mid, "duel", now)
        store.request(s, mid, "duel", now + timedelta(seconds=1))  # idempotent
    with db.session() as s:
        job = store.take(s, "w1", now, 60)
        assert job is not None and job.attempts == 1
        assert store.take(s, "w2", now, 60) is None, "leased to one worker at a time"
    with db.session() as s:
        assert store.release(s, job, now - timedelta(seconds=1))
    with db.session() as s:
        again = store.take(s, "w2", now, 60)
        assert again is not None and again.attempts == 2
        assert not store.store(s, job, [{"seq": 1}], 10, now), "an old lease cannot store"
        assert store.store(s, again, [{"seq": 1}], 10, now)
    with db.session() as s:
        row = store.get(s, mid)
        assert row is not None and row.entries == [{"seq": 1}] and row.iterations == 10
        assert store.take(s, "w3", now + timedelta(hours=1), 60) is None, "a stored analysis is done"


async def test_an_analysis_is_given_up_after_its_attempts(
    db: Database, service_factory: Callable[..., MatchService]
) -> None:
    """Each failed attempt releases it; after MAX_ATTEMPTS takes it is never due again, and once no worker
    holds it (the last release's retry time passed), it reads as given up — not pending forever."""
    mid = await _match(db, service_factory(db, bots=False))
    now = utcnow()
    with db.session() as s:
        store.request(s, mid, "duel", now)
    for attempt in range(1, store.MAX_ATTEMPTS + 1):
        at = now + timedelta(minutes=attempt)  # each retry after the previous release's retry time
        with db.session() as s:
            job = store.take(s, f"w{attempt}", at, 60)
            assert job is not None and job.attempts == attempt
            row = store.get(s, mid)
            assert row is not None and not row.given_up(at), "a worker holds it"
            assert store.release(s, job, at + timedelta(seconds=30))
    last = now + timedelta(minutes=store.MAX_ATTEMPTS)
    with db.session() as s:
        assert store.take(s, "late", last + timedelta(hours=1), 60) is None
        row = store.get(s, mid)
        assert row is not None and row.entries is None
        assert not row.given_up(last), "the last release's retry time has not come"
        assert row.given_up(last + timedelta(minutes=1))
