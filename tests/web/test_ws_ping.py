"""The server's WebSocket pings (``WS_PING_SECONDS``, cli.uvicorn_options; issue 29 §4): sent at the
configured interval to a socket that says nothing, and never when set to 0. Read off the wire by a raw
client (a WebSocket library would answer the pings unseen)."""

from __future__ import annotations

import asyncio
import base64
import os
from typing import Any

from httpx import AsyncClient

PING = 0x9


async def _opcodes_within(port: int, path: str, cookie: str, seconds: float) -> list[int]:
    """The opcodes of the frames the server sends on ``path`` within ``seconds`` of the handshake."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nCookie: {cookie}\r\n"
            f"Origin: http://127.0.0.1:{port}\r\n\r\n"
        ).encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    opcodes: list[int] = []
    try:
        async with asyncio.timeout(seconds):
            while True:
                first, second = await reader.readexactly(2)
                size = second & 0x7F
                if size == 126:
                    size = int.from_bytes(await reader.readexactly(2), "big")
                elif size == 127:
                    size = int.from_bytes(await reader.readexactly(8), "big")
                await reader.readexactly(size)
                opcodes.append(first & 0x0F)
                if first & 0x0F == PING:
                    break
    except TimeoutError:
        pass
    finally:
        writer.close()
    return opcodes


async def _seated_socket(
    sqlite_url: str, server_factory: Any, ping_seconds: float, seconds: float
) -> list[int]:
    served_app = server_factory(sqlite_url, WS_PING_SECONDS=ping_seconds)  # conftest's
    async with served_app as served, AsyncClient(base_url=served.http) as c:
        r = await c.post("/api/auth/register", json={"username": "alice", "password": "password123"})
        assert r.status_code == 201
        created = (await c.post("/api/matches", json={"game": "duel", "vs": "invite"})).json()
        cookie = f"duelclub_session={c.cookies['duelclub_session']}"
        return await _opcodes_within(served.port, f"/ws/matches/{created['id']}", cookie, seconds)


async def test_a_silent_socket_is_pinged_at_the_configured_interval(
    sqlite_url: str, server_factory: Any
) -> None:
    opcodes = await _seated_socket(sqlite_url, server_factory, 0.3, seconds=5.0)
    assert PING in opcodes, opcodes


async def test_no_pings_when_switched_off(sqlite_url: str, server_factory: Any) -> None:
    opcodes = await _seated_socket(sqlite_url, server_factory, 0, seconds=1.5)
    assert opcodes and PING not in opcodes, opcodes  # the state frame came, no ping
