"""A send to a socket that is already closed is a normal event (issue 31 §4): nothing raised out of the
handler, nothing logged above DEBUG — in every socket handler (web/ws.py, web/lobby_ws.py, web/turns.py share
web/wssend.py). The socket is Starlette's own over a fake ASGI connection, closed three ways: by the server
(Starlette's 'Cannot call "send" once a close message has been sent'), by the page going away (uvicorn's
``ClientDisconnected``, an OSError) and by websockets' ``ConnectionClosed``."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketState
from uvicorn.protocols.utils import ClientDisconnected
from websockets.exceptions import ConnectionClosed

from duelclub.web import wssend
from duelclub.web.lobby_ws import LobbySocket
from duelclub.web.turns import TurnWatch
from duelclub.web.ws import MatchSocket


class FakeConnection:
    """The ASGI side of one socket: the handshake, then ``fail`` raised by every send (None: sends work)."""

    def __init__(self, fail: BaseException | None = None) -> None:
        self.fail = fail
        self.sent: list[Message] = []

    async def receive(self) -> Message:
        return {"type": "websocket.connect"}

    async def send(self, message: Message) -> None:
        if self.fail is not None and message["type"] == "websocket.send":
            raise self.fail
        self.sent.append(message)


async def socket_closed(app: FastAPI, how: str, raw: bool = False) -> tuple[WebSocket, FakeConnection]:
    """An accepted socket of ``app``, then closed: ``server`` (our close was sent), ``client_gone``
    (uvicorn's ClientDisconnected on send), ``connection_closed`` (websockets' ConnectionClosed on send).
    ``raw``: frames go to the server's send directly (the scope's ``RAW_SEND``, as under web/observe.py)."""
    fail: BaseException | None = {
        "server": None,
        "client_gone": ClientDisconnected(),
        "connection_closed": ConnectionClosed(None, None),
    }[how]
    conn = FakeConnection(fail)
    scope: dict[str, Any] = {"type": "websocket", "path": "/ws/x", "headers": [], "app": app}
    if raw:
        scope[wssend.RAW_SEND] = conn.send
    ws = WebSocket(scope, conn.receive, conn.send)
    await ws.accept()
    if how == "server":
        await ws.close(code=4401)
    return ws, conn


Handler = Callable[[WebSocket, Any], Awaitable[None]]


async def match_ping(ws: WebSocket, service: Any) -> None:
    # The path of the report: handle → send → send_text.
    await MatchSocket(ws, service, "m1", None).handle('{"type": "ping"}')


async def match_error(ws: WebSocket, service: Any) -> None:
    await MatchSocket(ws, service, "m1", None).error("malformed", "bad message")


async def lobby_send(ws: WebSocket, service: Any) -> None:
    await LobbySocket(ws, service, None).send({"type": "challenges", "items": []})


async def turns_send(ws: WebSocket, service: Any) -> None:
    await TurnWatch(ws, service, 1).report()


HANDLERS = {"match_ping": match_ping, "match_error": match_error, "lobby": lobby_send, "turns": turns_send}


@pytest.mark.parametrize("raw", [False, True], ids=["chain", "raw"])
@pytest.mark.parametrize("how", ["server", "client_gone", "connection_closed"])
@pytest.mark.parametrize("handler", list(HANDLERS))
async def test_a_send_after_close_raises_nothing_and_logs_nothing_above_debug(
    app: FastAPI, caplog: pytest.LogCaptureFixture, handler: str, how: str, raw: bool
) -> None:
    ws, conn = await socket_closed(app, how, raw)
    caplog.clear()
    caplog.set_level(logging.DEBUG)
    await HANDLERS[handler](ws, app.state.service)
    assert [r for r in caplog.records if r.levelno > logging.DEBUG] == []
    assert not any(m["type"] == "websocket.send" for m in conn.sent)


async def test_a_send_on_an_open_socket_goes_out(app: FastAPI) -> None:
    conn = FakeConnection()
    ws = WebSocket({"type": "websocket", "path": "/ws/x", "headers": [], "app": app}, conn.receive, conn.send)
    await ws.accept()
    assert await wssend.send_text(ws, "hello") is True
    assert conn.sent[-1] == {"type": "websocket.send", "text": "hello"}


async def test_a_close_after_close_is_quiet(app: FastAPI, caplog: pytest.LogCaptureFixture) -> None:
    ws, _conn = await socket_closed(app, "server")
    caplog.set_level(logging.DEBUG)
    await wssend.close(ws, 1013)
    assert [r for r in caplog.records if r.levelno > logging.DEBUG] == []


async def test_an_open_socket_sends_its_frames_by_the_servers_own_send(app: FastAPI) -> None:
    """Issue 29 §1: with ``RAW_SEND`` in the scope a frame skips the middleware chain (here: a chain that
    would fail), and a client gone on the raw send leaves the socket marked closed, as Starlette's send
    does."""
    conn = FakeConnection()

    async def chain(message: Message) -> None:
        if message["type"] == "websocket.send":
            raise AssertionError("the frame went down the chain")
        await conn.send(message)

    scope: dict[str, Any] = {"type": "websocket", "path": "/ws/x", "headers": [], "app": app}
    scope[wssend.RAW_SEND] = conn.send
    ws = WebSocket(scope, conn.receive, chain)
    await ws.accept()
    assert await wssend.send_text(ws, "hello") is True
    assert conn.sent[-1] == {"type": "websocket.send", "text": "hello"}
    conn.fail = ClientDisconnected()
    assert await wssend.send_text(ws, "late") is False
    assert ws.application_state is WebSocketState.DISCONNECTED
