"""What the server benchmarks ``load.py`` (issue 12 §4) and ``chaos.py`` (issue 18 §3) share: a throw-away
database, ``duelclub serve`` workers as subprocesses, members with ready-made session cookies, figures read
from /proc and pg_stat_database, the JSON API, and a player that plays one seat of one match over its
WebSocket with random legal actions.

Everything targets 127.0.0.1 only and every loop is bounded by a deadline. Run the benchmarks as scripts from
the project's venv (``.venv/bin/python benchmarks/load.py``); this module is imported from the same folder.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
from itsdangerous import TimestampSigner
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.typing import Origin

REPO = Path(__file__).resolve().parents[1]
PG_ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_URL_BASE = "postgresql+psycopg://postgres@127.0.0.1:5432/"
SESSION_COOKIE = "duelclub_session"  # web/app.py
PG_STATS_SETTLE_S = 11.0
"""PostgreSQL 15 backends flush their statistics at most every 1 s while busy and within 10 s once idle:
pg_stat_database is read this long after the traffic it should include has stopped."""
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
ENDED = ("finished", "aborted")
SYNC_AFTER_ACK_S = 1.5
"""The page asks for the state when an ack's state has not come this long after it (static/js/live.js)."""
UNAVAILABLE_SYNC_S = 1.0
"""After an error ``store_unavailable`` (or an HTTP 503) the player asks for the state again, and acts again,
no sooner than this (the page backs off from 0.5 s: static/js/live.js)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def load_average() -> str:
    """The first three fields of /proc/loadavg (1, 5 and 15 minutes)."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def percentile(sorted_values: list[float], q: float) -> float | None:
    """The ``q`` quantile (0..1, nearest rank) of ascending ``sorted_values``; None when empty."""
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


# -- /proc --------------------------------------------------------------------------------------------
def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # fields from 3 (state) on; the name may hold spaces


def process_tree(roots: list[int]) -> list[int]:
    """``roots`` and all their live descendants (bot worker processes are children of ``serve``)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat_fields(int(entry.name))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], list(roots)
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def cpu_seconds(roots: list[int]) -> float:
    """CPU seconds (user + system) used so far by ``roots`` and their descendants, including descendants
    that already exited and were waited for (cutime + cstime)."""
    ticks = 0
    for pid in process_tree(roots):
        fields = _stat_fields(pid)
        if fields is not None:  # utime, stime, cutime, cstime are fields 14..17
            ticks += sum(int(v) for v in fields[11:15])
    return ticks / CLK_TCK


def rss_kb(roots: list[int]) -> int:
    """Resident memory (KB) of ``roots`` and their descendants."""
    total = 0
    for pid in process_tree(roots):
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_KB
    return total


# -- databases ----------------------------------------------------------------------------------------
class BenchDatabase:
    """A throw-away database: a SQLite file in ``workdir``, or (``pg=True``) a fresh PostgreSQL database
    ``duelclub_bench_*`` on 127.0.0.1:5432 (user postgres), dropped by :meth:`drop`. Its own database
    rather than a schema, so pg_stat_database counts only the benchmark's transactions."""

    def __init__(self, workdir: Path, *, pg: bool) -> None:
        self.pg_name: str | None = None
        if pg:
            self.pg_name = f"duelclub_bench_{os.getpid()}_{secrets.token_hex(3)}"
            with psycopg.connect(PG_ADMIN_DSN, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'CREATE DATABASE "{self.pg_name}"')
            self.url = PG_URL_BASE + self.pg_name
        else:
            self.url = f"sqlite:///{workdir / 'bench.db'}"

    def xacts(self) -> int | None:
        """xact_commit + xact_rollback of the benchmark database so far (None on SQLite). Read from the
        ``postgres`` database, so the reading itself is not counted."""
        if self.pg_name is None:
            return None
        with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
            row = conn.execute(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
                (self.pg_name,),
            ).fetchone()
        return int(row[0]) if row else None

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of one read-only query on the benchmark database (PostgreSQL only)."""
        assert self.pg_name is not None, "query() is for PostgreSQL"
        with psycopg.connect(PG_ADMIN_DSN.rsplit("/", 1)[0] + "/" + self.pg_name) as conn:
            return list(conn.execute(sql, params).fetchall())

    def drop(self) -> None:
        if self.pg_name is not None:
            with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')


# -- members ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Member:
    """A member with a live session: ``cookie`` is the signed ``duelclub_session`` cookie value."""

    id: int
    username: str
    cookie: str


def session_cookie(secret_key: str, token: str) -> str:
    """The cookie Starlette's SessionMiddleware would set for ``{"sid": token}`` (web/deps.py): the
    base64 JSON of the session, signed with itsdangerous' TimestampSigner under SECRET_KEY."""
    data = base64.b64encode(json.dumps({"sid": token}).encode("utf-8"))
    return TimestampSigner(secret_key).sign(data).decode("ascii")


def seed_members(
    database_url: str, secret_key: str, count: int, prefix: str = "bench", password: str | None = None
) -> list[Member]:
    """Create ``count`` members and one session each, directly in the database (store/users.py names,
    one precomputed password hash for all — of ``password``, random when None —, store/sessions.py
    ``create_session``)."""
    from duelclub.store import sessions, users
    from duelclub.store.db import Database
    from duelclub.store.models import User, utcnow

    password_hash = users.hash_password(password or secrets.token_urlsafe(12))
    db = Database(database_url)
    made: list[Member] = []
    try:
        with db.session() as s:
            rows = []
            for i in range(count):
                name = f"{prefix}{i}"
                rows.append(
                    User(
                        username=name,
                        username_key=users.username_key(name),
                        username_skeleton=users.username_skeleton(name),
                        password_hash=password_hash,
                    )
                )
            s.add_all(rows)
            s.flush()
            now = utcnow()
            for user in rows:
                token = sessions.create_session(s, user.id, now)
                made.append(Member(user.id, user.username, session_cookie(secret_key, token)))
    finally:
        db.dispose()
    return made


# -- servers ------------------------------------------------------------------------------------------
@dataclass
class Worker:
    """One ``duelclub serve`` process on 127.0.0.1:``port``."""

    port: int
    proc: subprocess.Popen[bytes]
    log_path: Path

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def log_count(self, needle: str) -> int:
        """How many lines of this worker's log contain ``needle`` (e.g. "Traceback")."""
        with contextlib.suppress(OSError):
            return sum(needle in line for line in self.log_path.read_text(errors="replace").splitlines())
        return 0


class Cluster:
    """``count`` ``duelclub serve`` workers sharing one database (and Redis when ``redis_url``).

    ``env`` adds to the environment: DATABASE_URL, REDIS_URL, SECRET_KEY, VAR_DIR (the work dir, so the
    checkout's var/ is untouched) are set here; BOT_WORKERS and anything else pass through. The database is
    migrated once (``duelclub migrate``) before the workers start. Logs go to ``workdir/worker<i>.log``."""

    def __init__(
        self,
        workdir: Path,
        database_url: str,
        *,
        count: int = 1,
        redis_url: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.workdir, self.secret_key = workdir, secrets.token_urlsafe(32)
        self.env = {**os.environ, **(env or {})}
        self.env.update(DATABASE_URL=database_url, SECRET_KEY=self.secret_key, VAR_DIR=str(workdir / "var"))
        if redis_url:
            self.env["REDIS_URL"] = redis_url
        else:
            self.env.pop("REDIS_URL", None)
        self.count = count
        self.workers: list[Worker] = []

    def _cli(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "duelclub.cli", *args]

    async def start(self, timeout: float = 60.0) -> None:
        """Migrate, start the workers and wait until each answers ``GET /api/games``."""
        subprocess.run(self._cli("migrate"), env=self.env, cwd=REPO, check=True, stdout=subprocess.DEVNULL)
        for i in range(self.count):
            port = free_port()
            log_path = self.workdir / f"worker{i}.log"
            with log_path.open("wb") as out:
                proc = subprocess.Popen(
                    self._cli("serve", "--port", str(port), "--log-level", "warning"),
                    env=self.env,
                    cwd=REPO,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # a Ctrl-C of the benchmark does not hit the workers first
                )
            self.workers.append(Worker(port, proc, log_path))
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(timeout=2.0) as client:
            for w in self.workers:
                while True:
                    if w.proc.poll() is not None:
                        raise RuntimeError(f"worker on {w.port} exited:\n{w.log_path.read_text()[-3000:]}")
                    with contextlib.suppress(httpx.HTTPError):
                        if (await client.get(f"{w.http}/api/games")).status_code == 200:
                            break
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"worker on {w.port} not ready after {timeout} s")
                    await asyncio.sleep(0.2)

    def pids(self) -> list[int]:
        return [w.proc.pid for w in self.workers]

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.pids())

    def rss_kb(self) -> int:
        return rss_kb(self.pids())

    def stop(self) -> None:
        """SIGTERM every worker (SIGCONT first, in case one is frozen), SIGKILL after 10 s."""
        for w in self.workers:
            if w.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(w.proc.pid, signal.SIGCONT)
                    w.proc.terminate()
        for w in self.workers:
            try:
                w.proc.wait(10)
            except subprocess.TimeoutExpired:
                w.proc.kill()
                w.proc.wait(5)


@contextlib.contextmanager
def workdir(keep: bool = False) -> Iterator[Path]:
    """A temporary directory for the database file, logs and VAR_DIR (kept with ``keep``)."""
    path = Path(tempfile.mkdtemp(prefix="duelclub-bench-"))
    try:
        yield path
    finally:
        if keep:
            print(f"# work dir kept: {path}", file=sys.stderr)
        else:
            shutil.rmtree(path, ignore_errors=True)


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
Seated = list[tuple[Player, ClientConnection]]
"""The players of one match with their open sockets."""


class Club:
    """Members playing matches on a cluster: human slot ``j`` is members ``2j`` and ``2j + 1``, seat 0 on
    worker ``j`` and seat 1 on worker ``j + 1`` (modulo the worker count: different workers when there are
    several). ``player_options`` go to every :class:`Player`; ``current[slot]`` is what a slot plays now;
    ``match_ids`` every match it started."""

    def __init__(
        self,
        cluster: Cluster,
        members: list[Member],
        game: str,
        *,
        stats: Stats | None = None,
        seed: int | None = None,
        api_timeout: float = 30.0,
        create_concurrency: int = 16,
        **player_options: Any,
    ) -> None:
        self.cluster, self.members, self.game = cluster, members, game
        self.api = Api(stats or Stats(), timeout=api_timeout)
        self.rng = random.Random(seed)
        self.create_gate = asyncio.Semaphore(create_concurrency)
        self.player_options = player_options
        self.current: dict[int, list[Player]] = {}
        self.match_ids: list[str] = []
        self.move_seconds: int | None = None
        """The move clock of the matches it starts (None: the game's default)."""

    def worker(self, index: int) -> Worker:
        return self.cluster.workers[index % len(self.cluster.workers)]

    def pair(self, slot: int) -> tuple[Member, Member]:
        return self.members[2 * slot], self.members[2 * slot + 1]

    async def new_match(self, slot: int) -> str:
        """A started invite match of ``slot`` (opened on the seat-0 worker, accepted on the seat-1 one)."""
        a, b = self.pair(slot)
        async with self.create_gate:
            match_id = await self.api.invite_match(
                (self.worker(slot).http, a), (self.worker(slot + 1).http, b), self.game, self.move_seconds
            )
        self.match_ids.append(match_id)
        return match_id

    def player(self, stats: Stats, member: Member, match_id: str, where: Worker, **options: Any) -> Player:
        """A player of ``member`` on worker ``where`` (not yet connected)."""
        options = {**self.player_options, **options}
        if len(self.cluster.workers) > 1:
            others = [w for w in self.cluster.workers if w is not where]
            options.setdefault("alt_http", others[0].http)
        rng = random.Random(self.rng.random())
        return Player(self.api, stats, member, match_id, http=where.http, ws=where.ws, rng=rng, **options)

    async def human_match(self, slot: int, stats: Stats) -> Seated:
        """A new match of ``slot`` and both players' open sockets."""
        match_id = await self.new_match(slot)
        seats = zip(self.pair(slot), (self.worker(slot), self.worker(slot + 1)), strict=True)
        players = [self.player(stats, m, match_id, w) for m, w in seats]
        self.current[slot] = players
        return [(p, await p.open()) for p in players]

    async def keep_playing(
        self, slot: int, first: Seated | None, again: Callable[[], Awaitable[Seated]], until: float
    ) -> None:
        """Play ``first`` (or a match from ``again()``) until it ends, then further matches from
        ``again()``, until ``until`` (time.monotonic()). A failed start is retried after 1 s."""
        current = first
        while time.monotonic() < until:
            if current is None:
                try:
                    current = await asyncio.wait_for(again(), max(0.1, until - time.monotonic()))
                except (httpx.HTTPError, OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                    await asyncio.sleep(1.0)
                    continue
            await asyncio.gather(*(p.play(until, sock) for p, sock in current))
            current = None
        self.current.pop(slot, None)


class IncidentClub(Club):
    """A club for the incident suites (chaos.py, kill9.py): every player shares one :class:`Stats` and one
    ``hold`` event (a quiet spell), and takes ``--game``, ``--seed``, ``--http-every`` and
    ``--resend-after`` from the suite's arguments."""

    def __init__(self, args: Any, cluster: Cluster, members: list[Member]) -> None:
        self.stats, self.hold = Stats(), asyncio.Event()
        super().__init__(
            cluster,
            members,
            args.game,
            stats=self.stats,
            seed=args.seed,
            api_timeout=10.0,
            http_every=args.http_every,
            resend_after=args.resend_after,
            hold=self.hold,
        )
        self.args = args
