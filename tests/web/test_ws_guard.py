"""WebSocket messages are parsed under limits (issue 13 §1.4, §1.5): deep nesting gets ``malformed`` and the
socket stays open; every socket has a message budget (``rate_limited``, then a close with 1008)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from httpx import AsyncClient
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from duelclub.web.socket_messages import TURNS_SERVER_MESSAGE
from duelclub.web.wsguard import MessageGuard, nesting_depth

PW = "password123"


async def login_client(base: str, username: str) -> AsyncClient:
    c = AsyncClient(base_url=base)
    r = await c.post("/api/auth/register", json={"username": username, "password": PW})
    assert r.status_code == 201, r.text
    return c


def cookies(c: AsyncClient) -> dict[str, str]:
    return {"Cookie": f"duelclub_session={c.cookies['duelclub_session']}"}


async def next_of(ws: ClientConnection, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == kind:
                return dict(msg)


async def _match(base: str) -> tuple[AsyncClient, AsyncClient, str]:
    alice, bob = await login_client(base, "alice"), await login_client(base, "bob")
    created = (await alice.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
    r = await bob.post(f"/api/invites/{created['invite_token']}/accept", json={})
    assert r.status_code == 200, r.text
    return alice, bob, created["id"]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000 + "]" * 5000,
        '{"type": "act", "id": "x", "seq": 0, "action": ' + '{"a":' * 3000 + "1" + "}" * 3000 + "}",
        '{"id": ' + "[" * 100_000,
    ],
)
async def test_deep_nesting_is_malformed_and_the_socket_stays_open(served: Any, text: str) -> None:
    """``"[" * 5000 + "]" * 5000`` crashed the socket with a RecursionError (no close frame)."""
    alice, bob, mid = await _match(served.http)
    try:
        async with connect(f"{served.ws}/ws/matches/{mid}", additional_headers=cookies(alice)) as ws:
            await next_of(ws, "state")
            await ws.send(text)
            error = await next_of(ws, "error")
            assert error["code"] in ("malformed", "too_large"), error
            await ws.send(json.dumps({"type": "ping"}))
            assert await next_of(ws, "pong") == {"type": "pong"}
    finally:
        await alice.aclose()
        await bob.aclose()


async def test_nul_in_a_socket_message_is_malformed(served: Any) -> None:
    alice, bob, mid = await _match(served.http)
    try:
        async with connect(f"{served.ws}/ws/matches/{mid}", additional_headers=cookies(alice)) as ws:
            state = await next_of(ws, "state")
            act = {"type": "act", "id": "a\u0000b", "seq": state["seq"], "action": {"kind": "resign"}}
            await ws.send(json.dumps(act))
            assert (await next_of(ws, "error"))["code"] == "malformed"
            assert (await alice.get(f"/api/matches/{mid}")).json()["status"] == "active"
    finally:
        await alice.aclose()
        await bob.aclose()


async def _flood(ws: ClientConnection, count: int) -> tuple[int, list[str], int | None]:
    """Send ``count`` pings at once; (pongs, error codes, close code) until the socket closes or is quiet."""
    for _ in range(count):
        await ws.send(json.dumps({"type": "ping"}))
    pongs, errors, code = 0, [], None
    with contextlib.suppress(TimeoutError):
        try:
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 2.0))
                if msg["type"] == "pong":
                    pongs += 1
                elif msg["type"] == "error":
                    errors.append(msg["code"])
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
    return pongs, errors, code


@pytest.fixture
async def budget_server(sqlite_url: str, server_factory: Callable[..., Any]) -> AsyncIterator[Any]:
    """A server with a small budget: 20 messages per 20 s, closed after 10 refusals in a row."""
    budget = {"WS_MESSAGE_BUDGET": "20 per 20 seconds", "WS_OVER_BUDGET_CLOSE": 10}
    async with server_factory(sqlite_url, **budget) as s:
        yield s


async def test_a_match_socket_over_its_budget_is_refused_then_closed(budget_server: Any) -> None:
    """1,000 messages in a second on /ws/matches/{id} were all answered."""
    alice, bob, mid = await _match(budget_server.http)
    try:
        async with connect(f"{budget_server.ws}/ws/matches/{mid}", additional_headers=cookies(alice)) as ws:
            await next_of(ws, "state")
            pongs, errors, code = await _flood(ws, 1000)
        assert pongs <= 21, pongs
        assert errors and set(errors) == {"rate_limited"}, errors
        assert code == 1008
    finally:
        await alice.aclose()
        await bob.aclose()


async def test_a_flood_and_a_malformed_message_are_logged_once_each(
    budget_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Floods, their 1008 close and malformed frames left no trace in the log (stop 39's fresh-user run);
    now one WARNING each per socket, however long the flood."""
    alice, bob, mid = await _match(budget_server.http)
    caplog.set_level(logging.WARNING, logger="duelclub.web.wsbase")
    try:
        async with connect(f"{budget_server.ws}/ws/matches/{mid}", additional_headers=cookies(alice)) as ws:
            await next_of(ws, "state")
            for _ in range(3):
                await ws.send(json.dumps({"type": "bogus"}))
            assert (await next_of(ws, "error"))["code"] == "malformed"
            await _flood(ws, 1000)
    finally:
        await alice.aclose()
        await bob.aclose()
    lines = [r.getMessage() for r in caplog.records if r.name == "duelclub.web.wsbase"]
    path = f"socket /ws/matches/{mid} from 127.0.0.1"
    assert len(lines) == 3, lines
    assert lines[0].startswith(f"{path} sent a malformed message: ")
    assert lines[1].startswith(f"{path} refused a message: rate_limited (")
    assert lines[2] == f"{path} closed with 1008: a flood after its refusals (rate_limited)"


async def test_the_anonymous_lobby_socket_has_a_budget_too(budget_server: Any) -> None:
    async with connect(f"{budget_server.ws}/ws/lobby") as ws:
        await next_of(ws, "challenges")
        for _ in range(1000):
            await ws.send(json.dumps({"type": "sync"}))
        tables, errors, code = 0, [], None
        with contextlib.suppress(TimeoutError):
            try:
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 2.0))
                    tables += msg["type"] == "challenges"
                    if msg["type"] == "error":
                        errors.append(msg["code"])
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
    assert tables <= 21, tables
    assert errors and set(errors) == {"rate_limited"}
    assert code == 1008


def test_a_normal_pace_never_meets_the_budget() -> None:
    """The default budget (100 per 20 s): a page acting every 0.3 s and pinging every 25 s for ten minutes."""
    now = [0.0]
    guard = MessageGuard(
        budget=100, window_seconds=20, close_after=20, max_bytes=65536, max_nesting=32, clock=lambda: now[0]
    )
    for step in range(2000):
        now[0] = step * 0.3
        assert guard.check('{"type":"act","id":"x","seq":1,"action":{"kind":"play","card":3}}') is None


def test_the_budget_refills_over_the_window() -> None:
    now = [0.0]
    guard = MessageGuard(
        budget=10, window_seconds=20, close_after=5, max_bytes=65536, max_nesting=32, clock=lambda: now[0]
    )
    assert all(guard.check("{}") is None for _ in range(10))
    refused = guard.check("{}")
    assert refused is not None and refused.code == "rate_limited" and not guard.exhausted
    now[0] = 2.0  # one message's worth
    assert guard.check("{}") is None and guard.check("{}") is not None


def test_nesting_depth_skips_strings() -> None:
    assert nesting_depth('{"a": "[[[[[[[[[[", "b": [1, [2]]}') == 3
    assert nesting_depth('"\\"[[[["') == 0
    assert nesting_depth("[" * 40 + "]" * 40) == 40


async def test_the_turns_socket_floods_into_a_close_too(budget_server: Any) -> None:
    """/ws/turns reads nothing the client says, but its frames pass the same guard (issue 30 §5): a flood is
    closed with 1008 after WS_OVER_BUDGET_CLOSE refusals, quietly (no error frames: it answers nothing)."""
    alice = await login_client(budget_server.http, "alice")
    try:
        async with connect(f"{budget_server.ws}/ws/turns", additional_headers=cookies(alice)) as ws:
            first = await next_of(ws, "turns")
            assert TURNS_SERVER_MESSAGE.validate_python(first) == {"type": "turns", "count": 0, "ids": []}
            pongs, errors, code = await _flood(ws, 1000)
        assert (pongs, errors, code) == (0, [], 1008)
    finally:
        await alice.aclose()


def test_one_read_loop_for_every_socket() -> None:
    """Only web/wsbase.py reads a socket's frames; the three sockets subclass its GuardedSocket."""
    from pathlib import Path

    from duelclub.web import lobby_ws, turns, ws, wsbase

    web = Path(wsbase.__file__).parent
    readers = sorted(p.name for p in web.rglob("*.py") if ".receive()" in p.read_text(encoding="utf-8"))
    assert readers == ["wsbase.py"]
    for cls in (ws.MatchSocket, lobby_ws.LobbySocket, turns.TurnWatch):
        assert issubclass(cls, wsbase.GuardedSocket)
        assert "read_loop" not in vars(cls)
