"""The JSON API client and the player of the server benchmarks (benchmarks/loadkit.py is their kit): a
:class:`Player` plays one seat of one match over its WebSocket with random legal actions; :class:`Stats`
is what the players of one phase saw. Every loop is bounded by a deadline."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from loadbase import ENDED, SESSION_COOKIE, SYNC_AFTER_ACK_S, UNAVAILABLE_SYNC_S, Member, percentile
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.typing import Origin


# -- the JSON API -------------------------------------------------------------------------------------
@dataclass
class Stats:
    """What the players of one phase saw. ``latencies`` are seconds from send to ack."""

    acks: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    http_5xx: Counter[str] = field(default_factory=Counter)
    closes: int = 0
    http_status: Counter[int] = field(default_factory=Counter)
    """Answers of 500 and above by status (503 ``store_unavailable`` apart from a crash's 500)."""
    acked_ids: set[str] = field(default_factory=set)
    sent_ids: set[str] = field(default_factory=set)

    def ack(self, action_id: str, seconds: float) -> None:
        if action_id in self.acked_ids:
            return  # a resend's second answer
        self.acked_ids.add(action_id)
        self.acks += 1
        self.latencies.append(seconds)

    def late_ack(self, action_id: str) -> None:
        """An ack for an action this player no longer waits for (given up on, or resent): counted once,
        without a latency."""
        if action_id not in self.acked_ids:
            self.acked_ids.add(action_id)
            self.acks += 1

    def latency_ms(self) -> dict[str, float | None]:
        ordered = sorted(self.latencies)
        out: dict[str, float | None] = {}
        for name, q in (("p50_ms", 0.5), ("p90_ms", 0.9), ("p99_ms", 0.99)):
            value = percentile(ordered, q)
            out[name] = None if value is None else round(value * 1000, 1)
        return out


class Api:
    """The JSON API as members use it, one httpx client for all (each call carries the member's cookie).
    Answers of 500 and above are counted in ``stats.http_5xx`` by path kind."""

    def __init__(self, stats: Stats, timeout: float = 30.0) -> None:
        self.stats = stats
        self.client = httpx.AsyncClient(
            timeout=timeout, limits=httpx.Limits(max_connections=200, max_keepalive_connections=100)
        )

    async def close(self) -> None:
        await self.client.aclose()

    async def call(
        self,
        base: str,
        member: Member,
        method: str,
        path: str,
        body: Any = None,
        timeout: float | None = None,
    ) -> httpx.Response:
        headers = {"Cookie": f"{SESSION_COOKIE}={member.cookie}", "Origin": base}
        kwargs: dict[str, Any] = {"headers": headers, "json": body}
        if timeout is not None:
            kwargs["timeout"] = timeout
        r = await self.client.request(method, base + path, **kwargs)
        if r.status_code >= 500:
            self.stats.http_status[r.status_code] += 1
            parts = path.split("/")  # /api/matches/{id}/actions: the route, not the id
            self.stats.http_5xx[
                f"{method} " + "/".join(parts[:3] + ["{id}"] * (len(parts) > 3) + parts[4:])
            ] += 1
        return r

    async def me(self, base: str, member: Member) -> dict[str, Any]:
        """``GET /api/me``; raises when the cookie is not accepted."""
        r = await self.call(base, member, "GET", "/api/me")
        r.raise_for_status()
        return dict(r.json())

    async def invite_match(
        self,
        opener: tuple[str, Member],
        joiner: tuple[str, Member],
        game: str,
        move_seconds: int | None = None,
    ) -> str:
        """An invite match opened by one member on one worker and accepted by the other on theirs; its id
        (``move_seconds``: its move clock, None for the game's default). Raises httpx.HTTPStatusError on a
        refusal."""
        (base_a, a), (base_b, b) = opener, joiner
        body: dict[str, Any] = {"game": game, "vs": "invite"}
        if move_seconds is not None:
            body["move_seconds"] = move_seconds
        r = await self.call(base_a, a, "POST", "/api/matches", body)
        r.raise_for_status()
        token = r.json()["invite_token"]
        r = await self.call(base_b, b, "POST", f"/api/invites/{token}/accept", {})
        r.raise_for_status()
        return str(r.json()["id"])

    async def bot_match(self, base: str, member: Member, game: str, level: str) -> str:
        r = await self.call(
            base, member, "POST", "/api/matches", {"game": game, "vs": "bot", "bot_level": level}
        )
        r.raise_for_status()
        return str(r.json()["id"])


# -- a player -----------------------------------------------------------------------------------------
_ids = itertools.count(1)


class Player:
    """One seat of one match over one WebSocket (web/ws.py): it answers every state in which it may act with
    a random element of ``legal`` (never ``resign``, which is always legal), one action in flight.

    Every ``http_every``-th action goes through ``POST /api/matches/{id}/actions`` instead (0 = never). An
    action unanswered after ``resend_after`` seconds (None = never) is resent once with the same id through
    HTTP on ``alt_http`` (another worker). A socket closed by the server is counted and reopened after
    0.5 s (the page does the same); an action in flight on it then stays unanswered. Like the page
    (static/js/live.js) it sends ``sync`` after an error, after a push carrying a later seq than its state,
    and when an ack's state has not come within ``SYNC_AFTER_ACK_S``. ``hold`` set = make no
    new actions (a quiet spell). ``seen_seq`` is the highest state seq received over the socket. ``think``
    (seconds, 0 = none): a player whose turn it is waits 0.5–1.5 × ``think`` before acting, as a member
    would; the latency measured is still send → ack."""

    def __init__(
        self,
        api: Api,
        stats: Stats,
        member: Member,
        match_id: str,
        *,
        http: str,
        ws: str,
        alt_http: str | None = None,
        http_every: int = 0,
        resend_after: float | None = None,
        hold: asyncio.Event | None = None,
        rng: random.Random | None = None,
        think: float = 0.0,
    ) -> None:
        self.api, self.stats, self.member, self.match_id = api, stats, member, match_id
        self.think, self.think_until = think, 0.0
        self.http, self.ws_url, self.alt_http = http, ws, alt_http or http
        self.http_every, self.resend_after = http_every, resend_after
        self.hold = hold or asyncio.Event()
        self.rng = rng or random.Random()
        self.seq, self.legal, self.status = -1, list[Any](), "open"
        self.seen_seq = -1
        self.my_turn = False
        self.sync_at: float | None = None
        self.sync_seq = 0
        self.acted_at_seq = -2
        self.pending: tuple[str, int, dict[str, Any], float] | None = None  # id, seq, action, sent at
        self.actions = 0
        self.connected = False

    @property
    def ended(self) -> bool:
        return self.status in ENDED

    async def open(self) -> ClientConnection:
        """Open the socket (Origin = the worker, cookie = the member's session), asking for the state of
        its own act as the act's ack, as the page does (``?ack=state``; a server that predates it sends
        ``ack`` and the state apart, and both are understood)."""
        return await connect(
            f"{self.ws_url}/ws/matches/{self.match_id}?ack=state",  # as the page: one frame per act
            origin=Origin(self.http),
            additional_headers={"Cookie": f"{SESSION_COOKIE}={self.member.cookie}"},
            open_timeout=20,
            ping_interval=None,
            max_size=2**20,
        )

    async def play(self, until: float, sock: ClientConnection | None = None) -> None:
        """Play until the match ends or ``until`` (time.monotonic()); then close the socket."""
        while time.monotonic() < until and not self.ended:
            try:
                if sock is None:
                    sock = await asyncio.wait_for(self.open(), max(0.1, until - time.monotonic()))
                self.connected = True
                await self._session(sock, until)
            except (ConnectionClosed, InvalidHandshake, InvalidStatus, OSError, TimeoutError):
                if time.monotonic() >= until or self.ended:
                    break
                self.stats.closes += 1
                self.connected, self.pending = False, None
                await asyncio.sleep(0.5)
            finally:
                if sock is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(sock.close(), 2)
                sock = None
        self.connected = False

    async def _session(self, sock: ClientConnection, until: float) -> None:
        # After the match ends, read on until the last action's answer came (as the page does: the push
        # of a move may arrive before its ack, e.g. when the move was forwarded to the match's owner).
        while not self.ended or self.pending is not None:
            left = until - time.monotonic()
            if left <= 0:
                return
            await self._maybe_sync(sock)
            await self._maybe_act(sock)
            wait = min(0.5, left)
            if self.think_until > time.monotonic():
                wait = max(0.001, min(wait, self.think_until - time.monotonic()))
            try:
                raw = await asyncio.wait_for(sock.recv(), wait)
            except TimeoutError:
                await self._maybe_resend()
                continue
            self._handle(json.loads(raw))

    def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "state":
            self.seen_seq = max(self.seen_seq, int(msg["seq"]))
            self._take_state(msg)
            if msg.get("ack") is not None:  # one frame per act: the mover's state is its ack (issue 29)
                self._acked(str(msg["ack"]))
        elif kind == "ack":
            self._acked(str(msg.get("id")))
            self._want_sync(int(msg.get("seq", 0)), SYNC_AFTER_ACK_S)
        elif kind == "presence" and int(msg.get("seq") or -1) > self.seq:
            self._want_sync(int(msg["seq"]), 0.0)
        elif kind == "error":
            self.stats.errors[str(msg.get("code"))] += 1
            if self.pending is not None and msg.get("id") == self.pending[0]:
                self.pending, self.acted_at_seq = None, -2  # look again at the next state
            # store_unavailable (the database is down, the socket kept): ask again after a pause, as the page
            down = msg.get("code") == "store_unavailable"
            if down:  # and acts again no sooner (a member would not click on at once either)
                self.think_until = max(self.think_until, time.monotonic() + UNAVAILABLE_SYNC_S)
            self._want_sync(sys.maxsize, UNAVAILABLE_SYNC_S if down else 0.0)

    def _acked(self, action_id: str) -> None:
        if self.pending is not None and action_id == self.pending[0]:
            self.stats.ack(action_id, time.monotonic() - self.pending[3])
            self.pending = None
        else:
            self.stats.late_ack(action_id)

    def _want_sync(self, seq: int, after: float) -> None:
        """Ask for the state (``sync``) ``after`` seconds from now unless a state of ``seq`` has come by
        then — what the page does after an error, an ack without its state, or a push from a later seq."""
        self.sync_at, self.sync_seq = time.monotonic() + after, seq

    def request_sync(self) -> None:
        """Send ``sync`` at the next turn of the loop (the benchmark's nudge, not the page's)."""
        self._want_sync(sys.maxsize, 0.0)

    async def _maybe_sync(self, sock: ClientConnection) -> None:
        if self.sync_at is None or time.monotonic() < self.sync_at:
            return
        self.sync_at = None
        if self.seq < self.sync_seq:
            await sock.send(json.dumps({"type": "sync", "seq": max(self.seq, 0)}))

    def _take_state(self, payload: dict[str, Any]) -> None:
        seq = int(payload["seq"])
        if seq >= self.seq:
            if self.think and seq > self.seq:
                self.think_until = time.monotonic() + self.think * self.rng.uniform(0.5, 1.5)
            self.seq, self.legal, self.status = seq, payload.get("legal") or [], payload["status"]
            self.my_turn = payload.get("seat") in (payload.get("to_move") or [])

    def _choose(self) -> dict[str, Any] | None:
        moves = [a for a in self.legal if a.get("kind") != "resign"]  # resign is always legal
        return self.rng.choice(moves) if moves and self.my_turn else None

    async def _maybe_act(self, sock: ClientConnection) -> None:
        if self.pending is not None or self.hold.is_set() or self.status != "active":
            return
        if self.seq == self.acted_at_seq or time.monotonic() < self.think_until:
            return
        action = self._choose()
        if action is None:
            return
        action_id = f"b{next(_ids)}"
        self.stats.sent_ids.add(action_id)
        self.acted_at_seq, self.actions = self.seq, self.actions + 1
        self.pending = (action_id, self.seq, action, time.monotonic())
        if self.http_every and self.actions % self.http_every == 0:
            await self._post(self.http, timeout=self.resend_after)
        else:
            await sock.send(json.dumps({"type": "act", "id": action_id, "seq": self.seq, "action": action}))

    async def _post(self, base: str, timeout: float | None) -> None:
        """Send the pending action over HTTP; an answer settles it, a timeout leaves it pending."""
        assert self.pending is not None
        action_id, seq, action, sent = self.pending
        body = {"id": action_id, "seq": seq, "action": action}
        try:
            r = await self.api.call(
                base, self.member, "POST", f"/api/matches/{self.match_id}/actions", body, timeout
            )
        except httpx.TimeoutException:
            return
        except httpx.HTTPError as exc:
            self.stats.errors[
                f"http_transport:{type(exc).__name__}:{'alt' if base != self.http else 'own'}"
            ] += 1
            self.pending = None
            return
        if self.pending is None or self.pending[0] != action_id:
            return
        if r.status_code == 200:
            if base == self.http:
                self.stats.ack(action_id, time.monotonic() - sent)
            else:
                self.stats.late_ack(action_id)
            self._take_state(r.json())
        else:
            code = r.json().get("code", str(r.status_code)) if r.status_code < 500 else str(r.status_code)
            self.stats.errors[f"http_{code}"] += 1
            self.acted_at_seq = -2
            if r.status_code == 503:  # store_unavailable: as the socket's error frame
                self.think_until = max(self.think_until, time.monotonic() + UNAVAILABLE_SYNC_S)
            self._want_sync(sys.maxsize, UNAVAILABLE_SYNC_S if r.status_code == 503 else 0.0)
        self.pending = None

    async def _maybe_resend(self) -> None:
        if self.pending is None or self.resend_after is None:
            return
        if time.monotonic() - self.pending[3] >= self.resend_after:
            self.stats.errors["resent"] += 1
            await self._post(self.alt_http, timeout=10.0)
            if self.pending is not None:  # no answer there either: give up on it
                self.pending = None


# -- matches kept going -------------------------------------------------------------------------------
