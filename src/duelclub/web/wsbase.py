"""The one base of the club's WebSockets (issue 30 §5): :class:`GuardedSocket` owns the opening handshake's
checks, the read loop, the guard every message passes and the close codes. ``web/ws.py`` (a match),
``web/lobby_ws.py`` (the lobby) and ``web/turns.py`` («Ваш ход») each subclass it and say only what is
theirs: which client messages they accept (:attr:`GuardedSocket.messages`), what a message does
(:meth:`~GuardedSocket.on_message`), and how a refusal or a malformed message is answered.

The read loop, for every frame until the client goes away:

1. the guard (web/wsguard.py): the per-socket budget, the size cap, the nesting cap, NUL, binary frames —
   a refusal goes to :meth:`~GuardedSocket.refuse` and the socket stays open, until the flood goes on
   (:attr:`MessageGuard.exhausted`): then a close with :data:`POLICY_VIOLATION` (1008);
2. the JSON and its shape (:attr:`~GuardedSocket.messages`, a pydantic adapter of the socket's client
   messages, web/socket_messages.py): a message that fails goes to :meth:`~GuardedSocket.malformed`;
3. the message, typed, to :meth:`~GuardedSocket.on_message`.

Close codes (RFC 6455 §7.4.1; the 4xxx are the club's, after HTTP's statuses): 1008 (:data:`POLICY_VIOLATION`)
for a cross-origin handshake or a flood that went on after its refusals; 1013 (:data:`TRY_AGAIN_LATER`) for a
store outage (web/outage.py); 4401 (:data:`NOT_AUTHENTICATED`) for a socket that needs a member, or whose
member's session ended; 4404 (:data:`NOT_FOUND`) for no such match.

Logged (logger ``duelclub.web.wsbase``, WARNING): a socket's first refusal by the guard, its first malformed
message, and a 1008 close after a flood, each with the socket's path and the client's address — once per
socket and kind, so a flood cannot flood the log.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

from pydantic import TypeAdapter, ValidationError
from starlette.websockets import WebSocket

from duelclub.web import wssend
from duelclub.web.outage import TRY_AGAIN_LATER
from duelclub.web.security import origin_ok
from duelclub.web.wsguard import POLICY_VIOLATION, MessageGuard, Refusal

log = logging.getLogger(__name__)

NOT_AUTHENTICATED = 4401
"""The socket needs a member (``/ws/turns``) or the member's session ended (``/ws/matches/…``)."""
NOT_FOUND = 4404
"""No such match."""


async def refused_cross_origin(ws: WebSocket) -> bool:
    """The handshake's check: a cross-origin socket is refused (1008, before it is accepted: the page of
    another site cannot ride the member's cookie). True when it was refused."""
    if origin_ok(ws):
        return False
    await ws.close(code=POLICY_VIOLATION)
    return True


async def accept(ws: WebSocket) -> bool:
    """:func:`refused_cross_origin`, then accept the socket; True when it was accepted."""
    if await refused_cross_origin(ws):
        return False
    await ws.accept()
    return True


class GuardedSocket:
    """One open socket: its guard and its read loop (the module docstring). Subclasses set
    :attr:`messages` and implement :meth:`on_message`; :meth:`refuse` and :meth:`malformed` answer nothing
    unless overridden."""

    messages: ClassVar[TypeAdapter[Any] | None] = None
    """The client messages the socket accepts (a discriminated union's adapter); None: the client is
    expected to send nothing, and whatever it sends is ignored (after the guard)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.guard = MessageGuard.from_settings(ws.app.state.settings)
        self._logged: set[str] = set()

    async def read_loop(self) -> None:
        """Read and handle the client's frames until it goes away, or until it floods (closed with 1008)."""
        while True:
            raw = await self.ws.receive()
            if raw["type"] == "websocket.disconnect":
                return
            text = raw.get("text")
            refused = self.guard.check(text)
            if refused is not None:
                if self.guard.exhausted:
                    why = refused.code
                    self._log_once("closed", "closed with 1008: a flood after its refusals (%s)", why)
                    await self.close(POLICY_VIOLATION)
                    return
                self._log_once(refused.code, "refused a message: %s (%s)", refused.code, refused.message)
                await self.refuse(refused)
                continue
            assert text is not None  # the guard refuses a binary frame
            await self.handle(text)

    async def handle(self, text: str) -> None:
        """One message that passed the guard: parsed by :attr:`messages`, then :meth:`on_message`."""
        if self.messages is None:
            return
        try:
            msg = self.messages.validate_json(text)
        except ValidationError as exc:
            self._log_once("malformed", "sent a malformed message: %s", exc.errors()[0].get("msg", "?"))
            await self.malformed(text, exc)
            return
        await self.on_message(msg)

    async def on_message(self, msg: Any) -> None:
        """A client message, typed by :attr:`messages`."""

    def _log_once(self, kind: str, text: str, *args: Any) -> None:
        """A WARNING about this socket (the module docstring), the first time only for each ``kind``."""
        if kind in self._logged:
            return
        self._logged.add(kind)
        client = self.ws.client
        log.warning("socket %s from %s " + text, self.ws.url.path, client.host if client else "?", *args)

    async def refuse(self, refusal: Refusal) -> None:
        """Answer a message the guard refused (``rate_limited``, ``too_large``, ``malformed``)."""

    async def malformed(self, text: str, exc: ValidationError) -> None:
        """Answer a message that is not JSON or not one of :attr:`messages`."""

    async def close(self, code: int) -> None:
        """Close the socket with ``code``; quietly if it is closed already (web/wssend.py)."""
        await wssend.close(self.ws, code)


__all__ = [
    "NOT_AUTHENTICATED",
    "NOT_FOUND",
    "POLICY_VIOLATION",
    "TRY_AGAIN_LATER",
    "GuardedSocket",
    "accept",
    "refused_cross_origin",
]
