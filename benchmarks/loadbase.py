"""The ground of the server benchmarks (benchmarks/loadkit.py is their kit): constants, figures read from
/proc, a throw-away database with pg_stat_database, members with ready-made session cookies, and
``duelclub serve`` workers as subprocesses (a :class:`Cluster`). Everything targets 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
from itsdangerous import TimestampSigner

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
