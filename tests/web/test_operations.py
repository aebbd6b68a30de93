"""Operations (issue 13 §2): health and readiness, Prometheus metrics behind an address or token check,
request ids and the log context, JSON logs, the admin page «Состояние сервера», bot think times."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import Request
from httpx import ASGITransport, AsyncClient
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from duelclub.logs import ContextFilter, JsonFormatter
from duelclub.web.deps import OptionalUser

PW = "password123"


def client_from(app: Any, ip: str = "127.0.0.1") -> AsyncClient:
    return AsyncClient(transport=ASGITransport(app, client=(ip, 4000)), base_url="http://testserver")


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


async def test_health_and_readiness(client_factory: Callable[[], AsyncClient]) -> None:
    c = client_factory()
    assert (await c.get("/healthz")).json() == {"status": "ok"}
    r = await c.get("/readyz")
    assert r.status_code == 200 and r.json() == {"database": "ok", "bus": "ok"}


async def test_metrics_only_for_allowed_addresses_or_the_token(
    sqlite_url: str, app_factory: Callable[..., Any]
) -> None:
    token = "s3cret-token-for-the-scraper"
    async with (
        app_factory(sqlite_url, METRICS_TOKEN=token) as app,
        client_from(app) as local,
        client_from(app, "198.51.100.7") as remote,
    ):
        assert (await local.get("/metrics")).status_code == 200
        r = await remote.get("/metrics")
        assert r.status_code == 403 and r.json()["code"] == "forbidden"
        bad = {"Authorization": "Bearer wrong"}
        assert (await remote.get("/metrics", headers=bad)).status_code == 403
        good = {"Authorization": "Bearer s3cret-token-for-the-scraper"}
        assert (await remote.get("/metrics", headers=good)).status_code == 200
    async with (
        app_factory(sqlite_url, METRICS_ALLOW_IPS="10.1.0.0/16") as app,
        client_from(app, "10.1.2.3") as inside,
        client_from(app) as local,
    ):
        assert (await inside.get("/metrics")).status_code == 200
        assert (await local.get("/metrics")).status_code == 403


async def test_metrics_count_requests_by_route_actions_latency_sockets_and_the_pool(
    served: Any, invite_match: Any
) -> None:
    alice, bob = AsyncClient(base_url=served.http), AsyncClient(base_url=served.http)
    try:
        for c, name in ((alice, "alice"), (bob, "bob")):
            assert (
                await c.post("/api/auth/register", json={"username": name, "password": PW})
            ).status_code == 201
        mid = await invite_match(alice, bob)
        for c in (alice, bob):
            st = (await c.get(f"/api/matches/{mid}/state")).json()
            if st["legal"]:
                body = {"id": "a1", "seq": st["seq"], "action": st["legal"][0]}
                assert (await c.post(f"/api/matches/{mid}/actions", json=body)).status_code == 200
                break
        await alice.get("/api/matches/no-such-match")
        cookie = {"Cookie": f"duelclub_session={alice.cookies['duelclub_session']}"}
        async with connect(f"{served.ws}/ws/matches/{mid}", additional_headers=cookie) as ws:
            await ws.recv()
            async with connect(f"{served.ws}/ws/lobby") as lobby:
                await lobby.recv()
                found = samples((await alice.get("/metrics")).text)
        await asyncio.sleep(0.2)
        after = samples((await alice.get("/metrics")).text)
    finally:
        await alice.aclose()
        await bob.aclose()
    route = "/api/matches/{match_id}/actions"
    assert (
        found[("duelclub_http_requests_total", (("method", "POST"), ("route", route), ("status", "200")))]
        == 1
    )
    missing = (("method", "GET"), ("route", "/api/matches/{match_id}"), ("status", "404"))
    assert found[("duelclub_http_requests_total", missing)] == 1  # the id is not a label
    assert found[("duelclub_actions_total", (("game", "duel"), ("source", "player")))] == 1
    assert found[("duelclub_action_seconds_count", (("game", "duel"),))] == 1
    assert found[("duelclub_open_sockets", (("kind", "match"),))] == 1
    assert found[("duelclub_open_sockets", (("kind", "lobby"),))] == 1
    assert after[("duelclub_open_sockets", (("kind", "match"),))] == 0
    assert ("duelclub_db_pool_in_use", ()) in found


async def test_every_answer_carries_a_request_id(client_factory: Callable[[], AsyncClient]) -> None:
    c = client_factory()
    made = (await c.get("/api/games")).headers["x-request-id"]
    assert 8 <= len(made) <= 64
    assert (await c.get("/healthz", headers={"X-Request-ID": "lb-123.x"})).headers[
        "x-request-id"
    ] == "lb-123.x"
    hostile = (await c.get("/healthz", headers={"X-Request-ID": "a b\x01"})).headers["x-request-id"]
    assert hostile != "a b\x01"


async def test_log_records_carry_request_user_and_match_in_json(app: Any, client_factory: Any) -> None:
    lines: list[str] = []

    class Capture(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Capture()
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("duelclub.test_ops")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)

    async def probe(match_id: str, request: Request, user: OptionalUser) -> dict[str, str]:
        logger.info("probe for %s", match_id)
        return {}

    app.router.add_api_route("/api/matches/{match_id}/probe", probe)
    try:
        c = client_factory()
        r = await c.post("/api/auth/register", json={"username": "alice", "password": PW})
        await c.get("/api/matches/m4tch1d/probe", headers={"X-Request-ID": "req-42"})
    finally:
        logger.removeHandler(handler)
    (line,) = lines
    record = json.loads(line)
    assert record["message"] == "probe for m4tch1d" and record["level"] == "INFO"
    assert record["request_id"] == "req-42"
    assert record["match_id"] == "m4tch1d"
    assert record["user_id"] == r.json()["id"]


async def test_server_status_for_admins_only(
    app: Any, admin: AsyncClient, alice: AsyncClient, bob: AsyncClient, invite_match: Any
) -> None:
    await invite_match(alice, bob)
    logging.getLogger("duelclub.test_ops").error("something broke in a test")
    r = await admin.get("/api/admin/status")
    assert r.status_code == 200, r.text
    status = r.json()
    assert status["live"]["active"] == {"duel": 1}
    assert status["bots"] == {"waiting": 0, "thinking": 0}
    assert status["bus_ok"] is True and status["worker_pid"] == os.getpid()
    assert any(e["message"] == "something broke in a test" for e in status["recent_errors"])
    assert (await alice.get("/api/admin/status")).status_code == 403
    assert (await admin.get("/admin/status")).status_code == 200
    page = await alice.get("/admin/status")
    assert page.status_code == 403


CHILD = """
from duelclub.bots.metrics import think_timer
record = think_timer()
record("mezha", "hard", 0.7)
record("mezha", "hard", 0.9)
record("towers", "easy", 0.02)
"""


def test_bot_think_time_is_recorded_in_the_bot_process_and_read_by_the_web_one(tmp_path: Path) -> None:
    """Bots think in other processes: their histogram reaches /metrics through prometheus-client's
    multiprocess files (bots/metrics.py); the pool sets PROMETHEUS_MULTIPROC_DIR for its workers."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", CHILD], env=env, check=True, timeout=60)
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(tmp_path))
    count = registry.get_sample_value
    assert count("duelclub_bot_think_seconds_count", {"game": "mezha", "level": "hard"}) == 2
    assert count("duelclub_bot_think_seconds_sum", {"game": "mezha", "level": "hard"}) == 1.6
    assert count("duelclub_bot_think_seconds_count", {"game": "towers", "level": "easy"}) == 1


def test_the_bot_pool_gives_its_workers_the_metrics_directory(tmp_path: Path) -> None:
    from duelclub.bots.pool import WorkerPool

    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "stale.db").write_text("old")
    pool = WorkerPool(1, metrics_dir=tmp_path / "m")
    assert pool.env["PROMETHEUS_MULTIPROC_DIR"] == str(tmp_path / "m")
    assert list((tmp_path / "m").iterdir()) == []  # emptied: counts restart with the server
