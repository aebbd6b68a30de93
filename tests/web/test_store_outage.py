"""A PostgreSQL outage under a running app (issue 31 §2): the routes answer 503 ``store_unavailable`` with
``Retry-After`` (the keep-alive connection stays usable), sockets opened during it close with 1013 and an open
match socket gets error frames ``store_unavailable`` and stays open (issue 29 §6), the log holds one warning
when the outage starts and one when the database is back — no traceback, no error — and requests succeed
again once it is back. The database is a private cluster of this module's own
(tests/play/private_postgres.py), stopped and started under the app; the shared server on 5432 is never
touched."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from httpx import AsyncClient, Response
from private_postgres import PrivatePostgres, unavailable
from support import free_port
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from duelclub.play.errors import STORE_UNAVAILABLE_MESSAGE
from duelclub.web.outage import RETRY_AFTER_SECONDS, TRY_AGAIN_LATER

pytestmark = pytest.mark.timeout(120)
PW = "password123"
HEALTH_LOGGER = "duelclub.store.health"


@pytest.fixture(scope="module")
def cluster() -> Iterator[PrivatePostgres]:
    why = unavailable()
    if why:
        pytest.skip(f"!!! no private PostgreSQL cluster ({why}): outage test NOT RUN")
    pg = PrivatePostgres(free_port())
    try:
        pg.create()
        yield pg
    finally:
        pg.destroy()


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Every record at DEBUG and up, uvicorn's too (its loggers do not propagate to the root)."""
    caplog.set_level(logging.DEBUG)
    uvicorn = logging.getLogger("uvicorn")
    uvicorn.addHandler(caplog.handler)
    try:
        yield caplog
    finally:
        uvicorn.removeHandler(caplog.handler)


@pytest.fixture
async def site(cluster: PrivatePostgres, server_factory: Any) -> AsyncIterator[Any]:
    """The app on the private cluster behind uvicorn; the cluster is running again afterwards."""
    try:
        async with server_factory(cluster.url) as served:
            yield served
    finally:
        if not (cluster.data / "postmaster.pid").exists():
            cluster.start()


class Member:
    def __init__(self, base: str, name: str) -> None:
        self.name = name
        self.http = AsyncClient(base_url=base)

    async def register(self) -> Member:
        r = await self.http.post("/api/auth/register", json={"username": self.name, "password": PW})
        assert r.status_code == 201, r.text
        return self

    @property
    def cookie(self) -> dict[str, str]:
        return {"Cookie": f"duelclub_session={self.http.cookies['duelclub_session']}"}


async def members_and_match(base: str, tag: str) -> tuple[Member, Member, str]:
    """Two members (names ending in ``tag``: each test makes its own) and an active invite match."""
    a = await Member(base, f"ann{tag}").register()
    b = await Member(base, f"ben{tag}").register()
    r = await a.http.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    assert r.status_code == 201, r.text
    created = r.json()
    r = await b.http.post(f"/api/invites/{created['invite_token']}/accept", json={})
    assert r.status_code == 200, r.text
    return a, b, str(created["id"])


def assert_unavailable(r: Response) -> None:
    assert r.status_code == 503, r.text
    assert r.json()["code"] == "store_unavailable"
    assert r.json()["message"]
    assert r.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    assert r.headers.get("connection", "").lower() != "close"


def client_port(r: Response) -> int:
    """The local port of the connection ``r`` came over (the same port: the same keep-alive connection)."""
    return int(r.extensions["network_stream"].get_extra_info("client_addr")[1])


async def close_code(url: str, headers: dict[str, str]) -> int | None:
    """The code the server closes a new socket at ``url`` with (None: it stayed open 5 s)."""
    async with connect(url, additional_headers=headers) as ws:
        try:
            async with asyncio.timeout(5):
                while True:
                    await ws.recv()
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
        except TimeoutError:
            return None


async def until_ok(member: Member, timeout: float = 10.0) -> Response:
    deadline = time.monotonic() + timeout
    while True:
        r = await member.http.get("/api/matches")
        if r.status_code == 200 or time.monotonic() > deadline:
            return r
        await asyncio.sleep(0.1)


def warnings_and_worse(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_routes_answer_503_store_unavailable_with_retry_after_during_an_outage(
    cluster: PrivatePostgres, site: Any
) -> None:
    a, _b, mid = await members_and_match(site.http, "r")
    before = await a.http.get("/api/matches")
    assert before.status_code == 200
    cluster.stop()
    created = await a.http.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    listed = await a.http.get("/api/matches")
    login = await a.http.post("/api/auth/login", json={"username": a.name, "password": PW})
    act = await a.http.post(
        f"/api/matches/{mid}/actions", json={"id": "r-1", "seq": 0, "action": {"kind": "resign"}}
    )
    for r in (created, listed, login, act):
        assert_unavailable(r)
    # No reset after a 503: every answer came over the keep-alive connection of the first request.
    assert {client_port(r) for r in (before, created, listed, login, act)} == {client_port(before)}


async def test_a_page_during_an_outage_is_a_503_page_that_says_so_in_the_readers_language(
    cluster: PrivatePostgres, site: Any
) -> None:
    a, _b, _mid = await members_and_match(site.http, "p")
    cluster.stop()
    for lang, words in (("ru", "Нет связи с сервером, пробуем снова…"), ("uk", "Немає зв'язку з сервером")):
        a.http.cookies.set("lang", lang)
        r = await a.http.get("/", headers={"Accept": "text/html,application/xhtml+xml"})
        assert r.status_code == 503, r.text
        assert r.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
        assert r.headers["content-type"].startswith("text/html")
        assert words in r.text
        assert '<script type="module" src="/static/js/unavailable.js">' in r.text
    assert (await a.http.get("/static/js/unavailable.js")).status_code == 200  # no database needed


async def test_sockets_opened_during_an_outage_close_with_1013(cluster: PrivatePostgres, site: Any) -> None:
    a, _b, mid = await members_and_match(site.http, "w")
    cluster.stop()
    for path in (f"/ws/matches/{mid}", "/ws/lobby", "/ws/turns"):
        assert await close_code(site.ws + path, a.cookie) == TRY_AGAIN_LATER, path


async def test_an_open_socket_that_meets_the_outage_stays_open_with_error_frames_and_plays_on_after_it(
    cluster: PrivatePostgres, site: Any
) -> None:
    """Issue 29 §6: an act and a sync during the outage get an error frame ``store_unavailable`` (the act's
    with its id), the socket stays open (it still answers a ping), ``/readyz`` says not ready; once the
    database is back the same socket gets the state on ``sync`` and its act is acknowledged."""
    a, _b, mid = await members_and_match(site.http, "o")
    async with connect(f"{site.ws}/ws/matches/{mid}?ack=state", additional_headers=a.cookie) as ws:
        first = json.loads(await ws.recv())
        assert first["type"] == "state"
        await next_of(ws, "presence")  # the socket is open (an outage before this closes it with 1013)
        cluster.stop()
        await ws.send('{"type": "act", "id": "o-1", "seq": 0, "action": {"kind": "resign"}}')
        assert await next_of(ws, "error", action_id="o-1") == {
            "type": "error", "id": "o-1", "code": "store_unavailable", "message": STORE_UNAVAILABLE_MESSAGE
        }  # fmt: skip
        await ws.send('{"type": "sync", "seq": 0}')
        assert (await next_of(ws, "error"))["code"] == "store_unavailable"
        await ws.send('{"type": "ping"}')
        assert (await next_of(ws, "pong"))["type"] == "pong"
        ready = await a.http.get("/readyz")
        assert (ready.status_code, ready.json()["database"]) == (503, "down")
        cluster.start()
        state = await synced(ws, first["seq"])
        assert state["status"] == "active"
        await ws.send(
            json.dumps({"type": "act", "id": "o-2", "seq": state["seq"], "action": {"kind": "resign"}})
        )
        ended = await next_of(ws, "state")
        assert ended.get("ack") == "o-2" and ended["status"] in ("finished", "aborted")
    assert (await a.http.get("/readyz")).status_code == 200


async def next_of(ws: Any, kind: str, timeout: float = 10.0, action_id: str | None = None) -> dict[str, Any]:
    """The next message of type ``kind`` on ``ws`` (with ``action_id``: of that id) — others skipped: a
    presence, or a push's own error frame (no id) when a notice comes during the outage."""
    async with asyncio.timeout(timeout):
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == kind and (action_id is None or msg.get("id") == action_id):
                return dict(msg)


async def synced(ws: Any, seq: int, timeout: float = 15.0) -> dict[str, Any]:
    """Ask for the state every 0.2 s until one comes (errors ``store_unavailable`` until the database is
    back): the page's sync after its backoff wait."""
    async with asyncio.timeout(timeout):
        while True:
            await ws.send(json.dumps({"type": "sync", "seq": seq}))
            msg = json.loads(await ws.recv())
            if msg["type"] == "state":
                return dict(msg)
            assert msg["type"] in ("error", "presence"), msg
            if msg["type"] == "error":
                assert msg["code"] == "store_unavailable", msg
            await asyncio.sleep(0.2)


async def test_an_outage_logs_one_warning_when_it_starts_and_one_when_the_database_is_back(
    cluster: PrivatePostgres, site: Any, logs: pytest.LogCaptureFixture
) -> None:
    a, _b, mid = await members_and_match(site.http, "l")
    logs.clear()
    cluster.stop()
    for _ in range(3):  # many requests and sockets, one outage
        assert_unavailable(await a.http.get("/api/matches"))
        assert_unavailable(await a.http.post("/api/auth/login", json={"username": a.name, "password": PW}))
        assert await close_code(f"{site.ws}/ws/matches/{mid}", a.cookie) == TRY_AGAIN_LATER
    down = warnings_and_worse(logs)
    assert [(r.name, r.levelno) for r in down] == [(HEALTH_LOGGER, logging.WARNING)], down
    assert "unavailable" in down[0].getMessage()
    cluster.start()
    assert (await until_ok(a)).status_code == 200
    records = warnings_and_worse(logs)
    assert [(r.name, r.levelno) for r in records] == [(HEALTH_LOGGER, logging.WARNING)] * 2, records
    assert "back" in records[1].getMessage()
    assert not [r for r in logs.records if r.exc_info or "Traceback" in r.getMessage()]


async def test_requests_succeed_again_once_the_database_is_back(cluster: PrivatePostgres, site: Any) -> None:
    a, b, mid = await members_and_match(site.http, "b")
    cluster.stop()
    assert_unavailable(await a.http.get("/api/matches"))
    cluster.start()
    started = time.monotonic()
    assert (await until_ok(a)).status_code == 200
    assert time.monotonic() - started < 5
    r = await a.http.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    assert r.status_code == 201, r.text
    states = {m: (await m.http.get(f"/api/matches/{mid}/state")).json() for m in (a, b)}
    mover, state = next((m, st) for m, st in states.items() if st["legal"])
    act = {"id": "b-1", "seq": state["seq"], "action": state["legal"][0]}
    r = await mover.http.post(f"/api/matches/{mid}/actions", json=act)
    assert r.status_code == 200, r.text
    async with connect(f"{site.ws}/ws/matches/{mid}", additional_headers=a.cookie) as ws:
        assert '"type":"state"' in await ws.recv()


async def _next_move(a: Member, b: Member, mid: str) -> tuple[Member, dict[str, Any]]:
    """The member to move and their first legal action, with the state's seq (``{"seq", "action"}``)."""
    states = {m: (await m.http.get(f"/api/matches/{mid}/state")).json() for m in (a, b)}
    mover, state = next((m, st) for m, st in states.items() if st["legal"])
    return mover, {"seq": state["seq"], "action": state["legal"][0]}


async def test_a_move_written_from_the_loop_meets_the_outage_with_a_503_and_only_the_health_warnings(
    cluster: PrivatePostgres, site: Any, logs: pytest.LogCaptureFixture
) -> None:
    """A move that does not end the match goes from the event loop on the worker's own connection pool
    (store/pg_writer.py): during an outage it gets the 503, the log holds only the two health warnings (not
    the pool's own per connection and per reconnection attempt), and after it moves are stored again."""
    a, b, mid = await members_and_match(site.http, "m")
    mover, act = await _next_move(a, b, mid)
    r = await mover.http.post(f"/api/matches/{mid}/actions", json={"id": "m-1", **act})
    assert r.status_code == 200 and r.json()["status"] == "active", r.text  # the pool is in use
    mover, act = await _next_move(a, b, mid)
    logs.clear()
    cluster.stop()
    assert_unavailable(await mover.http.post(f"/api/matches/{mid}/actions", json={"id": "m-2", **act}))
    await asyncio.sleep(2.5)  # long enough for a pool's reconnection attempts
    cluster.start()
    assert (await until_ok(a)).status_code == 200
    r = await mover.http.post(f"/api/matches/{mid}/actions", json={"id": "m-2", **act})
    assert r.status_code == 200, r.text
    assert r.json()["seq"] == act["seq"] + 1
    records = warnings_and_worse(logs)
    assert [(r.name, r.levelno) for r in records] == [(HEALTH_LOGGER, logging.WARNING)] * 2, [
        (r.name, r.getMessage()) for r in records
    ]
