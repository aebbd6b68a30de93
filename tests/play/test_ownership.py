"""Match ownership across workers (issue 12 §3; play/ownership.py, play/forward.py): two workers racing for
one lease get one owner; an act reaching the other worker is forwarded to the owner and answered through it
(the other worker touches neither the database nor the engine); when the owner dies, the other worker
writes itself, takes the lease once it expires, and nothing acknowledged is lost. Real Redis, real
databases (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from support import duel_between, new_users, transactions

from duelclub.bus.redis import RedisBus
from duelclub.play.ownership import FENCE_SECONDS, OWNER_SEEN_SECONDS, RedisLeases, fence_key, lease_key
from duelclub.play.service import MatchService
from duelclub.store import matches as repo
from duelclub.store.db import Database

pytestmark = pytest.mark.redis


@asynccontextmanager
async def worker(
    url: str, redis_url: str, service_factory: Callable[..., MatchService], lease_seconds: float = 15.0
) -> AsyncIterator[tuple[MatchService, Database]]:
    """A worker: its own engine, Redis bus and Redis leases, on the shared database."""
    db = Database(url)
    bus = await RedisBus.connect(redis_url)
    leases = RedisLeases.from_url(redis_url, lease_seconds=lease_seconds)
    service = service_factory(db, bus, bots=False, leases=leases)
    await service.start()
    try:
        yield service, db
    finally:
        await service.stop()
        await bus.close()
        db.dispose()


async def _turn(service: MatchService, mid: str, uids: dict[int, int]) -> tuple[int, int, dict[str, Any]]:
    st = await service.state(mid, None, None)
    (seat,) = st.to_move
    mine = await service.state(mid, uids[seat], None)
    return uids[seat], mine.seq, mine.legal[0]


async def _owned_by(
    one: MatchService, db: Database, names: tuple[str, str], cid: str
) -> tuple[str, dict[int, int], int]:
    """A fresh duel of two new members whose first act ``cid`` goes through ``one`` (taking the lease):
    (match id, seat → user id, the seq stored)."""
    a, b = new_users(db, *names)
    mid = await duel_between(one, a, b)
    uids = {0: a, 1: b}
    uid, seq, action = await _turn(one, mid, uids)
    assert await one.act_seq(mid, uid, cid, seq, action) == seq + 1  # one takes the lease
    return mid, uids, seq + 1


async def test_two_workers_racing_for_one_lease_get_one_owner(redis_url: str) -> None:
    one, two = RedisLeases.from_url(redis_url), RedisLeases.from_url(redis_url)
    try:
        for _ in range(10):
            mid = secrets.token_hex(6)
            owners = await asyncio.gather(one.claim(mid), two.claim(mid))
            assert owners[0] == owners[1]
            assert owners[0] in (one.worker_id, two.worker_id)
            assert one.owns(mid) != two.owns(mid)
            holder = one if one.owns(mid) else two
            token = holder.token(mid)
            await holder.release(mid)
            other = two if holder is one else one
            other.forget(mid)  # it saw the holder a moment ago (kept OWNER_SEEN_SECONDS): ask Redis again
            assert await other.claim(mid) == other.worker_id  # free again: taken, with a larger token
            assert (other.token(mid) or 0) > (token or 0)
            await other.release(mid)
    finally:
        await one.stop()
        await two.stop()


async def test_an_act_on_another_worker_is_forwarded_to_the_owner(
    database_url: str, redis_url: str, service_factory: Callable[..., MatchService]
) -> None:
    async with (
        worker(database_url, redis_url, service_factory) as (one, db_one),
        worker(database_url, redis_url, service_factory) as (two, db_two),
    ):
        mid, uids, _ = await _owned_by(one, db_one, ("owna", "ownb"), "first")
        assert one.leases.owns(mid) and not two.leases.owns(mid)
        uid, seq, action = await _turn(one, mid, uids)
        sub = await two.bus.subscribe(f"match:{mid}")
        with transactions(db_one, one) as on_one, transactions(db_two, two) as on_two:
            assert await two.act_seq(mid, uid, "second", seq, action) == seq + 1
        assert (two.forwarder.forwarded, one.forwarder.served) == (1, 1)
        assert on_one[0] == 1 and on_two[0] == 0  # the owner's one commit; nothing on the other worker
        notice = await asyncio.wait_for(sub.get(), 5)
        if notice["type"] == "resync":  # one kept the first change back while nobody else listened
            notice = await asyncio.wait_for(sub.get(), 5)
        assert notice["seq"] == seq + 1 and set(notice["push"]) == {"0", "1"}  # built by the owner
        await sub.close()
        # A resend of the same id through the other worker answers the same seq and stores nothing.
        assert await two.act_seq(mid, uid, "second", seq, action) == seq + 1
        with db_one.session() as s:
            assert repo.last_seq(s, mid) == seq + 1


async def test_when_the_owner_dies_the_other_worker_continues_and_takes_the_lease(
    database_url: str, redis_url: str, service_factory: Callable[..., MatchService]
) -> None:
    async with worker(database_url, redis_url, service_factory, lease_seconds=1.0) as (two, db_two):
        two.forwarder.timeout = 0.5
        acked: list[int] = []
        async with worker(database_url, redis_url, service_factory, lease_seconds=1.0) as (one, _):
            a, b = new_users(db_two, "deada", "deadb")
            mid = await duel_between(one, a, b)
            uids = {0: a, 1: b}
            uid, seq, action = await _turn(one, mid, uids)
            acked.append(await one.act_seq(mid, uid, "m1", seq, action))
            assert one.leases.owns(mid)
            # The owner dies: it stops answering and renewing, and never releases its lease.
            await one.forwarder.stop()
            assert one.leases._renewal.running
            await one.leases._renewal.stop()
            one.leases._held.clear()
            uid, seq, action = await _turn(two, mid, uids)
            acked.append(await two.act_seq(mid, uid, "m2", seq, action))  # no answer → written here
            assert not two.leases.owns(mid)
        await asyncio.sleep(1.2)  # the dead owner's lease expires
        uid, seq, action = await _turn(two, mid, uids)
        acked.append(await two.act_seq(mid, uid, "m3", seq, action))
        assert two.leases.owns(mid)
        assert acked == [1, 2, 3]
        with db_two.session() as s:
            stored = repo.actions_after(s, mid)
        assert [x.seq for x in stored] == [1, 2, 3]
        assert [x.client_action_id.split(":")[1] for x in stored if x.client_action_id] == ["m1", "m2", "m3"]


async def test_a_lease_is_released_when_its_match_ends(
    database_url: str, redis_url: str, service_factory: Callable[..., MatchService]
) -> None:
    async with worker(database_url, redis_url, service_factory) as (one, db):
        a, b = new_users(db, "enda", "endb")
        mid = await duel_between(one, a, b)
        live = await one.get_live(mid)
        await one.act_seq(mid, a, "r", live.seq, {"kind": "resign"})
        async with asyncio.timeout(5):  # released off the hot path, after the answer
            while one.leases.owns(mid):
                await asyncio.sleep(0.01)
        import redis.asyncio as aredis

        client = aredis.Redis.from_url(redis_url)
        try:
            assert await client.get(lease_key(mid)) is None
        finally:
            await client.aclose()


async def test_an_owner_that_answers_holding_the_lease_is_believed_again_without_redis(
    database_url: str, redis_url: str, service_factory: Callable[..., MatchService], monkeypatch: Any
) -> None:
    """Issue 29 §3: the owner's answer to a forwarded act says it holds the lease, and the other worker
    trusts it for another OWNER_SEEN_SECONDS — members thinking a second or two between moves made it ask
    Redis before nearly every forwarded act. An owner that no longer holds the lease does not renew it."""
    async with (
        worker(database_url, redis_url, service_factory) as (one, db_one),
        worker(database_url, redis_url, service_factory) as (two, _),
    ):
        mid, uids, _ = await _owned_by(one, db_one, ("helda", "heldb"), "h1")
        asked: list[str] = []
        acquire = two.leases._acquire  # type: ignore[attr-defined]

        async def counted(*args: Any, **kwargs: Any) -> Any:
            asked.append(kwargs["keys"][0])
            return await acquire(*args, **kwargs)

        monkeypatch.setattr(two.leases, "_acquire", counted)
        seen = two.leases._others  # type: ignore[attr-defined]

        async def forwarded_act(cid: str) -> float:
            """A forwarded act with the sighting about to lapse; the time it started."""
            if mid in seen:
                seen[mid] = (seen[mid][0], time.monotonic() + 0.5)
            started = time.monotonic()
            uid, seq, action = await _turn(one, mid, uids)
            assert await two.act_seq(mid, uid, cid, seq, action) == seq + 1
            return started

        for n in (2, 3):  # the fake duel lasts 4 to 6 actions
            started = await forwarded_act(f"h{n}")
            assert seen[mid][0] == one.leases.worker_id
            assert seen[mid][1] >= started + OWNER_SEEN_SECONDS  # believed again after the answer
        assert len(asked) == 1 and two.forwarder.forwarded == 2  # Redis asked once
        await one.leases.release(mid)  # one no longer holds it: its next answer says so
        started = await forwarded_act("h4")
        assert seen[mid][1] < started + OWNER_SEEN_SECONDS  # not renewed
        assert len(asked) == 1


async def test_the_lease_follows_the_players_to_the_worker_their_sockets_are_on(
    database_url: str, redis_url: str, service_factory: Callable[..., MatchService]
) -> None:
    """Issue 29 §3: an owner with no socket of a match hands its lease to the worker whose socket sent the
    act (a new fencing token), so the next acts there run without a forward; a worker that has a socket of
    the match itself keeps it (two players on two workers: no lease going back and forth); a write through
    the old owner afterwards is forwarded to the new one, and the log stays whole."""
    async with (
        worker(database_url, redis_url, service_factory) as (one, db_one),
        worker(database_url, redis_url, service_factory) as (two, _),
    ):
        mid, uids, _ = await _owned_by(one, db_one, ("follow_a", "follow_b"), "f1")
        token = one.leases.token(mid)  # type: ignore[attr-defined]
        assert token is not None
        socket = await two.bus.subscribe(f"match:{mid}")  # both players' sockets are on two
        uid, seq, action = await _turn(one, mid, uids)
        assert await two.act_seq(mid, uid, "f2", seq, action) == seq + 1  # forwarded; the lease comes along
        assert (two.forwarder.forwarded, one.forwarder.served, one.router.handed_over) == (1, 1, 1)
        assert two.leases.owns(mid) and not one.leases.owns(mid)
        assert (two.leases.token(mid) or 0) > token  # type: ignore[attr-defined]
        uid, seq, action = await _turn(two, mid, uids)
        assert await two.act_seq(mid, uid, "f3", seq, action) == seq + 1  # runs on two: no forward
        assert two.forwarder.forwarded == 1
        watcher = await one.bus.subscribe(f"match:{mid}")  # a socket of the match on one as well
        uid, seq, action = await _turn(two, mid, uids)
        assert await one.act_seq(mid, uid, "f4", seq, action) == seq + 1  # forwarded to two, which keeps it
        assert (one.forwarder.forwarded, two.router.handed_over) == (1, 0)
        assert not one.leases.owns(mid)  # (the fake duel may have ended: then two released it)
        await socket.close()
        await watcher.close()
        with db_one.session() as s:
            stored = repo.actions_after(s, mid)
        assert [x.seq for x in stored] == [1, 2, 3, 4]
        cids = [x.client_action_id.split(":")[1] for x in stored if x.client_action_id]
        assert cids == ["f1", "f2", "f3", "f4"]


async def test_a_handed_over_lease_is_not_given_by_a_worker_that_no_longer_holds_it(redis_url: str) -> None:
    """hand_over gives only the lease this worker holds now: after it lapsed and another worker took it,
    nothing is given and the worker stops calling itself the owner."""
    one, two = RedisLeases.from_url(redis_url, lease_seconds=0.3), RedisLeases.from_url(redis_url)
    try:
        mid = secrets.token_hex(6)
        assert await one.claim(mid) == one.worker_id
        value = await one.hand_over(mid, two.worker_id)
        assert value is not None and value.startswith(f"{two.worker_id}:")
        two.adopt(mid, value)
        assert two.owns(mid) and two.newly_owned(mid) and not one.owns(mid)
        assert await two.hand_over(mid, two.worker_id) is None  # not to itself
        assert await one.claim(mid) == two.worker_id  # the new owner, as Redis says
        three = RedisLeases.from_url(redis_url)
        try:
            three.adopt(mid, value)  # a value naming another worker is not adopted
            assert not three.owns(mid)
        finally:
            await three.stop()
        await asyncio.sleep(0.4)  # one's lease, had it kept it, would have lapsed; two's lasts 15 s
        one._held[mid] = f"{one.worker_id}:1"  # type: ignore[attr-defined]  # a stale belief
        assert await one.hand_over(mid, two.worker_id) is None
        assert not one.owns(mid) and two.owns(mid)
    finally:
        await one.stop()
        await two.stop()


async def test_a_fence_counter_expires_after_its_last_new_owner(redis_url: str) -> None:
    """No key is left forever per match played (a fresh-user run counted one ``lease:fence`` per match):
    the counter lives FENCE_SECONDS (beyond the longest move clock) after each new owner."""
    import redis.asyncio as aredis

    one, two = RedisLeases.from_url(redis_url), RedisLeases.from_url(redis_url)
    client = aredis.Redis.from_url(redis_url)
    try:
        mid = secrets.token_hex(6)
        assert await one.claim(mid) == one.worker_id
        assert 7 * 86_400 < await client.ttl(fence_key(mid)) <= FENCE_SECONDS
        await client.expire(fence_key(mid), 100)
        value = await one.hand_over(mid, two.worker_id)
        assert value is not None
        assert await client.ttl(fence_key(mid)) > 100  # a new owner: the counter's time starts again
        two.adopt(mid, value)
        await two.release(mid)
    finally:
        await client.aclose()
        await one.stop()
        await two.stop()
