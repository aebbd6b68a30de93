"""Live play over WebSockets (issue 6): reconnection after a gap, presence pushes, and the lobby socket
(the challenge table live, «your match has started», leaving the page leaves the queue)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from httpx import AsyncClient
from websockets.asyncio.client import ClientConnection, connect

from duelclub.web.socket_messages import LOBBY_SERVER_MESSAGE, MATCH_SERVER_MESSAGE

PW = "password123"


async def _client(base: str, username: str) -> AsyncClient:
    c = AsyncClient(base_url=base)
    r = await c.post("/api/auth/register", json={"username": username, "password": PW})
    assert r.status_code == 201, r.text
    return c


def _cookie(c: AsyncClient) -> dict[str, str]:
    return {"Cookie": f"duelclub_session={c.cookies['duelclub_session']}"}


async def _recv(ws: ClientConnection, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    """The next message of type ``kind``; each one read is a typed message of the socket it came from (the
    lobby's or a match's, web/socket_messages.py)."""
    adapter = LOBBY_SERVER_MESSAGE if ws.request is not None and ws.request.path == "/ws/lobby" else None
    async with asyncio.timeout(timeout):
        while True:
            msg = json.loads(await ws.recv())
            (adapter or MATCH_SERVER_MESSAGE).validate_python(msg)
            if msg["type"] == kind:
                return dict(msg)


async def _play_one(clients: list[AsyncClient], mid: str, aid: str) -> int:
    for c in clients:
        st = (await c.get(f"/api/matches/{mid}/state")).json()
        if st["legal"]:
            r = await c.post(
                f"/api/matches/{mid}/actions", json={"id": aid, "seq": st["seq"], "action": st["legal"][0]}
            )
            assert r.status_code == 200, r.text
            return int(r.json()["seq"])
    raise AssertionError("nobody to move")


async def test_a_reconnecting_client_gets_what_it_missed(served: Any) -> None:
    alice, bob = await _client(served.http, "alice"), await _client(served.http, "bob")
    try:
        created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        mid = created["id"]
        await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
        url = f"{served.ws}/ws/matches/{mid}"
        async with connect(url, additional_headers=_cookie(alice)) as wa:
            first = await _recv(wa, "state")
            assert first["seq"] == 0
        # the connection drops; two moves happen meanwhile
        await _play_one([alice, bob], mid, "x1")
        last = await _play_one([alice, bob], mid, "x2")
        async with connect(url, additional_headers=_cookie(alice)) as wa:
            now = await _recv(wa, "state")
            assert now["seq"] == last and now["events"] == []  # the current view at once
            await wa.send(json.dumps({"type": "sync", "seq": 0}))  # the client's last seq: fill the gap
            synced = await _recv(wa, "state")
            assert synced["seq"] == last
            assert sorted({e["seq"] for e in synced["events"]}) == [1, 2]
            assert synced["view"] == now["view"]
    finally:
        await alice.aclose()
        await bob.aclose()


async def test_both_players_see_the_opponents_connection_status(served: Any) -> None:
    alice, bob = await _client(served.http, "alice"), await _client(served.http, "bob")
    try:
        created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        mid = created["id"]
        await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
        url = f"{served.ws}/ws/matches/{mid}"
        async with connect(url, additional_headers=_cookie(alice)) as wa:
            await _recv(wa, "state")
            async with connect(url, additional_headers=_cookie(bob)) as wb:
                await _recv(wb, "state")
                while True:
                    p = await _recv(wa, "presence")
                    if [s["online"] for s in p["seats"]] == [True, True]:
                        break
                assert "seq" in p and p["grace_seconds"] == 60
            while True:  # bob's tab closed
                p = await _recv(wa, "presence")
                if not p["seats"][1]["online"]:
                    break
            assert p["seats"][1]["away_since"] and p["claim_at"] and p["can_claim"] is False
            r = await bob.post(f"/api/matches/{mid}/claim", json={})
            assert (r.status_code, r.json()["code"]) == (409, "opponent_connected")
            r = await alice.post(f"/api/matches/{mid}/claim", json={})
            assert (r.status_code, r.json()["code"]) == (409, "claim_too_early")
    finally:
        await alice.aclose()
        await bob.aclose()


async def test_the_lobby_socket_shows_the_table_live_and_announces_the_match(served: Any) -> None:
    alice, bob = await _client(served.http, "alice"), await _client(served.http, "bob")
    try:
        lobby = f"{served.ws}/ws/lobby"
        async with connect(lobby) as anon, connect(lobby, additional_headers=_cookie(alice)) as wa:
            assert (await _recv(anon, "challenges"))["items"] == []
            table = await _recv(wa, "challenges")
            assert table["items"] == [] and table["seq"] >= 1
            queue = await _recv(wa, "queue")
            assert queue["queue"]["status"] == "none"
            r = await alice.post("/api/challenges", json={"game": "duel", "move_seconds": 30})
            assert r.status_code == 201
            mid = r.json()["id"]
            seen = await _recv(anon, "challenges")
            assert [(i["id"], i["author"], i["move_seconds"]) for i in seen["items"]] == [(mid, "alice", 30)]
            assert (await bob.post(f"/api/challenges/{mid}/accept", json={})).status_code == 200
            started = await _recv(wa, "match")
            assert (started["id"], started["why"]) == (mid, "challenge")
            while (await _recv(anon, "challenges"))["items"]:
                pass
    finally:
        await alice.aclose()
        await bob.aclose()


@dataclass
class RollCalls:
    """The lobby socket's roll calls (module docstring of web/lobby_ws.py) as they start and finish."""

    started: asyncio.Queue[int] = field(default_factory=asyncio.Queue)
    done: asyncio.Queue[int] = field(default_factory=asyncio.Queue)


@pytest.fixture
def roll_calls(monkeypatch: pytest.MonkeyPatch) -> RollCalls:
    from duelclub.web import lobby_ws

    calls = RollCalls()
    original = lobby_ws._leave_unless_open_elsewhere

    async def traced(service: Any, uid: int) -> None:
        calls.started.put_nowait(uid)
        try:
            await original(service, uid)
        finally:
            calls.done.put_nowait(uid)

    monkeypatch.setattr(lobby_ws, "_leave_unless_open_elsewhere", traced)
    return calls


async def _next(q: asyncio.Queue[int]) -> int:
    async with asyncio.timeout(5):
        return await q.get()


async def _status(c: AsyncClient) -> str:
    return str((await c.get("/api/queue")).json()["status"])


async def _join(c: AsyncClient) -> None:
    assert (await c.post("/api/queue", json={"game": "duel"})).json()["status"] == "waiting"


async def test_a_reloaded_lobby_page_keeps_its_queue_entry(served: Any, roll_calls: RollCalls) -> None:
    """The page closes and opens again on the same worker (a reload): the new socket answers the roll call;
    once that page closes too, the member leaves the queue."""
    alice = await _client(served.http, "alice")
    lobby = f"{served.ws}/ws/lobby"
    try:
        async with connect(lobby, additional_headers=_cookie(alice)) as wa:
            await _recv(wa, "queue")
            await _join(alice)
        await _next(roll_calls.started)
        async with connect(lobby, additional_headers=_cookie(alice)) as wa:
            assert (await _recv(wa, "queue"))["queue"]["status"] == "waiting"
            await _next(roll_calls.done)
            assert await _status(alice) == "waiting"
        await _next(roll_calls.done)
        assert await _status(alice) == "none"
    finally:
        await alice.aclose()


@pytest.mark.redis
async def test_closing_one_of_two_lobby_tabs_on_different_workers_keeps_the_queue_entry(
    sqlite_url: str, redis_url: str, server_factory: Any, roll_calls: RollCalls
) -> None:
    """Two lobby tabs of one member on two workers: closing the first is answered from the second worker, so
    the member stays in the queue; closing the second too leaves it."""
    async with server_factory(sqlite_url, redis_url) as one, server_factory(sqlite_url, redis_url) as two:
        alice = await _client(one.http, "alice")
        try:
            async with connect(f"{two.ws}/ws/lobby", additional_headers=_cookie(alice)) as second:
                await _recv(second, "queue")
                async with connect(f"{one.ws}/ws/lobby", additional_headers=_cookie(alice)) as first:
                    await _recv(first, "queue")
                    await _join(alice)
                await _next(roll_calls.done)
                assert await _status(alice) == "waiting"
            await _next(roll_calls.done)
            assert await _status(alice) == "none"
        finally:
            await alice.aclose()


async def test_leaving_the_lobby_page_leaves_the_queue(served: Any, roll_calls: RollCalls) -> None:
    """Nobody answers the roll call: the entry goes (no polling meanwhile — ``GET /api/queue`` is itself a
    heartbeat, the way a script stays in the queue)."""
    alice = await _client(served.http, "alice")
    try:
        async with connect(f"{served.ws}/ws/lobby", additional_headers=_cookie(alice)) as wa:
            await _recv(wa, "queue")
            r = await alice.post("/api/queue", json={"game": "duel"})
            assert r.json()["status"] == "waiting"
        await _next(roll_calls.done)
        assert await _status(alice) == "none"
    finally:
        await alice.aclose()


async def test_the_queue_pairs_two_lobby_pages_and_tells_both(served: Any) -> None:
    alice, bob = await _client(served.http, "alice"), await _client(served.http, "bob")
    try:
        lobby = f"{served.ws}/ws/lobby"
        async with (
            connect(lobby, additional_headers=_cookie(alice)) as wa,
            connect(lobby, additional_headers=_cookie(bob)) as wb,
        ):
            await _recv(wa, "queue")
            await _recv(wb, "queue")
            assert (await alice.post("/api/queue", json={"game": "mezha"})).json()["status"] == "waiting"
            assert (await bob.post("/api/queue", json={"game": "mezha"})).json()["status"] == "matched"
            ma, mb = await _recv(wa, "match"), await _recv(wb, "match")
            assert ma["id"] == mb["id"] and ma["why"] == "queue"
    finally:
        await alice.aclose()
        await bob.aclose()


@pytest.mark.redis
async def test_the_table_is_live_across_workers_over_redis(
    sqlite_url: str, redis_url: str, server_factory: Any
) -> None:
    """Two workers on one database and one Redis: a challenge published through one appears on a lobby socket
    of the other, and accepting it there tells the author's socket on the first."""
    async with server_factory(sqlite_url, redis_url) as one, server_factory(sqlite_url, redis_url) as two:
        alice, bob = await _client(one.http, "alice"), await _client(two.http, "bob")
        try:
            async with (
                connect(f"{one.ws}/ws/lobby", additional_headers=_cookie(alice)) as wa,
                connect(f"{two.ws}/ws/lobby", additional_headers=_cookie(bob)) as wb,
            ):
                await _recv(wa, "queue")
                await _recv(wb, "queue")
                r = await alice.post("/api/challenges", json={"game": "duel"})
                mid = r.json()["id"]
                while not (await _recv(wb, "challenges"))["items"]:
                    pass
                assert (await bob.post(f"/api/challenges/{mid}/accept", json={})).status_code == 200
                assert (await _recv(wa, "match"))["id"] == mid
        finally:
            await alice.aclose()
            await bob.aclose()


async def test_a_ping_gets_a_pong_and_nothing_else(served: Any) -> None:
    """The page's heartbeat (static/js/live.js): ``ping`` is answered with ``pong`` at once, by players and
    spectators alike, and changes nothing (no state, no error)."""
    alice, bob = await _client(served.http, "alice"), await _client(served.http, "bob")
    try:
        created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        mid = created["id"]
        await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
        for headers in (_cookie(alice), {}):
            async with connect(f"{served.ws}/ws/matches/{mid}", additional_headers=headers) as ws:
                await _recv(ws, "state")
                await _recv(ws, "presence")
                await ws.send(json.dumps({"type": "ping"}))
                others = []
                async with asyncio.timeout(5):
                    while (msg := json.loads(await ws.recv())) != {"type": "pong"}:
                        others.append(msg["type"])
                assert set(others) <= {"presence"}, others  # the seat's own arrival may be announced late
        assert (await alice.get(f"/api/matches/{mid}/state")).json()["seq"] == 0
    finally:
        await alice.aclose()
        await bob.aclose()
