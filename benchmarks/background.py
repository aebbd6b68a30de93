"""CPU of one pass of each worker's periodic background work (issue 29 §4: an idle worker ≤ 1 % of a core).

For each ``--match-counts`` N it fills a throw-away database (a SQLite file, or with ``--pg`` a fresh
PostgreSQL database on 127.0.0.1:5432, dropped afterwards: benchmarks/loadbase.py) through the migrations:
N/2 members who all want turn notices by mail and push (the most work for the notice sweep), N active
member-vs-member matches with ``--actions`` actions each (the last one a few minutes old: nobody is owed a
notice yet, as on a busy club), ``--finished`` × N finished matches with as many actions, and a move clock
on every other active match. Then it builds one worker's background workers as web/app.py does (the clock
sweeper, the matchmaker, the match and site presence heartbeats, the tournament driver, the notice sweep,
the mail and push senders) on a match service with no bots and no sockets, and runs one pass of each
``--repeat`` times.

It prints, per worker, the median over the repeats of: CPU ms of this process (time.process_time: the
worker's Python and SQLite), CPU ms of the PostgreSQL backends of the benchmark database (/proc; ``--pg``
only), wall ms and SQL statements; its idle period (s) and the share of a core its passes take at that
period ((CPU ms + PostgreSQL CPU ms) / period); the sum of those shares (an idle worker's periodic background
work, issue 29 §4: ≤ 1 % of a core); then the load average. ``--json`` makes the last line one JSON object
(``store``, ``runs``: one per N with ``matches``, ``core_pct`` and ``passes``: worker → figures,
``load_avg``). The PostgreSQL figure counts whole clock ticks (10 ms) of the backends: a median of 0 means
under a tick a pass.

    .venv/bin/python benchmarks/background.py                                  # SQLite, 500 and 5000
    .venv/bin/python benchmarks/background.py --pg --json                      # PostgreSQL
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event, insert, update

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loadbase import CLK_TCK, BenchDatabase, load_average, seed_members

from duelclub.bus.memory import MemoryBus
from duelclub.games.registry import all_games
from duelclub.notify import vapid
from duelclub.notify.dispatch import Dispatcher, EmailChannel, NoticeSite
from duelclub.notify.push_channel import PushChannel
from duelclub.notify.push_sender import PushSender
from duelclub.notify.sender import MailSender
from duelclub.notify.smtp import LogTransport
from duelclub.play.matchmaking import Matchmaker
from duelclub.play.member_presence import MemberPresence
from duelclub.play.notices import NoticeSweeper
from duelclub.play.presence import PresenceTracker
from duelclub.play.service import MatchService
from duelclub.play.tournament_driver import TournamentDriver
from duelclub.store import migrate
from duelclub.store.db import Database
from duelclub.store.models import Match, MatchAction, User, utcnow

SECRET = "bench-secret-key-0123456789abcdef"
GAME = "towers"
BATCH = 5000


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pg", action="store_true", help="PostgreSQL on 127.0.0.1:5432 (default SQLite)")
    p.add_argument("--match-counts", type=int, nargs="+", default=[500, 5000], help="active matches")
    p.add_argument("--actions", type=int, default=100, help="actions per match")
    p.add_argument("--finished", type=float, default=1.0, help="finished matches per active one")
    p.add_argument(
        "--no-notices", action="store_true", help="members want no notices (as benchmarks/load.py's)"
    )
    p.add_argument("--repeat", type=int, default=5, help="passes of each worker (the median is printed)")
    p.add_argument("--json", action="store_true")
    return p.parse_args(argv)


# -- the store ------------------------------------------------------------------------------------
def _match_row(i: int, status: str, a: int, b: int, started: Any, clock: bool) -> dict[str, Any]:
    return {
        "id": f"{status[:3]}{i:07d}",
        "game": GAME,
        "options": {},
        "status": status,
        "seat0_user_id": a,
        "seat1_user_id": b,
        "commitment": "0" * 64,
        "server_seed": "0" * 64,
        "client_seed_a": "",
        "client_seed_b": "",
        "result": None if status == "active" else {"winner": 0},
        "created_at": started,
        "started_at": started,
        "finished_at": None if status == "active" else started + timedelta(hours=1),
        "move_seconds": 86_400 if clock else None,
        "deadline_at": started + timedelta(days=3) if clock and status == "active" else None,
        "listed": False,
        "rated": False,
    }


def _actions(match_id: str, count: int, last: Any, a: int, b: int) -> list[dict[str, Any]]:
    return [
        {
            "match_id": match_id,
            "seq": seq,
            "seat": seq % 2,
            "action": {"pick": seq},
            "source": "user",
            "client_action_id": None,
            "user_id": a if seq % 2 == 0 else b,
            "created_at": last - timedelta(seconds=30 * (count - seq)),
        }
        for seq in range(1, count + 1)
    ]


def fill(url: str, matches: int, actions: int, finished: int, *, wanted: bool = True) -> None:
    """The schema (migrations) and the rows of the module docstring (``wanted``: the members want turn
    notices)."""
    migrate.upgrade(url)
    ids = [m.id for m in seed_members(url, SECRET, max(2, matches // 2), prefix="bg")]
    db = Database(url)
    now = utcnow()
    try:
        if wanted:
            with db.session() as s:
                s.execute(
                    update(User).values(
                        email=User.username + "@mail.example", email_notices="each", push_notices=True
                    )
                )
        rows: list[dict[str, Any]] = []
        acts: list[dict[str, Any]] = []
        plan = [("active", i) for i in range(matches)] + [("finished", i) for i in range(finished)]
        for status, i in plan:
            a, b = ids[i % len(ids)], ids[(i * 7 + 1) % len(ids)]
            b = b if b != a else ids[(i + 1) % len(ids)]
            last = now - timedelta(minutes=1 + i % 30) if status == "active" else now - timedelta(days=2)
            row = _match_row(i, status, a, b, last - timedelta(seconds=30 * actions), i % 2 == 0)
            rows.append(row)
            acts.extend(_actions(row["id"], actions, last, a, b))
            if len(acts) >= BATCH:
                _flush(db, rows, acts)
        _flush(db, rows, acts)
    finally:
        db.dispose()


def _flush(db: Database, rows: list[dict[str, Any]], acts: list[dict[str, Any]]) -> None:
    with db.session() as s:
        if rows:
            s.execute(insert(Match), rows)
        if acts:
            s.execute(insert(MatchAction), acts)
    rows.clear()
    acts.clear()


# -- one worker's background passes -----------------------------------------------------------------
Pass = tuple[Callable[[], Awaitable[Any]], float]
"""One pass of a worker and the seconds between two passes when nothing happens."""


def passes(service: MatchService, db: Database) -> dict[str, Pass]:
    """One pass of each periodic worker web/app.py starts, built the same way (no SMTP: a log transport),
    and its idle period (the loop's interval; the tournament driver waits 1 s for a kick in its pass, which
    is left out of its figures: the wait is not timed, see :func:`run_passes`)."""
    bus = service.bus
    notices = NoticeSweeper(
        service,
        Dispatcher([EmailChannel(NoticeSite(SECRET, "https://club.example")), PushChannel()]),
        public_url="https://club.example",
    )
    mailer = MailSender(db, LogTransport(), mail_from="club@mail.example")
    pusher = PushSender(db, private_key=vapid.generate_private_key(), subject="mailto:club@mail.example")
    clock = service.clock_sweeper()
    presence = PresenceTracker(service)
    matchmaker = Matchmaker(service)
    members = MemberPresence(service)
    tournaments = TournamentDriver(service, service.leases, bus, interval=0.0)
    return {
        "clock": (clock.sweep, clock._loop.interval),
        "matchmaker": (matchmaker.pair, matchmaker._loop.interval),
        "presence": (presence.beat, presence._loop.interval),
        "member_presence": (members.beat, members._loop.interval),
        "tournaments": (tournaments._pass, 1.0),
        "notices": (notices.sweep, notices._loop.interval),
        "mail": (mailer.run_once, mailer.poll_seconds),
        "push": (pusher.run_once, pusher.poll_seconds),
    }


class Meter:
    """CPU of this process and of the benchmark database's PostgreSQL backends, wall time, statements."""

    def __init__(self, db: Database, pg_name: str | None) -> None:
        self.pg_name = pg_name
        self.statements = 0
        event.listen(db.engine, "before_cursor_execute", self._count)

    def _count(self, *_args: Any) -> None:
        self.statements += 1

    def backends_s(self) -> float:
        if self.pg_name is None:
            return 0.0
        ticks = 0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmd = (entry / "cmdline").read_bytes()
                if f" {self.pg_name} ".encode() not in cmd.replace(b"\0", b" ") + b" ":
                    continue
                text = (entry / "stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            ticks += int(fields[11]) + int(fields[12])
        return ticks / CLK_TCK

    async def measure(self, step: Callable[[], Awaitable[Any]]) -> dict[str, float]:
        statements, backends = self.statements, self.backends_s()
        cpu, wall = time.process_time(), time.perf_counter()
        await step()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        return {
            "cpu_ms": cpu * 1000,
            "pg_cpu_ms": (self.backends_s() - backends) * 1000,
            "wall_ms": wall * 1000,
            "statements": self.statements - statements,
        }


async def run_passes(url: str, pg_name: str | None, repeat: int) -> dict[str, dict[str, float]]:
    db = Database(url)
    service = MatchService(db, MemoryBus(), all_games(), None)
    meter = Meter(db, pg_name)
    out: dict[str, dict[str, float]] = {}
    try:
        for name, (step, period) in passes(service, db).items():
            await step()  # warm: caches, prepared statements, the first connection
            runs = [await meter.measure(step) for _ in range(repeat)]
            out[name] = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            out[name]["period_s"] = period
            out[name]["core_pct"] = (out[name]["cpu_ms"] + out[name]["pg_cpu_ms"]) / period / 10
    finally:
        await service.stop()
        db.dispose()
    return out


def one(args: argparse.Namespace, matches: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="duelclub-bg-") as tmp:
        base = BenchDatabase(Path(tmp), pg=args.pg)
        try:
            started = time.perf_counter()
            fill(base.url, matches, args.actions, int(matches * args.finished), wanted=not args.no_notices)
            filled = time.perf_counter() - started
            figures = asyncio.run(run_passes(base.url, base.pg_name, args.repeat))
        finally:
            base.drop()
    return {"matches": matches, "fill_s": round(filled, 1), "passes": figures}


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    store = "pg" if args.pg else "sqlite"
    runs = []
    for matches in args.match_counts:
        run = one(args, matches)
        runs.append(run)
        print(f"{store}: {matches} active matches × {args.actions} actions (filled in {run['fill_s']} s)")
        head = ("cpu ms", 8), ("pg cpu ms", 10), ("wall ms", 8), ("SQL", 5), ("every s", 8), ("% core", 7)
        print(f"  {'pass':16} " + " ".join(f"{title:>{width}}" for title, width in head))
        for name, f in run["passes"].items():
            print(
                f"  {name:16} {f['cpu_ms']:8.1f} {f['pg_cpu_ms']:10.1f} {f['wall_ms']:8.1f}"
                f" {f['statements']:5.0f} {f['period_s']:8.1f} {f['core_pct']:7.3f}"
            )
        run["core_pct"] = sum(f["core_pct"] for f in run["passes"].values())
        print(f"  all passes of an idle worker: {run['core_pct']:.2f} % of a core")
    load = load_average()
    print(f"load average: {load}")
    if args.json:
        print(json.dumps({"store": store, "runs": runs, "load_avg": load}))


if __name__ == "__main__":
    main()
