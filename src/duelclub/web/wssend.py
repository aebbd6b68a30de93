"""Sending on and closing a WebSocket that may already be closed (issue 31 §4), for every socket handler
(``web/ws.py``, ``web/lobby_ws.py``, ``web/turns.py``).

A page may go away at any moment, and the server closes sockets itself (a session that ended: 4401, a flood:
1008, a store outage: 1013) while another task of the same socket is about to send. A send after the close is
a normal event, not an error: :func:`send_text` answers False instead of raising, and logs at DEBUG only.
What it absorbs (:data:`CLOSED_ERRORS`): Starlette's ``WebSocketDisconnected`` (a RuntimeError: 'Cannot call
"send" once a close message has been sent'), its other RuntimeErrors of the same state checks,
``WebSocketDisconnect`` (the client's side is gone: Starlette turns uvicorn's ``ClientDisconnected`` into it),
``OSError`` and websockets' ``ConnectionClosed``. :func:`close` is as quiet about a socket that is closed.

A frame goes straight to the server's own ``send`` (:data:`RAW_SEND`, put in the scope by web/observe.py),
not down the middleware chain: for ``websocket.send`` every layer there only passes it on (each looks at
``http.response.start`` or ``websocket.accept`` alone), and the five awaits cost a few percent of a move's
CPU (issue 29 §1). Starlette's own state check is kept: nothing is sent before the accept or after a close.
"""

from __future__ import annotations

import logging

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState
from websockets.exceptions import ConnectionClosed

log = logging.getLogger(__name__)

RAW_SEND = "duelclub.raw_send"
"""The scope key of the ASGI server's ``send`` for this socket (set by web/observe.py)."""

CLOSED_ERRORS: tuple[type[BaseException], ...] = (
    WebSocketDisconnect,
    RuntimeError,
    OSError,
    ConnectionClosed,
)
"""What a send or a close raises when the socket is already closed (see the module docstring)."""


def _where(ws: WebSocket) -> str:
    return str(ws.scope.get("path", "?"))


async def send_text(ws: WebSocket, text: str) -> bool:
    """Send ``text``; True if it went out, False (quietly: a DEBUG line) if the socket is already closed."""
    if ws.application_state is WebSocketState.DISCONNECTED:
        log.debug("%s: not sent, the socket is closed", _where(ws))
        return False
    raw = ws.scope.get(RAW_SEND)
    try:
        if raw is not None and ws.application_state is WebSocketState.CONNECTED:
            await raw({"type": "websocket.send", "text": text})
        else:
            await ws.send_text(text)
    except CLOSED_ERRORS as exc:
        if isinstance(exc, OSError):  # as Starlette's own send: the client is gone
            ws.application_state = WebSocketState.DISCONNECTED
        log.debug("%s: not sent, the socket is closed (%s)", _where(ws), type(exc).__name__)
        return False
    return True


async def close(ws: WebSocket, code: int) -> None:
    """Close the socket with ``code`` (before or after the handshake); nothing if it is already closed."""
    if ws.application_state is WebSocketState.DISCONNECTED:
        return
    try:
        await ws.close(code=code)
    except CLOSED_ERRORS as exc:
        log.debug("%s: close %d not sent, the socket is closed (%s)", _where(ws), code, type(exc).__name__)
