"""A Redis bus alone on a channel keeps its messages there (bus/redis.py §Alone on a channel; issue 29 §3):
nobody else listening, a publish is delivered locally and not sent; a process that starts listening says so
and gets a ``resync`` for what was kept back, then every message; a belief lapses after ALONE_SECONDS, and a
lost ``listen`` notice is made up by the next look. Real Redis."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

import pytest

from duelclub.bus import match_channel
from duelclub.bus import redis as redis_bus
from duelclub.bus.redis import RedisBus

pytestmark = pytest.mark.redis


async def _until(check: Callable[[], bool], what: str) -> None:
    async with asyncio.timeout(5):
        while not check():
            await asyncio.sleep(0.01)
    assert check(), what


async def _get(sub: Any) -> Any:
    return await asyncio.wait_for(sub.get(), 3)


async def _alone_after_two(a: RedisBus, name: str) -> tuple[str, Any]:
    """``a`` subscribed to a new channel, alone there: its first message went to Redis and reached only
    itself, its second was kept here. (channel, a's subscription with both messages read)."""
    channel = match_channel(f"{name}-{secrets.token_hex(4)}")
    mine = await a.subscribe(channel)
    await _until(lambda: channel in a._confirmed, "a's subscription confirmed")
    await a.publish(channel, {"seq": 1})
    assert await _get(mine) == {"seq": 1}
    await _until(lambda: channel in a._alone, "a sees nobody else listening")
    await a.publish(channel, {"seq": 2})
    assert await _get(mine) == {"seq": 2}  # delivered here all the same
    assert a.kept_local == 1
    return channel, mine


async def test_alone_it_keeps_messages_and_a_newcomer_gets_a_resync_then_everything(redis_url: str) -> None:
    a, b = await RedisBus.connect(redis_url), await RedisBus.connect(redis_url)
    try:
        channel, mine = await _alone_after_two(a, "alone")
        theirs = await b.subscribe(channel)
        assert await _get(theirs) == {"type": "resync"}  # b missed nothing it cannot re-read
        await _until(lambda: channel not in a._alone, "a heard b listening")
        await a.publish(channel, {"seq": 3})
        assert await _get(theirs) == {"seq": 3}
        assert await _get(mine) == {"seq": 3}
        assert a.kept_local == 1 and mine.drain() == [] and theirs.drain() == []
        await theirs.close()  # b leaves: a is alone again after its next look
        await asyncio.sleep(0.1)
        await a.publish(channel, {"seq": 4})
        await _until(lambda: channel in a._alone, "a alone again")
        await mine.close()
    finally:
        await a.close()
        await b.close()


async def test_a_belief_lapses_and_a_lost_listen_notice_is_made_up(redis_url: str, monkeypatch: Any) -> None:
    monkeypatch.setattr(redis_bus, "ALONE_SECONDS", 0.3)
    a, b = await RedisBus.connect(redis_url), await RedisBus.connect(redis_url)
    try:
        channel, mine = await _alone_after_two(a, "lapse")
        monkeypatch.setattr(b, "_send_only", lambda *args: None)  # b's `listen` notice is lost
        theirs = await b.subscribe(channel)
        await _until(lambda: channel in b._confirmed, "b's subscription confirmed")
        await asyncio.sleep(0.35)  # a's belief lapses: its next message goes to Redis, and a looks again
        await a.publish(channel, {"seq": 3})
        assert await _get(theirs) == {"seq": 3}
        assert await _get(theirs) == {"type": "resync"}  # a learnt someone listens: it had kept seq 2
        await a.publish(channel, {"seq": 4})
        assert await _get(theirs) == {"seq": 4}
        assert a.kept_local == 1
        assert [m["seq"] for m in mine.drain()] == [3, 4]
        await theirs.close()
        await mine.close()
    finally:
        await a.close()
        await b.close()


async def test_a_publisher_not_listening_is_alone_only_when_nobody_gets_its_messages(redis_url: str) -> None:
    a, b = await RedisBus.connect(redis_url), await RedisBus.connect(redis_url)
    try:
        channel = match_channel(f"deaf-{secrets.token_hex(4)}")
        theirs = await b.subscribe(channel)
        await _until(lambda: channel in b._confirmed, "b's subscription confirmed")
        for seq in range(3):  # b listens: a (not subscribed) never believes itself alone
            await a.publish(channel, {"seq": seq})
            assert await _get(theirs) == {"seq": seq}
        assert channel not in a._alone and a.kept_local == 0
        await theirs.close()
        await asyncio.sleep(0.1)
        await a.publish(channel, {"seq": 9})
        await _until(lambda: channel in a._alone, "nobody listens")
    finally:
        await a.close()
        await b.close()


async def test_a_count_older_than_a_listen_notice_or_its_own_confirmation_is_not_believed(
    redis_url: str,
) -> None:
    """The races (bus/redis.py ``_learn``): a ``listen`` notice may arrive before the answer of a publish
    sent earlier — that count may miss the newcomer; this process's own subscription counts only if Redis
    confirmed it before the publish was sent — else the one receiver may be somebody else."""
    a = await RedisBus.connect(redis_url)
    try:
        channel = match_channel(f"race-{secrets.token_hex(4)}")
        before = time.monotonic()
        await asyncio.sleep(0.01)
        a._somebody_listens(channel)  # a newcomer's notice, after the publish was sent
        a._learn(channel, 0, before)  # …whose count (nobody) is older than the notice
        assert channel not in a._alone
        a._learn(channel, 0, time.monotonic())  # a count taken after it is believed
        assert channel in a._alone
        other = match_channel(f"race-{secrets.token_hex(4)}")
        mine = await a.subscribe(other)
        await _until(lambda: other in a._confirmed, "a's subscription confirmed")
        a._learn(other, 1, a._confirmed[other] - 0.001)  # sent before Redis confirmed a's subscription
        assert other not in a._alone  # the one receiver may be somebody else
        a._learn(other, 1, time.monotonic())
        assert other in a._alone  # the one receiver is a itself
        await mine.close()
    finally:
        await a.close()


async def test_a_dead_workers_channel_is_unheard_and_forwards_to_it_are_given_up_at_once(
    redis_url: str,
) -> None:
    """A fresh-user run killed a match's owner: each write then waited the forward's 3 s time-out first
    (the lease lives on until it expires). Once a publish found nobody on the owner's channel, the next
    forward raises NoAnswer at once."""
    from duelclub.play.forward import Forwarder, NoAnswer, worker_channel

    a, b = await RedisBus.connect(redis_url), await RedisBus.connect(redis_url)

    async def answer(op: dict[str, Any]) -> Any:
        return "done"

    caller = Forwarder(a, "caller-" + secrets.token_hex(3), answer, timeout=1.0)
    owner = Forwarder(b, "owner-" + secrets.token_hex(3), answer)
    try:
        await caller.start()
        await owner.start()
        channel = worker_channel(owner.worker_id)
        await _until(lambda: channel in b._confirmed, "the owner listens")
        assert await caller.call(owner.worker_id, {"kind": "x"}) == "done"
        assert not a.unheard(channel)
        await owner.stop()  # the owner dies (its channel has no subscriber any more)
        await asyncio.sleep(0.1)
        with pytest.raises(NoAnswer):
            await caller.call(owner.worker_id, {"kind": "x"})  # the first one waits the time-out
        await _until(lambda: a.unheard(channel), "a saw nobody on the owner's channel")
        started = time.monotonic()
        with pytest.raises(NoAnswer):
            await caller.call(owner.worker_id, {"kind": "x"})
        assert time.monotonic() - started < 0.5  # not the 1 s time-out
        assert not a.unheard(match_channel("never-published"))  # unknown: not unheard
    finally:
        await caller.stop()
        await a.close()
        await b.close()
