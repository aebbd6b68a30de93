"""Hostile-client attack suite (issue 13 §3): ≥ 10,000 hostile HTTP and WebSocket messages against a server of
its own, then a burst of 100 concurrent logins.

Starts one ``duelclub serve`` worker on a throw-away database (a SQLite file, or with ``--pg`` a fresh
PostgreSQL database on 127.0.0.1:5432, dropped afterwards; no bot workers), seeds members, and sets up an
active ``--game`` match between members A and B, a finished one and an open invite. It then sends
``--messages`` hostile messages one at a time, about 60 % over HTTP and 40 % over WebSockets (the match
socket of A, B, an outsider C and an anonymous visitor, and the lobby socket): bad JSON, wrong types, huge
numbers, deep nesting, unicode and NUL (also in ids and tokens), stale and future seq, the other seat's move,
an outsider's move in another's match, moves after the end, oversized bodies, CSRF-less posts, binary
frames. Before and after every refused message it fingerprints the database (row counts of every table
and every match's status and last seq): a refused message must change nothing. The server runs with a
huge per-socket budget (``WS_MESSAGE_BUDGET``) so that every message is judged on its own merits (the
budget itself is tested in tests/web/test_ws_guard.py).

Then the login burst (issue 13 §1.1): 100 concurrent logins of 20 members (one in four with a wrong
password; argon2 at the default parameters) while member A reads ``GET /api/matches/{id}/state`` in a loop.

It prints: messages sent (HTTP / WebSocket), 5xx answers, sockets dropped without a close frame (or closed
1011), server exceptions logged (tracebacks in the worker's log), state changes caused by refused messages
— the targets are 0 / 0 / 0 / 0 —, the answers by code; and for the burst: logins by status, 5xx, and
A's state reads p50/p99 (target p99 ≤ 200 ms). ``--json``: the last line is one JSON object of the figures.
``FUZZ_DEBUG=1`` prints the fingerprints and the last messages whenever a refused message changed something.

Command lines (from the project root, after ``make install-dev``; about a minute each):

    .venv/bin/python benchmarks/fuzz.py               # SQLite
    .venv/bin/python benchmarks/fuzz.py --pg          # PostgreSQL
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sqlite3
import sys
import time
from collections import Counter
from typing import Any

import httpx
import loadkit as kit
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

PASSWORD = "fuzz-Password-7"
BURST_MEMBERS = 20
TABLES = ("users", "user_sessions", "matches", "match_actions", "queue_entries", "bot_jobs")
BAD_JSON = [
    b"{",
    b"[1,2",
    b'{"a":}',
    b"\xff\xfe\x00",
    b"",
    b"null",
    b"nul\x00l",
    b'{"type": "act" "id": 1}',
    b"[" * 3000,
    b'{"id": "\\ud800", "seq": 0, "action": {}}',
    b"1e999999",
    b'"\\u0000"',
]
STRINGS = ["", "\x00", "a\x00b", "\u202e" + "evil", "𝕏" * 3, "x" * 5000, "' OR 1=1 --", "<script>", "٣", "\\"]
ID_ROUTES = [
    ("GET", "/api/matches/{}"),
    ("GET", "/api/matches/{}/state"),
    ("GET", "/api/matches/{}/log"),
    ("POST", "/api/matches/{}/actions"),
    ("DELETE", "/api/matches/{}"),
    ("GET", "/api/invites/{}"),
    ("POST", "/api/invites/{}/accept"),
    ("POST", "/api/challenges/{}/accept"),
    ("POST", "/api/matches/{}/claim"),
    ("POST", "/api/matches/{}/rematch"),
]
NUMBERS = [-1, 2**31, 2**63, -(2**63) - 1, 10**30, 1e300, -0.0, 3.5, 10**400]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--messages", type=int, default=10_000)
    p.add_argument("--game", default="mezha", help="a game without a clock: nothing moves but us")
    p.add_argument("--pg", action="store_true", help="PostgreSQL (a temporary database) instead of SQLite")
    p.add_argument("--logins", type=int, default=100, help="concurrent logins of the burst (0: none)")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--keep", action="store_true", help="keep the work dir (worker log)")
    p.add_argument("--json", action="store_true", help="last line: one JSON object of the figures")
    return p.parse_args(argv)


class Fingerprint:
    """Row counts of every table, each match's (status, last seq) and the queue's members, read straight from
    the database. :meth:`changed` ignores queue entries that went away: the matchmaker drops stale ones in
    the background (a queue join the fuzzer made, never renewed), which is no effect of a message."""

    def __init__(self, db: kit.BenchDatabase, url: str) -> None:
        self.db = db
        self.conn: Any = None
        if db.pg_name is None:
            self.conn = sqlite3.connect(url.removeprefix("sqlite:///"))
        else:
            import psycopg

            self.conn = psycopg.connect(
                kit.PG_ADMIN_DSN.rsplit("/", 1)[0] + "/" + db.pg_name, autocommit=True
            )

    def take(self) -> tuple[Any, ...]:
        counts = tuple(self.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES)
        matches = self.conn.execute(
            "SELECT m.id, m.status, (SELECT max(seq) FROM match_actions a WHERE a.match_id = m.id)"
            " FROM matches m ORDER BY m.id"
        ).fetchall()
        queue = self.conn.execute("SELECT user_id, game, pool, match_id FROM queue_entries").fetchall()
        return counts, tuple(tuple(r) for r in matches), frozenset(tuple(r) for r in queue)

    @staticmethod
    def changed(before: tuple[Any, ...], after: tuple[Any, ...]) -> bool:
        """Whether anything but the removal of queue entries happened between the two fingerprints."""
        (counts_a, matches_a, queue_a), (counts_b, matches_b, queue_b) = before, after
        queue_at = TABLES.index("queue_entries")
        same_counts = all(
            a == b for i, (a, b) in enumerate(zip(counts_a, counts_b, strict=True)) if i != queue_at
        )
        changed = not same_counts or matches_a != matches_b or bool(queue_b - queue_a)
        if changed and os.environ.get("FUZZ_DEBUG"):
            print("  changed:", counts_a, counts_b, set(matches_b) - set(matches_a), queue_b - queue_a)
        return changed

    def close(self) -> None:
        self.conn.close()


class Fuzzer:
    """The hostile client (see the module docstring)."""

    def __init__(
        self, args: argparse.Namespace, worker: kit.Worker, members: list[kit.Member], fp: Fingerprint
    ):
        self.args, self.w, self.fp = args, worker, fp
        self.a, self.b, self.c = members[:3]
        self.rng = random.Random(args.seed)
        self.http = httpx.AsyncClient(base_url=worker.http, timeout=30.0)
        self.sent = Counter[str]()
        self.codes = Counter[str]()
        self.five_xx = 0
        self.crashes = 0
        self.no_answer = 0
        self.changed: list[str] = []
        self.accepted = 0
        self.live = ""
        self.ended = ""
        self.token = ""
        self.state: dict[str, Any] = {}
        self.sockets: dict[str, ClientConnection] = {}
        self.history: list[Any] = []

    # -- set-up ---------------------------------------------------------------------------------
    def headers(self, who: kit.Member | None, json_body: bool = True) -> dict[str, str]:
        h = {"Origin": self.w.http}
        if json_body:
            h["Content-Type"] = "application/json"
        if who is not None:
            h["Cookie"] = f"{kit.SESSION_COOKIE}={who.cookie}"
        return h

    async def call(self, who: kit.Member | None, method: str, path: str, body: Any = None) -> httpx.Response:
        content = None if body is None else json.dumps(body).encode()
        return await self.http.request(method, path, content=content, headers=self.headers(who))

    async def new_live_match(self) -> None:
        r = await self.call(self.a, "POST", "/api/matches", {"game": self.args.game, "vs": "invite"})
        r.raise_for_status()
        token = r.json()["invite_token"]
        (await self.call(self.b, "POST", f"/api/invites/{token}/accept", {})).raise_for_status()
        self.live = r.json()["id"]
        await self.refresh()

    async def refresh(self) -> None:
        """A's view of the live match (a new match once it ended)."""
        self.state = (await self.call(self.a, "GET", f"/api/matches/{self.live}/state")).json()
        if self.state.get("status") != "active":
            await self.new_live_match()

    async def setup(self) -> None:
        await self.new_live_match()
        finished = self.live
        await self.call(
            self.a,
            "POST",
            f"/api/matches/{finished}/actions",
            {"id": "r", "seq": 0, "action": {"kind": "resign"}},
        )
        self.ended = finished
        r = await self.call(self.a, "POST", "/api/matches", {"game": self.args.game, "vs": "invite"})
        self.token = r.json()["invite_token"]
        await self.new_live_match()

    # -- payloads -------------------------------------------------------------------------------
    def legal(self, resign_too: bool = False) -> dict[str, Any]:
        moves = [m for m in self.state.get("legal") or [] if resign_too or m.get("kind") != "resign"]
        return self.rng.choice(moves) if moves else {"kind": "pass"}

    def junk(self, depth: int = 0) -> Any:
        r = self.rng.random()
        if depth > 3 or r < 0.4:
            return self.rng.choice([None, True, self.rng.choice(NUMBERS), self.rng.choice(STRINGS)])
        if r < 0.7:
            return [self.junk(depth + 1) for _ in range(self.rng.randint(0, 3))]
        return {
            self.rng.choice(["kind", "seq", "id", "card", "x", ""]): self.junk(depth + 1) for _ in range(3)
        }

    def act_body(self) -> tuple[str, Any]:
        """(kind, body) of a hostile action message for the live match."""
        seq = int(self.state.get("seq", 0))
        kind = self.rng.choice(
            ["wrong_types", "huge_numbers", "deep", "unicode", "stale_seq", "future_seq", "junk_action"]
        )
        body: dict[str, Any] = {"id": f"f{self.rng.getrandbits(32)}", "seq": seq, "action": self.legal()}
        if kind == "wrong_types":
            body[self.rng.choice(["id", "seq", "action"])] = self.junk()
        elif kind == "huge_numbers":
            body["seq" if self.rng.random() < 0.5 else "id"] = self.rng.choice(NUMBERS)
        elif kind == "deep":
            n = self.rng.choice([40, 300, 5000, 20000])
            return kind, '{"id":"d","seq":' + str(seq) + ',"action":' + '{"a":' * n + "1" + "}" * n + "}"
        elif kind == "unicode":
            body["id"] = self.rng.choice(STRINGS[:5]) or "\x00"
            body["action"] = {**body["action"], "kind": self.rng.choice(STRINGS)}
        elif kind == "stale_seq":
            body["seq"] = max(seq - self.rng.randint(1, 3), 0) if seq else -1
        elif kind == "future_seq":
            body["seq"] = seq + self.rng.choice([1, 2, 1000])
        else:
            body["action"] = self.junk()
        return kind, body

    def pick_http(self) -> tuple[str, kit.Member | None, str, str, Any]:
        """(kind, who, method, path, body) of one hostile HTTP request."""
        r, live = self.rng.random(), self.live
        if r < 0.30:
            kind, body = self.act_body()
            return kind, self.rng.choice([self.a, self.b]), "POST", f"/api/matches/{live}/actions", body
        if r < 0.38:
            body = {"id": "o1", "seq": self.state.get("seq", 0), "action": self.legal()}
            return (
                "other_seat",
                self.b if 0 in (self.state.get("to_move") or []) else self.a,
                "POST",
                f"/api/matches/{live}/actions",
                body,
            )
        if r < 0.44:
            body = {"id": "c1", "seq": self.state.get("seq", 0), "action": self.legal()}
            return "another_match", self.c, "POST", f"/api/matches/{live}/actions", body
        if r < 0.50:
            body = {"id": "e1", "seq": self.rng.randint(0, 3), "action": self.legal(resign_too=True)}
            return "after_end", self.a, "POST", f"/api/matches/{self.ended}/actions", body
        if r < 0.58:
            return (
                "bad_json",
                self.a,
                "POST",
                self.rng.choice(
                    [f"/api/matches/{live}/actions", "/api/matches", "/api/auth/login", "/api/challenges"]
                ),
                self.rng.choice(BAD_JSON),
            )
        if r < 0.63:
            size = self.rng.choice([70_000, 300_000, 1_200_000])
            return (
                "oversized",
                self.a,
                "POST",
                f"/api/matches/{live}/actions",
                b'{"id":"' + b"x" * size + b'"}',
            )
        if r < 0.73:
            bad = self.rng.choice(
                ["%00", "a%00b", "%01", "%7F", "%0A", "..%2F", "%E2%80%AE", "x" * 300, "%F0%9F%92%A9"]
            )
            method, path = self.rng.choice(ID_ROUTES)
            return "control_ids", self.rng.choice([self.a, self.c, None]), method, path.format(bad), {}
        if r < 0.78:
            return "csrf", self.a, "POST", f"/api/matches/{live}/actions", "form"
        if r < 0.88:
            path, template = self.rng.choice([
                ("/api/matches", {"game": self.args.game, "vs": "invite"}),
                ("/api/challenges", {"game": self.args.game, "options": {}}),
                ("/api/queue", {"game": self.args.game, "options": {}}),
                ("/api/auth/login", {"username": "nobody", "password": "wrong-password"}),
                ("/api/auth/register", {"username": "x", "password": "p"}),
                (f"/api/invites/{self.token}/accept", {"client_seed": "ab"}),
                (f"/api/matches/{self.ended}/rematch", {"client_seed": "ab"}),
            ])  # fmt: skip
            field = self.rng.choice(list(template))
            return "wrong_types", self.c, "POST", path, {**template, field: self.junk()}
        path = self.rng.choice([
            f"/api/matches/{live}/state?since={self.rng.choice(['-1', '99999999999999999999', 'x', '%00'])}",
            f"/api/challenges?game={self.rng.choice(['%00', 'x' * 100, '%E2%80%AE'])}",
            f"/api/admin/matches?limit={self.rng.choice(['0', '-5', '1e9'])}",
            f"/api/matches/{live}/log", f"/api/admin/matches/{live}/replay?seq=-1",
        ])  # fmt: skip
        return "queries", self.rng.choice([self.a, self.c, None]), "GET", path, None

    # -- sending --------------------------------------------------------------------------------
    async def http_one(self) -> None:
        kind, who, method, path, body = self.pick_http()
        headers = self.headers(who, json_body=body != "form")
        if body == "form":
            content: bytes | None = b"id=1&seq=0"
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif isinstance(body, bytes):
            content = body
        else:
            content = None if body is None else json.dumps(body).encode()
        before = self.fp.take()
        try:
            r = await self.http.request(method, path, content=content, headers=headers)
        except httpx.HTTPError as exc:  # the server answered 413 and closed while an oversized body was sent
            self.sent["http"] += 1
            self.codes[f"http:transport:{type(exc).__name__}"] += 1
            if self.fp.changed(before, self.fp.take()):
                self.changed.append(f"{kind} {method} {path[:60]} → {type(exc).__name__}")
            return
        self.sent["http"] += 1
        code = "ok"
        if r.status_code >= 500:
            self.five_xx += 1
            code = str(r.status_code)
        elif r.status_code >= 400:
            with contextlib.suppress(ValueError, AttributeError):
                code = r.json().get("code", str(r.status_code))
            if self.fp.changed(before, self.fp.take()):
                self.changed.append(f"{kind} {method} {path[:60]} → {r.status_code}")
        else:
            self.accepted += 1
            await self.refresh()
        self.codes[f"http:{r.status_code}:{code}"] += 1
        self.history.append((kind, method, path[:50], r.status_code, code))

    async def socket(self, who: kit.Member | None, match_id: str) -> ClientConnection:
        key = f"{who.username if who else 'anon'}:{match_id}"
        ws = self.sockets.get(key)
        if ws is None:
            extra = {"Cookie": f"{kit.SESSION_COOKIE}={who.cookie}"} if who else {}
            ws = await connect(
                f"{self.w.ws}/ws/matches/{match_id}", origin=Origin(self.w.http), additional_headers=extra,
                max_size=2**22, ping_interval=None,
            )  # fmt: skip
            self.sockets[key] = ws
            await self.drain(ws, 0.3)
        return ws

    async def drain(self, ws: ClientConnection, seconds: float) -> list[dict[str, Any]]:
        got = []
        with contextlib.suppress(TimeoutError):
            while True:
                got.append(json.loads(await asyncio.wait_for(ws.recv(), seconds)))
        return got

    async def answer(
        self, ws: ClientConnection, want: str | None, action_id: str | None, seconds: float = 3.0
    ) -> dict[str, Any] | None:
        """The socket's answer to the message just sent: the next ``ack``/``error``/``pong`` (or, for a
        ``sync``, the ``state``), skipping pushes — for an act with a string id, the ack or error carrying
        that id; None if none came within ``seconds``."""
        kinds = ("ack", "error", "pong", want) if want else ("ack", "error", "pong")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                while True:
                    msg = json.loads(await ws.recv())
                    if msg.get("type") not in kinds:
                        continue
                    if action_id is None or msg.get("id") in (action_id, None) or msg["type"] == "pong":
                        return dict(msg)
        return None

    @staticmethod
    async def settle(ws: ClientConnection) -> None:
        """Drop what the socket has already received (pushes, a late answer), so that the next answer read
        is the next message's."""
        with contextlib.suppress(TimeoutError):
            while True:
                await asyncio.wait_for(ws.recv(), 0.01)

    async def ws_one(self) -> None:
        r = self.rng.random()
        who = self.rng.choice([self.a, self.a, self.b, self.c, None])
        match_id = self.ended if r < 0.1 else self.live
        kind, body = self.act_body()
        if r < 0.55:
            text: str | bytes = body if isinstance(body, str) else json.dumps({"type": "act", **body})
        elif r < 0.65:
            kind, text = "bad_json", self.rng.choice(BAD_JSON).decode(errors="replace")
        elif r < 0.72:
            kind, text = "binary", self.rng.choice(BAD_JSON) or b"\x00"
        elif r < 0.80:
            kind, text = "sync", json.dumps({"type": "sync", "seq": self.rng.choice([*NUMBERS, "x", None])})
        elif r < 0.86:
            kind, text = "unknown_type", json.dumps({"type": self.rng.choice(STRINGS), "id": 1})
        elif r < 0.90:
            kind, text = (
                "oversized",
                json.dumps({"type": "act", "id": "big", "seq": 0, "action": {"x": "y" * 70_000}}),
            )
        else:
            kind, text = (
                "other_seat",
                json.dumps(
                    {"type": "act", "id": "o2", "seq": self.state.get("seq", 0), "action": self.legal()}
                ),
            )
        try:
            ws = await self.socket(who, match_id)
        except (InvalidStatus, OSError) as exc:
            self.codes[f"ws:handshake:{type(exc).__name__}"] += 1
            return
        action_id = None
        with contextlib.suppress(ValueError, AttributeError, TypeError, RecursionError):
            parsed = json.loads(text)
            action_id = (
                parsed.get("id")
                if parsed.get("type") == "act" and isinstance(parsed.get("id"), str)
                else None
            )
        try:
            await self.settle(ws)
            before = self.fp.take()
            await ws.send(text)
            self.sent["ws"] += 1
            reply = await self.answer(ws, "state" if kind == "sync" else None, action_id)
        except ConnectionClosed as exc:
            self.sockets = {k: v for k, v in self.sockets.items() if v is not ws}
            code = exc.rcvd.code if exc.rcvd is not None else None
            self.codes[f"ws:closed:{code}"] += 1
            if code in (None, 1006, 1011):
                self.crashes += 1
            return
        replies = [reply] if reply is not None else []
        if not replies:
            self.no_answer += 1
            self.codes[f"ws:no_answer:{kind}"] += 1
            return
        reply = replies[-1]
        self.history.append((kind, who.username if who else None, str(text)[:80], reply))
        if reply["type"] == "error":
            self.codes[f"ws:error:{reply.get('code')}"] += 1
            if self.fp.changed(before, self.fp.take()):
                self.changed.append(f"ws {kind} {str(text)[:60]} → {reply.get('code')}")
                if os.environ.get("FUZZ_DEBUG"):
                    print("  after:", self.history[-3:])
        else:
            self.codes[f"ws:{reply['type']}"] += 1
            self.accepted += 1
            await self.refresh()

    async def lobby(self, count: int) -> None:
        async with connect(f"{self.w.ws}/ws/lobby", origin=Origin(self.w.http)) as ws:
            for _ in range(count):
                await ws.send(
                    self.rng.choice(
                        [b.decode(errors="replace") for b in BAD_JSON] + ["x" * 70_000, '{"type":"sync"}']
                    )
                )
                self.sent["ws"] += 1
            await self.drain(ws, 0.5)

    async def run(self) -> None:
        await self.setup()
        lobby_share = self.args.messages // 20
        await self.lobby(lobby_share)
        for _ in range(self.args.messages - lobby_share):
            if self.rng.random() < 0.6:
                await self.http_one()
            else:
                await self.ws_one()

    async def close(self) -> None:
        for ws in self.sockets.values():
            with contextlib.suppress(Exception):
                await ws.close()
        await self.http.aclose()


async def login_burst(
    worker: kit.Worker, members: list[kit.Member], reader: kit.Member, match_id: str, n: int
) -> dict[str, Any]:
    """``n`` concurrent logins while ``reader`` reads the state of ``match_id`` in a loop."""
    statuses: Counter[int] = Counter()
    reads: list[float] = []
    done = asyncio.Event()
    limits = httpx.Limits(max_connections=n + 10)
    async with httpx.AsyncClient(base_url=worker.http, timeout=120.0, limits=limits) as client:
        headers = {"Content-Type": "application/json", "Origin": worker.http}
        cookie = {"Cookie": f"{kit.SESSION_COOKIE}={reader.cookie}"}

        async def login(i: int) -> None:
            m = members[i % len(members)]
            body = {"username": m.username, "password": PASSWORD if i % 4 else "wrong-password"}
            try:
                statuses[(await client.post("/api/auth/login", json=body, headers=headers)).status_code] += 1
            except httpx.HTTPError:
                statuses[0] += 1

        async def read() -> None:
            while not done.is_set():
                t = time.monotonic()
                r = await client.get(f"/api/matches/{match_id}/state", headers=cookie)
                reads.append(time.monotonic() - t)
                statuses[1000 + r.status_code] += 1 if r.status_code >= 500 else 0

        reader_task = asyncio.create_task(read())
        t0 = time.monotonic()
        await asyncio.gather(*(login(i) for i in range(n)))
        took = time.monotonic() - t0
        done.set()
        await reader_task
    ordered = sorted(reads)
    return {
        "logins": n,
        "seconds": round(took, 2),
        "login_status": {str(k): v for k, v in sorted(statuses.items()) if k < 1000},
        "login_5xx": sum(v for k, v in statuses.items() if 500 <= k < 1000),
        "state_reads": len(reads),
        "state_5xx": sum(v for k, v in statuses.items() if k >= 1500),
        "state_p50_ms": round((kit.percentile(ordered, 0.5) or 0) * 1000, 1),
        "state_p99_ms": round((kit.percentile(ordered, 0.99) or 0) * 1000, 1),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with kit.workdir(args.keep) as wd:
        db = kit.BenchDatabase(wd, pg=args.pg)
        env = {
            "BOT_WORKERS": "0",
            "WS_MESSAGE_BUDGET": "1000000 per 20 seconds",  # every message judged on its own (see above)
            "REGISTRATIONS_PER_IP": "1000000 per hour",
            "REGISTRATION_FAILURES_PER_IP": "1000000 per hour",
            "REGISTRATION_BURST_PER_IP": "1000000 per hour",
            "LOGIN_FAILURES_PER_IP": "1000000 per hour",
        }
        cluster = kit.Cluster(wd, db.url, count=1, env=env)
        fp: Fingerprint | None = None
        try:
            await cluster.start()
            members = kit.seed_members(db.url, cluster.secret_key, 3, prefix="fuzz")
            burst = kit.seed_members(
                db.url, cluster.secret_key, BURST_MEMBERS, prefix="burst", password=PASSWORD
            )
            fp = Fingerprint(db, db.url)
            fuzzer = Fuzzer(args, cluster.workers[0], members, fp)
            where = "PostgreSQL" if args.pg else "SQLite"
            load = kit.load_average()
            print(
                f"# fuzz: 1 worker on {where}; {args.messages} hostile messages; load average {load}",
                flush=True,
            )
            t0 = time.monotonic()
            try:
                await fuzzer.run()
                live = fuzzer.live
            finally:
                await fuzzer.close()
            seconds = time.monotonic() - t0
            burst_result = (
                await login_burst(cluster.workers[0], burst, members[0], live, args.logins)
                if args.logins
                else {}
            )
            log = cluster.workers[0]
            result = {
                "database": where.lower(),
                "messages": sum(fuzzer.sent.values()),
                "http": fuzzer.sent["http"],
                "ws": fuzzer.sent["ws"],
                "http_5xx": fuzzer.five_xx,
                "ws_dropped": fuzzer.crashes,
                "server_exceptions": log.log_count("Traceback"),
                "error_lines": log.log_count(" ERROR "),
                "state_changes_by_refused": len(fuzzer.changed),
                "accepted": fuzzer.accepted,
                "no_answer": fuzzer.no_answer,
                "seconds": round(seconds, 1),
                "codes": dict(fuzzer.codes.most_common()),
                "login_burst": burst_result,
                "load_avg": kit.load_average(),
            }
        finally:
            if fp is not None:
                fp.close()
            cluster.stop()
            db.drop()
    _report(result, fuzzer.changed)
    return result


def _report(r: dict[str, Any], changed: list[str]) -> None:
    print(f"messages sent: {r['messages']} (HTTP {r['http']}, WebSocket {r['ws']}) in {r['seconds']} s")
    print(f"accepted (a valid move among them, a read): {r['accepted']}")
    print(f"5xx answers: {r['http_5xx']}; sockets dropped without a close frame: {r['ws_dropped']}")
    print(f"server exceptions logged: {r['server_exceptions']} (ERROR lines: {r['error_lines']})")
    print(f"state changes caused by refused messages: {r['state_changes_by_refused']} {changed[:5]}")
    top = ", ".join(f"{k} {v}" for k, v in list(r["codes"].items())[:24])
    print(f"answers: {top}")
    b = r["login_burst"]
    if b:
        print(
            f"login burst: {b['logins']} concurrent logins in {b['seconds']} s → {b['login_status']},"
            f" 5xx {b['login_5xx']}; another member's state reads: {b['state_reads']}, 5xx {b['state_5xx']},"
            f" p50 {b['state_p50_ms']} ms, p99 {b['state_p99_ms']} ms"
        )
    print(f"load average {r['load_avg']}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    bad = (
        result["http_5xx"]
        + result["ws_dropped"]
        + result["server_exceptions"]
        + result["state_changes_by_refused"]
    )
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
