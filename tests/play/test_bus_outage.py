"""A Redis outage never turns a stored change into an error (issue 18 §1: the database is the truth, the bus
only carries news). Each test runs a redis-server of its own on a spare port, kills it and restarts it on the
same port."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient
from redis.asyncio import Redis
from support import free_port
from websockets.asyncio.client import connect

from duelclub.bus import Bus, MemoryBus, open_bus
from duelclub.bus.redis import RedisBus

pytestmark = pytest.mark.redis
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


class PrivateRedis:
    """A redis-server on 127.0.0.1:``port`` that a test may kill and start again."""

    def __init__(self, port: int, workdir: Path) -> None:
        self.port, self.workdir = port, workdir
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        args = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly"]
        self.proc = subprocess.Popen(
            [*args, "no", "--dir", str(self.workdir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        import redis

        deadline = time.monotonic() + 5
        while True:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=0.2).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"!!! {REDIS_SERVER} not found: Redis outage test NOT RUN")
    server = PrivateRedis(free_port(), tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()


async def _members_duel(alice: AsyncClient, bob: AsyncClient) -> str:
    """Register alice and bob (each on its client's worker) and start a duel between them; its id."""
    for c, name in ((alice, "alice"), (bob, "bob")):
        r = await c.post("/api/auth/register", json={"username": name, "password": "password123"})
        assert r.status_code == 201
    created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
    return str((await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})).json()["id"])


async def until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.02)


async def next_message(sub: Any, seconds: float = 3.0) -> dict[str, Any]:
    return dict(await asyncio.wait_for(sub.get(), seconds))


@pytest.fixture
async def buses(private_redis: PrivateRedis) -> AsyncIterator[list[Bus]]:
    made: list[Bus] = []
    yield made
    for bus in made:
        await bus.close()


async def test_memory_bus_is_always_healthy_and_has_a_worker_id() -> None:
    one, two = MemoryBus(), MemoryBus()
    assert one.healthy and two.healthy
    assert one.worker_id and one.worker_id != two.worker_id


async def test_own_publications_are_delivered_once_and_unchanged(
    private_redis: PrivateRedis, buses: list[Bus]
) -> None:
    a, b = await open_bus(private_redis.url), await open_bus(private_redis.url)
    buses += [a, b]
    assert a.worker_id != b.worker_id
    sub_a, sub_b = await a.subscribe("match:once"), await b.subscribe("match:once")
    await asyncio.sleep(0.1)
    await a.publish("match:once", {"seq": 1})
    assert await next_message(sub_a) == {"seq": 1}
    assert await next_message(sub_b) == {"seq": 1}  # no origin tag leaks to consumers
    await asyncio.sleep(0.3)  # the Redis echo of a's own message has come back by now
    assert sub_a.drain() == []


async def test_publish_during_an_outage_reaches_local_subscribers_and_recovers(
    private_redis: PrivateRedis, buses: list[Bus]
) -> None:
    bus = await open_bus(private_redis.url)
    buses.append(bus)
    assert isinstance(bus, RedisBus) and bus.healthy
    sub = await bus.subscribe("match:out")
    await bus.publish("match:out", {"seq": 0})  # the pooled publish connection exists before the outage
    assert await next_message(sub) == {"seq": 0}
    private_redis.kill()
    await asyncio.sleep(0.2)
    await bus.publish("match:out", {"seq": 1})  # never raises
    assert await next_message(sub) == {"seq": 1}
    late = await bus.subscribe("match:late")  # subscribing during the outage does not raise either
    await until(lambda: not bus.healthy)
    await until(lambda: bus.metrics.publish_failures() >= 1, 5)  # counted once the sender gave up

    private_redis.start()
    await until(lambda: bus.healthy)
    assert await next_message(sub) == {"type": "resync"}
    assert await next_message(late) == {"type": "resync"}
    other = Redis.from_url(private_redis.url)
    try:
        for channel, seq in (("match:out", 2), ("match:late", 3)):  # both channels are subscribed again
            await other.publish(channel, json.dumps({"seq": seq}))
        assert await next_message(sub) == {"seq": 2}
        assert await next_message(late) == {"seq": 3}
    finally:
        await other.aclose()
    assert bus.metrics.reconnects() == 1 and bus.metrics.resyncs() == 2


async def test_first_publish_after_a_restart_reaches_other_workers(
    private_redis: PrivateRedis, buses: list[Bus]
) -> None:
    """No first-use failure on a pooled connection that Redis closed while it was down (issue 18 §2)."""
    a, b = await open_bus(private_redis.url), await open_bus(private_redis.url)
    buses += [a, b]
    sub_b = await b.subscribe("match:stale")
    await asyncio.sleep(0.1)
    await a.publish("match:stale", {"seq": 1})
    assert await next_message(sub_b) == {"seq": 1}
    private_redis.kill()
    private_redis.start()
    assert await next_message(sub_b, 10) == {"type": "resync"}
    await a.publish("match:stale", {"seq": 2})
    assert await next_message(sub_b) == {"seq": 2}


async def test_readyz_reports_the_outage(
    private_redis: PrivateRedis, sqlite_url: str, app_factory: Callable[..., Any]
) -> None:
    async with (
        app_factory(sqlite_url, redis_url=private_redis.url) as app,
        AsyncClient(transport=ASGITransport(app), base_url="http://testserver") as client,
    ):
        r = await client.get("/readyz")
        assert (r.status_code, r.json()) == (200, {"database": "ok", "bus": "ok"})
        private_redis.kill()
        await until(lambda: not app.state.bus.healthy)
        r = await client.get("/readyz")
        assert (r.status_code, r.json()) == (503, {"database": "ok", "bus": "down"})
        assert (await client.get("/healthz")).status_code == 200
        private_redis.start()
        await until(lambda: app.state.bus.healthy)
        assert (await client.get("/readyz")).status_code == 200
        metrics = (await client.get("/metrics")).text
        assert "duelclub_bus_reconnects_total 1.0" in metrics
        assert "duelclub_bus_publish_failures_total" in metrics
        assert "duelclub_bus_resyncs_total" in metrics


async def test_moves_and_challenges_are_acknowledged_and_pushed_while_redis_is_down(
    private_redis: PrivateRedis, database_url: str, server_factory: Callable[..., Any]
) -> None:
    """Two members on one worker play on through a Redis outage (issue 18 §1)."""
    async with server_factory(database_url, private_redis.url) as served:
        alice, bob = AsyncClient(base_url=served.http), AsyncClient(base_url=served.http)
        try:
            mid = await _members_duel(alice, bob)
            cookie = {"Cookie": f"duelclub_session={bob.cookies['duelclub_session']}"}
            async with connect(f"{served.ws}/ws/matches/{mid}", additional_headers=cookie) as bob_ws:
                await _expect_state(bob_ws, lambda m: m["status"] == "active")
                private_redis.kill()
                await asyncio.sleep(0.2)
                for n in range(2):  # one move each, whoever leads
                    seq = await _move(alice, bob, mid, f"m{n}")
                    await _expect_state(bob_ws, lambda m, s=seq: m["seq"] == s)
                alice_cookie = {"Cookie": f"duelclub_session={alice.cookies['duelclub_session']}"}
                async with connect(f"{served.ws}/ws/matches/{mid}", additional_headers=alice_cookie) as a_ws:
                    await _expect_state(a_ws, lambda m: m["seq"] == seq)  # a new socket opens fine
                r = await alice.post("/api/challenges", json={"game": "duel"})
                assert r.status_code == 201, r.text
                private_redis.start()
                await until(lambda: served.app.state.bus.healthy)
                seq = await _move(alice, bob, mid, "after")
                await _expect_state(bob_ws, lambda m: m["seq"] == seq)
        finally:
            await alice.aclose()
            await bob.aclose()


async def test_a_socket_on_another_worker_catches_up_after_the_outage(
    private_redis: PrivateRedis, database_url: str, server_factory: Callable[..., Any]
) -> None:
    """A move made on worker A while Redis is down reaches bob's socket on worker B once Redis is back: B's
    bus delivers ``resync`` and the socket re-reads the match (issue 18 §1)."""
    async with (
        server_factory(database_url, private_redis.url) as one,
        server_factory(database_url, private_redis.url) as two,
    ):
        alice, bob = AsyncClient(base_url=one.http), AsyncClient(base_url=two.http)
        try:
            mid = await _members_duel(alice, bob)
            cookie = {"Cookie": f"duelclub_session={bob.cookies['duelclub_session']}"}
            async with connect(f"{two.ws}/ws/matches/{mid}", additional_headers=cookie) as bob_ws:
                await _expect_state(bob_ws, lambda m: m["status"] == "active")
                private_redis.kill()
                await asyncio.sleep(0.2)
                seq = await _move(alice, bob, mid, "m0")  # on A if alice leads, else on B
                if (await _state(alice, mid))["legal"]:
                    seq = await _move(alice, bob, mid, "m1")  # alice's move, on A: B cannot hear of it
                private_redis.start()
                await _expect_state(bob_ws, lambda m: m["seq"] == seq, 10)
        finally:
            await alice.aclose()
            await bob.aclose()


async def _move(alice: AsyncClient, bob: AsyncClient, mid: str, action_id: str) -> int:
    """The player to move plays their first legal action over HTTP (must answer 200); the new seq."""
    mover = alice if (await _state(alice, mid))["legal"] else bob
    st = await _state(mover, mid)
    body = {"id": action_id, "seq": st["seq"], "action": st["legal"][0]}
    r = await mover.post(f"/api/matches/{mid}/actions", json=body)
    assert r.status_code == 200, r.text
    return int(st["seq"]) + 1


async def _state(client: AsyncClient, mid: str) -> dict[str, Any]:
    r = await client.get(f"/api/matches/{mid}/state")
    assert r.status_code == 200, r.text
    return dict(r.json())


async def _expect_state(ws: Any, ok: Any, seconds: float = 5) -> dict[str, Any]:
    async with asyncio.timeout(seconds):
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "state" and ok(msg):
                return dict(msg)
