"""HTTP hardening: security headers on every response, the request body cap (413 ``too_large``) over ASGI and
on a real server (streamed bodies), and the WebSocket message cap."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
from httpx import AsyncClient
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from duelclub.cli import WS_MAX_FRAME_BYTES

LIMIT = 64 * 1024
EXPECTED_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}
CSP_DIRECTIVES = [
    "frame-ancestors 'none'",
    "default-src 'self'",
    "connect-src 'self' ws: wss:",
    "img-src 'self' data:",
    "style-src 'self'",
    "script-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
]


def assert_security_headers(r: httpx.Response) -> None:
    for name, value in EXPECTED_HEADERS.items():
        assert r.headers.get(name) == value, (r.request.url, name)
    csp = [d.strip() for d in r.headers["content-security-policy"].split(";")]
    for directive in CSP_DIRECTIVES:
        assert directive in csp, directive


@pytest.mark.parametrize(
    "method,path",
    [
        ("GET", "/"),
        ("HEAD", "/"),
        ("GET", "/login"),
        ("GET", "/api/games"),
        ("GET", "/api/me"),  # 401
        ("GET", "/api/nothing"),  # 404
        ("POST", "/api/auth/login"),  # 403 csrf (no JSON content type)
        ("GET", "/static/js/api.js"),
        ("GET", "/static/missing.js"),
        ("GET", "/docs"),
    ],
)
async def test_every_response_carries_the_security_headers(
    client_factory: Callable[[], AsyncClient], method: str, path: str
) -> None:
    r = await client_factory().request(method, path)
    assert_security_headers(r)


async def test_a_crash_still_carries_the_security_headers(app: Any) -> None:
    async def boom() -> None:
        raise RuntimeError("boom")

    app.add_api_route("/api/boom", boom)
    app.middleware_stack = None  # rebuilt on the next request, with the new route
    async with AsyncClient(
        transport=httpx.ASGITransport(app, raise_app_exceptions=False), base_url="http://testserver"
    ) as c:
        r = await c.get("/api/boom")
    assert r.status_code == 500 and r.json()["code"] == "internal"
    assert_security_headers(r)


async def test_a_body_over_64_kib_is_413_too_large(client_factory: Callable[[], AsyncClient]) -> None:
    c = client_factory()
    big = json.dumps({"username": "a" * LIMIT, "password": "x"})
    r = await c.post("/api/auth/login", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert r.json()["code"] == "too_large" and r.json()["message"]
    assert_security_headers(r)


async def test_a_body_just_under_the_cap_is_read(client_factory: Callable[[], AsyncClient]) -> None:
    body = json.dumps({"username": "a" * 41, "password": "password123"}).ljust(LIMIT)
    r = await client_factory().post(
        "/api/auth/login", content=body, headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 422  # read and validated (the name is too long), not refused for size


async def test_a_lying_content_length_does_not_get_past_the_cap(app: Any) -> None:
    """The ASGI app sees more body than the header declared: the count of bytes received decides."""
    sent: list[dict[str, Any]] = []
    chunks = [b"{" + b" " * (LIMIT // 2), b" " * (LIMIT // 2), b" " * 100 + b"}"]

    async def receive() -> dict[str, Any]:
        if chunks:
            body = chunks.pop(0)
            return {"type": "http.request", "body": body, "more_body": bool(chunks)}
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/auth/login",
        "raw_path": b"/api/auth/login",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"content-length", b"10"),
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
        "state": {},
    }
    await asyncio.wait_for(app(scope, receive, send), 10)
    starts = [m for m in sent if m["type"] == "http.response.start"]
    assert [m["status"] for m in starts] == [413]
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert json.loads(body)["code"] == "too_large"


async def test_a_streamed_body_over_the_cap_is_refused_on_a_real_server(served: Any) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"username": "'
        for _ in range(40):
            yield b"a" * 4096
        yield b'", "password": "x"}'

    async with AsyncClient(base_url=served.http) as c:
        r = await c.post("/api/auth/login", content=chunks(), headers={"Content-Type": "application/json"})
        assert r.status_code == 413 and r.json()["code"] == "too_large"
        r = await c.post(
            "/api/auth/login",
            content=b"x" * (LIMIT + 1),
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code == 413
        assert (await c.get("/api/games")).status_code == 200  # the server is fine


async def test_a_websocket_message_over_64_kib_is_too_large_and_the_socket_stays_open(served: Any) -> None:
    async with AsyncClient(base_url=served.http) as c:
        r = await c.post("/api/auth/register", json={"username": "alice", "password": "password123"})
        assert r.status_code == 201
        created = (await c.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        cookie = {"Cookie": f"duelclub_session={c.cookies['duelclub_session']}"}
    async with connect(f"{served.ws}/ws/matches/{created['id']}", additional_headers=cookie) as ws:

        async def next_of(kind: str) -> dict[str, Any]:
            async with asyncio.timeout(5):
                while True:
                    msg = json.loads(await ws.recv())
                    if msg["type"] == kind:
                        return dict(msg)

        await next_of("state")
        pad = "x" * (LIMIT + 10)
        await ws.send(json.dumps({"type": "act", "id": "a1", "seq": 0, "action": {"kind": "pad", "x": pad}}))
        err = await next_of("error")
        assert err["code"] == "too_large"
        await ws.send(json.dumps({"type": "sync", "seq": 0}))
        assert (await next_of("state"))["status"] == "open"


async def test_a_frame_over_the_server_cap_closes_the_socket_with_1009(served: Any) -> None:
    """``duelclub serve`` caps frames at ``WS_MAX_FRAME_BYTES`` (cli.uvicorn_options): a bigger frame is
    never buffered; the socket closes with 1009 (message too big) and the server stays up."""
    async with AsyncClient(base_url=served.http) as c:
        r = await c.post("/api/auth/register", json={"username": "alice", "password": "password123"})
        assert r.status_code == 201
        created = (await c.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        cookie = {"Cookie": f"duelclub_session={c.cookies['duelclub_session']}"}
        async with connect(
            f"{served.ws}/ws/matches/{created['id']}", additional_headers=cookie, max_size=None
        ) as ws:
            await ws.recv()
            await ws.send("x" * (WS_MAX_FRAME_BYTES + 1))
            with pytest.raises(ConnectionClosed):
                async with asyncio.timeout(5):
                    while True:
                        await ws.recv()
            assert ws.close_code == 1009
        assert (await c.get("/api/games")).status_code == 200
