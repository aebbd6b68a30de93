"""The bus: in-process and Redis pub/sub; two app instances sharing one Redis and one database
(DESIGN.md §Real time — workers publish match changes on ``match:{id}``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from httpx import AsyncClient
from websockets.asyncio.client import connect

from duelclub.bus import MemoryBus, match_channel, open_bus


async def test_memory_bus_delivers_to_every_subscriber_of_the_channel() -> None:
    bus = MemoryBus()
    one, two, other = [await bus.subscribe(c) for c in ("match:a", "match:a", "match:b")]
    await bus.publish("match:a", {"seq": 3})
    assert await one.get() == {"seq": 3} and await two.get() == {"seq": 3}
    assert other.drain() == []
    await one.close()
    await bus.publish("match:a", {"seq": 4})
    assert await two.get() == {"seq": 4}
    await bus.close()
    with pytest.raises(StopAsyncIteration):
        await two.get()


@pytest.mark.redis
async def test_redis_bus_between_two_connections(redis_url: str) -> None:
    a, b = await open_bus(redis_url), await open_bus(redis_url)
    try:
        channel = match_channel(f"bus-test-{id(a)}")
        sub_b = await b.subscribe(channel)
        sub_a = await a.subscribe(channel)
        await asyncio.sleep(0.1)  # let Redis register the subscriptions
        await a.publish(channel, {"seq": 7})
        assert await asyncio.wait_for(sub_b.get(), 3) == {"seq": 7}
        assert await asyncio.wait_for(sub_a.get(), 3) == {"seq": 7}  # publishers hear themselves too
        await sub_b.close()
        await sub_a.close()
    finally:
        await a.close()
        await b.close()


@pytest.mark.redis
async def test_two_app_instances_share_redis_and_the_database(
    database_url: str, redis_url: str, server_factory: Callable[..., Any]
) -> None:
    """A move made through instance A is pushed to a socket on instance B and seen by B's API."""
    async with server_factory(database_url, redis_url) as one, server_factory(database_url, redis_url) as two:
        alice, bob = AsyncClient(base_url=one.http), AsyncClient(base_url=two.http)
        try:
            for c, name in ((alice, "alice"), (bob, "bob")):
                r = await c.post("/api/auth/register", json={"username": name, "password": "password123"})
                assert r.status_code == 201
            created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
            headers = {"Cookie": f"duelclub_session={bob.cookies['duelclub_session']}"}
            async with connect(f"{two.ws}/ws/matches/{created['id']}", additional_headers=headers) as ws:
                assert json.loads(await ws.recv())["status"] == "open"
                accepted = await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
                mid = accepted.json()["id"]
                await _expect_state(ws, lambda m: m["status"] == "active")
                st = (await alice.get(f"/api/matches/{mid}/state")).json()
                if not st["legal"]:  # bob leads: he plays on B, alice sees it on A
                    bst = (await bob.get(f"/api/matches/{mid}/state")).json()
                    body = {"id": "b1", "seq": 0, "action": bst["legal"][0]}
                    assert (await bob.post(f"/api/matches/{mid}/actions", json=body)).status_code == 200
                    await _expect_state(ws, lambda m: m["seq"] == 1)
                    st = (await alice.get(f"/api/matches/{mid}/state")).json()
                    assert st["seq"] == 1 and st["legal"]
                body = {"id": "a1", "seq": st["seq"], "action": st["legal"][0]}
                assert (await alice.post(f"/api/matches/{mid}/actions", json=body)).status_code == 200
                pushed = await _expect_state(ws, lambda m: m["seq"] == st["seq"] + 1)
                assert pushed["events"][0]["seat"] == 0
                seen_by_b = (await bob.get(f"/api/matches/{mid}/state")).json()
                assert seen_by_b["seq"] == st["seq"] + 1
        finally:
            await alice.aclose()
            await bob.aclose()


async def _expect_state(ws: Any, ok: Any) -> dict[str, Any]:
    async with asyncio.timeout(5):
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "state" and ok(msg):
                return dict(msg)


async def test_redis_reader_skips_its_own_echo_unparsed_and_reads_every_other_payload(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A payload this process published starts with its origin and is dropped before parsing (issue 29 §3:
    the owner of a match got each change's few KB of pushes back and parsed them); any other worker's is
    delivered without the origin, whether the origin comes first or, as older workers wrote it, last."""
    import orjson

    from duelclub.bus.redis import ORIGIN_KEY, RedisBus

    bus = RedisBus("redis://127.0.0.1:6379/15")  # no connection is opened: only the reader's dispatch runs
    sub, _ = bus.add("match:echo")
    own = orjson.dumps({ORIGIN_KEY: bus.worker_id, "seq": 1})
    bus._dispatch({"channel": b"match:echo", "data": own})
    bus._dispatch({"channel": b"match:echo", "data": own[:-3] + b"not json"})  # never parsed: no warning
    bus._dispatch({"channel": b"match:echo", "data": orjson.dumps({"seq": 2, ORIGIN_KEY: bus.worker_id})})
    assert sub.drain() == []
    assert "non-JSON" not in caplog.text  # the broken echo was never parsed
    lookalike = bus.worker_id + "x"  # a longer id beginning with this one is another worker's
    bus._dispatch({"channel": b"match:echo", "data": orjson.dumps({ORIGIN_KEY: lookalike, "seq": 3})})
    bus._dispatch({"channel": b"match:echo", "data": orjson.dumps({"seq": 4, ORIGIN_KEY: "older"})})
    assert sub.drain() == [{"seq": 3}, {"seq": 4}]
    await bus._redis.aclose()
    await bus._listener.aclose()
