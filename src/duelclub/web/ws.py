"""The match WebSocket ``/ws/matches/{id}`` (DESIGN.md §Real time). It only routes messages: the match
service is the one writer.

Server → client: ``{"type":"state", seq, seat, status, view, legal, clock, events, result, to_move}`` on
connect (no events), after every change of the match (any worker, via the bus; the events since the last
state this socket got) and on ``sync``; ``{"type":"ack", id, seq}``; ``{"type":"error", id, code, message}``.
One frame per act (issue 29 §1): a socket opened with ``?ack=state`` (static/js/live.js) gets no separate ack
for its act when the act's own state has not reached it yet — that state comes at once, built once per seat
on the match's owner, carrying ``"ack": id`` (on a worker that does not own the match, the act's change
from the owner names the act, and its push is the ack); otherwise (the state already went out, or the match
moved on meanwhile) the plain ack as above.
Client → server: ``{"type":"sync","seq":n}`` (state with the events after n), ``{"type":"act", id, seq,
action}`` (as ``POST …/actions``), ``{"type":"ping"}`` → ``{"type":"pong"}`` (the page's heartbeat: a socket
on a dead network may never close, so a page that hears nothing for a while pings, and drops the socket when
no answer comes; static/js/live.js). Auth is the session cookie; others are read-only spectators. Malformed
messages (also: nested deeper than ``WS_MAX_NESTING``) get an error ``malformed`` and the socket stays open;
so do messages over ``MAX_BODY_BYTES`` (64 KiB): error ``too_large``; and messages over the socket's budget
``WS_MESSAGE_BUDGET``: error ``rate_limited``, then a close with 1008 if it goes on (web/wsguard.py).
(``duelclub serve`` also caps frames at the server, ``ws_max_size`` 1 MiB: a bigger frame is never
buffered and the socket closes with 1009.) A cross-origin handshake is refused (1008). Every session that
ends (logout, logout-all, password change) is announced to the member's sockets on every worker
(web/session_watch.py): the socket checks it then, before its next act or push, and if it has ended gets
``not_authenticated`` and is closed with 4401 — no read per act (issue 12 §2).

Presence (issue 6): a seated player's sockets are counted by ``app.state.presence`` (play/presence.py);
whenever a seat connects or leaves, every socket of the match gets ``{"type":"presence", seq, seats,
grace_seconds, claim_at, can_claim}`` (also on connect), and ``{"type":"rematch", seq, id}`` when a rematch
is offered or accepted after the match. Every push carries the ``seq`` of the match state the socket last got.
Chat (issue 16 §5, play/chat.py): ``{"type":"chat", message}`` for each message the reader may see, and
``{"type":"chat_hidden", id}`` when an admin hides one; messages are posted over HTTP.

Every message is typed (issue 15 §3): what the socket sends and accepts in web/socket_messages.py, what it
hears on the bus in bus/messages.py — dispatched on ``type``, never told apart by which keys it has.

A database outage met on open closes the socket with 1013 (try again later: the page backs off and says so;
web/outage.py). One met by an open socket — an act, a ``sync``, a push — is answered with an error frame
``store_unavailable`` (with the act's id) and the socket stays open (issue 29 §6): the page shows its banner
and asks again after a pause; once the database is back the next ``sync`` or push brings the state. A send
after the socket closed is dropped quietly (web/wssend.py, issue 31).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import time

import anyio
import orjson
from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from duelclub import i18n
from duelclub.bus import Message, Subscription, match_channel
from duelclub.bus.base import RESYNC_KIND
from duelclub.bus.messages import Change, ChatPosted
from duelclub.play import blocks, chat, presence, views
from duelclub.play.errors import STORE_UNAVAILABLE, STORE_UNAVAILABLE_MESSAGE, PlayError
from duelclub.play.live import LiveMatch
from duelclub.play.presence import PresenceTracker
from duelclub.play.service import MatchService
from duelclub.store.matches import ACTIVE, OPEN
from duelclub.web import outage, wssend
from duelclub.web.deps import UserInfo, get_service, optional_user
from duelclub.web.session_watch import SessionWatch
from duelclub.web.socket_messages import (
    MATCH_CLIENT_MESSAGE,
    AckSent,
    ChatHiddenSent,
    ChatSent,
    ErrorSent,
    MatchClientMessage,
    MatchServerMessage,
    PingMessage,
    PongSent,
    PresenceSent,
    RematchSent,
    SyncMessage,
)
from duelclub.web.wsbase import NOT_AUTHENTICATED, NOT_FOUND, GuardedSocket, refused_cross_origin
from duelclub.web.wsguard import Refusal

log = logging.getLogger(__name__)
router = APIRouter()

SHUT_OUT_SECONDS = 30.0
"""How long a socket keeps its reader's blocks before reading them again (only when a chat message comes)."""


class MatchSocket(GuardedSocket):
    """One connected socket: its user, the seq of the last state sent, and a lock serializing sends; the
    read loop and the guard are :class:`GuardedSocket`'s."""

    messages = MATCH_CLIENT_MESSAGE

    def __init__(self, ws: WebSocket, service: MatchService, match_id: str, user: UserInfo | None) -> None:
        super().__init__(ws)
        self.service, self.match_id, self.user = service, match_id, user
        self.sent_seq: int | None = None
        self.sent_status: str | None = None
        self.seat: int | None = None
        self.ack_in_state = False
        """The client takes a state carrying ``"ack"`` as its act's ack (``?ack=state``)."""
        self.acting: str | None = None
        """The id of the act this socket is waiting on (its change's push may carry the ack)."""
        self.acked: str | None = None
        """The id of the last act acknowledged by its change's push (:meth:`push_changes`)."""
        self._flagged = self._checked = 0  # session-end notices received / covered by a check that passed
        self.closing = False
        """Set once the socket is being closed for an ended session."""
        self._send_lock = asyncio.Lock()
        self._sub: Subscription | None = None
        self._pusher: asyncio.Task[None] | None = None
        self._context: contextvars.Context | None = None
        self._shut: tuple[float, frozenset[int]] | None = None
        """When the reader's blocks were read, and the ids they blocked (:meth:`_shut_out`)."""

    @property
    def must_recheck(self) -> bool:
        """Set by :class:`SessionWatch` when a session of this member ended somewhere; cleared only by a
        check that started after the last such notice and found the session alive."""
        return self._flagged > self._checked

    @must_recheck.setter
    def must_recheck(self, value: bool) -> None:
        if value:
            self._flagged += 1
        else:
            self._checked = self._flagged

    async def send(self, message: MatchServerMessage) -> None:
        await self.send_text(json.dumps(message, separators=(",", ":"), default=str))

    async def send_text(self, text: str) -> None:
        """Send ``text``; after the socket closed, nothing (a DEBUG line: web/wssend.py, issue 31 §4)."""
        async with self._send_lock:
            await wssend.send_text(self.ws, text)

    async def error(self, code: str, message: str, action_id: str | None = None) -> None:
        await self.send(ErrorSent(type="error", id=action_id, code=code, message=message))

    async def unavailable(self, exc: BaseException, action_id: str | None = None) -> None:
        """An error frame ``store_unavailable`` if ``exc`` is a store outage (told to ``db.health``), the
        socket kept open (issue 29 §6); any other error is raised again."""
        if not outage.reported(self.ws, exc):
            raise exc
        await self.error(STORE_UNAVAILABLE, STORE_UNAVAILABLE_MESSAGE, action_id)

    async def session_alive(self) -> bool:
        """Whether the session this socket opened with still stands (logout, logout-all and a password
        change end sessions; an open socket must not outlive them). One indexed lookup. The flag stays set
        until the session is found alive, so an act arriving while a check is under way checks too (it
        used to be cleared first, and such an act went through: a flaky test in CI)."""
        notices = self._flagged
        user = await anyio.to_thread.run_sync(optional_user, self.ws)
        alive = user is not None and self.user is not None and user.id == self.user.id
        if alive:
            self._checked = max(self._checked, notices)
        return alive

    async def end_if_logged_out(self, action_id: str | None = None) -> None:
        """Before an act or a push: if a session of this member ended (the flag :class:`SessionWatch`
        sets), check this socket's; once it has ended, say so and close with 4401 (raises
        WebSocketDisconnect). No read at all while nothing ended."""
        if self.user is None or not self.must_recheck:
            return
        if not await self.session_alive():
            if not self.closing:  # the background check and an act may both find it ended
                self.closing = True
                await self.error("not_authenticated", "your session has ended; log in again", action_id)
                await self.close(NOT_AUTHENTICATED)
            raise WebSocketDisconnect(NOT_AUTHENTICATED)

    async def recheck(self) -> None:
        """The watch's check in the background: close the socket now if its session has ended."""
        with contextlib.suppress(Exception):
            await self.end_if_logged_out()

    async def push_state(
        self, since: int | None, known: Message | None = None, live: LiveMatch | None = None
    ) -> None:
        """Send the current state with the events after ``since`` (None: after the last state sent);
        ``live``: the match just caught up by the caller (no second read)."""
        live = await self.service.fresh(self.match_id, known) if live is None else live
        if since is None:
            if live.seq == self.sent_seq and live.status == self.sent_status:
                return
            since = self.sent_seq if self.sent_seq is not None else live.seq
        self.seat = live.seat_of(self.user.id if self.user else None)
        self.sent_seq, self.sent_status = live.seq, live.status
        await self.send_text(views.state_message(live, self.seat, since))

    async def ack_with_state(self, action_id: str, seq: int) -> bool:
        """One frame per act: send the state of the act stored as ``seq`` with ``"ack": action_id`` (the
        message the owner built for this seat, with the events after the last state this socket got), if
        the client asked for it and that state has not gone out yet; False when a plain ack is to go."""
        if not self.ack_in_state or (self.sent_seq is not None and self.sent_seq >= seq):
            return False
        live = await self.service.get_live(self.match_id)
        if live.seq != seq or self.seat is None:
            return False  # another change came in between: the pushes bring it
        since = self.sent_seq if self.sent_seq is not None else seq - 1
        text = views.state_message(live, self.seat, since)
        self.sent_seq, self.sent_status = live.seq, live.status
        await self.send_text(f'{{"ack":{orjson.dumps(action_id).decode()},{text[1:]}')
        return True

    async def push_changes(self, states: list[Change]) -> None:
        """Send the states of these change notices (in order). A notice carries each seated member's
        message, built once by the worker that made the change (``MatchService.changed``): a socket of that
        seat that last got the notice's ``since`` sends it as it is, with no read and no view built here.
        Any other socket (a spectator, a gap after a lost notice) reads the match and sends its own."""
        for i, m in enumerate(states):
            had = self.sent_seq is not None and int(m["seq"]) <= self.sent_seq
            if had and m["status"] == self.sent_status:
                continue  # this socket has that state already (its own act's, sent as the ack)
            text = m["push"].get(str(self.seat)) if self.seat is not None else None
            lang = m.get("lang")  # only games with worded events tag their pushes with a language
            if text is not None and lang is not None and lang != i18n.current_lang():
                text = None  # built for a reader of another language: this socket builds its own
            if text is None or m.get("since") != self.sent_seq:
                await self.push_state(None, states[-1])
                return
            self.sent_seq, self.sent_status = int(m["seq"]), str(m["status"])
            await self.send_text(self._with_ack(m, text))
            if i == len(states) - 1:
                return

    def _with_ack(self, m: Change, text: str) -> str:
        """``text`` (the push of change ``m``) carrying ``"ack"`` when ``m`` is the act this socket waits
        on, from its seat, and the client takes such a state as the ack: one frame per act on the worker
        that does not own the match too (the change comes from the owner before the forwarded answer)."""
        ack = m.get("ack")
        if not self.ack_in_state or ack is None or self.acting is None:
            return text
        if ack["id"] != self.acting or ack["seat"] != self.seat:
            return text
        self.acked = self.acting
        return f'{{"ack":{orjson.dumps(self.acting).decode()},{text[1:]}'

    async def push_chat(self, m: ChatPosted) -> None:
        """A chat message for this reader, if they may see its channel now (play/chat.py: players never
        see the spectators' channel during the match)."""
        live = await self.service.get_live(self.match_id)
        seat = live.seat_of(self.user.id if self.user else None)
        if not chat.sees(live, seat, str(m["message"].get("channel"))):
            return
        if self.user is not None and m["message"].get("user_id") in await self._shut_out(self.user.id):
            return  # a member this reader blocked (play/blocks.py): not in the history, not live either
        await self.send(ChatSent(type="chat", message=m["message"]))

    async def _shut_out(self, user_id: int) -> frozenset[int]:
        """The members this reader blocked, read on the first chat message and again after
        :data:`SHUT_OUT_SECONDS` (a block made meanwhile applies from then on)."""
        now = time.monotonic()
        if self._shut is None or now - self._shut[0] > SHUT_OUT_SECONDS:
            self._shut = (now, await blocks.shut_out(self.service, user_id))
        return self._shut[1]

    async def push_presence(self, live: LiveMatch | None = None, *, reread: bool = False) -> None:
        """Both seats' connection status (and, for a player, when the win may be claimed); ``live``: the
        match just caught up by the caller (no second read). Unless ``reread``, the match is not read
        again when the cache already holds the state this socket last sent."""
        uid = self.user.id if self.user else None
        known: dict[str, object] | None = None
        if not reread and self.sent_seq is not None and self.sent_status is not None:
            known = {"seq": self.sent_seq, "status": self.sent_status}
        found = await presence.presence(self.service, self.match_id, uid, live, known)
        fields = found.model_dump(mode="json")
        await self.send(PresenceSent(type="presence", seq=self.sent_seq, **fields))  # type: ignore[typeddict-item]

    def listen(self, sub: Subscription) -> None:
        """Push what the bus brings on ``sub`` from now on: a task runs only while there is something to
        send (an idle socket keeps no task waiting, issue 12: memory per idle socket)."""
        self._sub = sub
        self._context = contextvars.copy_context()  # this socket's (its reader's language): not the
        # context of whoever published the news, in which the bus calls :meth:`_wake`
        sub.on_message = self._wake
        if sub.pending:  # news that came before (e.g. while the first state was being sent)
            self._wake()

    def _wake(self) -> None:
        if self._pusher is None or self._pusher.done():
            self._pusher = asyncio.create_task(
                self._push_pending(), name=f"push:{self.match_id}", context=self._context
            )

    async def stop_pushing(self) -> None:
        """Stop listening and wait for a push under way (cancelled)."""
        if self._sub is not None:
            self._sub.on_message = None
        task, self._pusher = self._pusher, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                await task

    async def _push_pending(self) -> None:
        """Send a state for the bus notifications queued (bursts coalesced), presence and rematch
        notices; a bus ``resync`` (issue 18) re-reads the match and presence from the database.
        Ends when nothing is left, or quietly when the socket is gone (the read loop sees the disconnect);
        a store outage sends an error frame ``store_unavailable`` and keeps the socket (:meth:`unavailable`:
        the client syncs once the database is back)."""
        assert self._sub is not None
        while batch := self._sub.drain():
            try:
                await self._push_batch(batch)
            except PlayError:
                log.exception("match %s: cannot build a state", self.match_id)
            except Exception as exc:
                try:
                    await self.unavailable(exc)
                except Exception:
                    log.debug("match %s: push failed; socket closed", self.match_id, exc_info=True)
                return

    async def _push_batch(self, batch: list[Message]) -> None:
        """Dispatch a batch of bus messages (bus/messages.py) on their ``type``: rematch and chat notices go
        out in order; then one presence read for any number of presence notices, and the changes (or, after a
        ``resync``, one read of the match and the presence). Unknown types are ignored."""
        states: list[Change] = []
        resync = presence_changed = False
        await self.end_if_logged_out()
        for m in batch:
            kind = m.get("type")
            if kind == "change":
                states.append(m)  # type: ignore[arg-type]
            elif kind == "rematch":
                await self.send(RematchSent(type="rematch", seq=self.sent_seq, id=m["id"]))
            elif kind == "chat":
                await self.push_chat(m)  # type: ignore[arg-type]
            elif kind == "chat_hidden":
                await self.send(ChatHiddenSent(type="chat_hidden", id=m["id"]))
            elif kind == "presence":
                presence_changed = True
            elif kind == RESYNC_KIND:
                resync = True
        if resync:
            # The bus was down (news may be lost): read the match (seq gap → sync) and presence.
            await self.push_presence(reread=True)
            await self.push_state(None)
            return
        if presence_changed:
            await self.push_presence()
        if states:
            await self.push_changes(states)

    async def refuse(self, refusal: Refusal) -> None:
        await self.error(*refusal)

    async def malformed(self, text: str, exc: ValidationError) -> None:
        await self.error("malformed", exc.errors()[0].get("msg", "malformed message"), _guess_id(text))

    async def on_message(self, msg: MatchClientMessage) -> None:
        try:
            await self._on_message(msg)
        except (WebSocketDisconnect, OSError):
            raise
        except Exception as exc:  # a store outage: an error frame, the socket kept (issue 29 §6)
            await self.unavailable(exc, getattr(msg, "id", None))

    async def _on_message(self, msg: MatchClientMessage) -> None:
        if isinstance(msg, PingMessage):
            await self.send(PongSent(type="pong"))
            return
        if isinstance(msg, SyncMessage):
            await self.push_state(msg.seq)
            return
        if self.user is None:
            await self.error("not_authenticated", "log in to play", msg.id)
            return
        await self.end_if_logged_out(msg.id)
        self.acting = msg.id
        try:
            seq = await self.service.act_seq(self.match_id, self.user.id, msg.id, msg.seq, msg.action)
        except PlayError as exc:
            if self.acked != msg.id:  # (an act whose change went out was stored: its ack stands)
                await self.error(exc.code, exc.message, msg.id)
            return
        finally:
            self.acting = None
        if self.acked == msg.id:
            return  # its change's push was the ack (:meth:`push_changes`)
        if not await self.ack_with_state(msg.id, seq):
            await self.send(AckSent(type="ack", id=msg.id, seq=seq))


def _guess_id(text: str) -> str | None:
    try:
        data = orjson.loads(text)  # depth-limited: never a RecursionError (issue 13 §1.4)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return str(value) if isinstance(value, str | int) else None


async def match_socket(ws: WebSocket) -> None:
    """Live match connection (see the module docstring for the protocol).

    A plain Starlette route, not a FastAPI one: FastAPI's dependency injection keeps two exit stacks and
    its solved values alive for the whole life of a socket (~4 KB per idle socket, issue 12 — tracemalloc
    under benchmarks/load.py --idle-sockets), for two values read here directly."""
    if await refused_cross_origin(ws):
        return
    match_id: str = ws.path_params["match_id"]
    service = get_service(ws)
    user = await anyio.to_thread.run_sync(optional_user, ws)
    await ws.accept()
    sock = MatchSocket(ws, service, match_id, user)
    sock.ack_in_state = ws.query_params.get("ack") == "state"
    try:
        await service.get_live(match_id)  # 404 before subscribing (a cached match: no read)
    except PlayError as exc:
        await sock.error(exc.code, exc.message)
        await sock.close(NOT_FOUND)
        return
    sub = await service.bus.subscribe(match_channel(match_id))
    try:  # after subscribing: a later change comes as news; the first state and the presence are built
        live = await service.fresh(match_id)  # from this one read (each read it again before issue 29)
    except BaseException:
        await sub.close()
        raise
    tracker: PresenceTracker | None = getattr(ws.app.state, "presence", None)
    seat = live.seat_of(user.id if user else None)
    tracked = tracker is not None and seat is not None and live.status in (OPEN, ACTIVE)
    watch: SessionWatch | None = getattr(ws.app.state, "session_watch", None)
    if watch is not None and user is not None:
        watch.add(user.id, sock)
    try:
        if tracked:
            assert tracker is not None and seat is not None
            await tracker.connected(match_id, seat)
        await sock.push_state(None, live=live)
        await sock.push_presence(live)
        sock.listen(sub)
        try:
            await sock.read_loop()
        finally:
            await sock.stop_pushing()
    except (WebSocketDisconnect, OSError):  # the client went away while we were sending
        pass
    finally:
        await sub.close()
        if watch is not None and user is not None:
            watch.discard(user.id, sock)
        if tracked:
            assert tracker is not None and seat is not None
            with contextlib.suppress(Exception):
                await tracker.disconnected(match_id, seat)


router.add_websocket_route("/ws/matches/{match_id}", match_socket, name="match_socket")
