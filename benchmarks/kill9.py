"""SIGKILL under load (issue 13 §3): N live matches, three SIGKILLs of a web worker, then the clients'
acknowledged actions compared with the match log.

Starts its own ``duelclub serve`` worker(s) on a throw-away database — a SQLite file (default), or with
``--pg`` a fresh PostgreSQL database on 127.0.0.1:5432 (dropped afterwards); ``--workers 2`` starts two
workers on PostgreSQL sharing a Redis of its own (``redis-server`` on a spare port, as chaos.py) — and plays
``--matches`` invite matches of ``--game`` with one WebSocket per player, random legal actions, every
``--http-every``-th action through ``POST /api/matches/{id}/actions``, a match that ends replaced by a new
one. After ``--warmup`` s it SIGKILLs a worker (with two: worker 0, 1, 0 in turn), starts it again on the same
port at once, lets play go on for ``--play`` s, three times (``--kills``), then holds new actions while the
last answers arrive. Players reconnect as the page does (after 0.5 s); an action unanswered for
``--resend-after`` s is resent once with the same id through HTTP (on the other worker when there are two).

It prints: actions acknowledged; acknowledged but missing from the log (must be 0); stored more than once
(one client action id in two rows; must be 0); stored but never acknowledged (in flight at a kill: allowed);
5xx answers (target 0, SQLite included: writers take the lock up front, issue 13 §1.2); WebSocket error
codes, socket closes, and tracebacks in the worker logs (SIGKILLed processes leave none). ``--json``: the
last line is one JSON object (``acked``, ``missing``, ``duplicated``, ``stored_not_acked``, ``http_5xx``, …).

Command lines (from the project root, after ``make install-dev``; about 1–2 minutes each):

    .venv/bin/python benchmarks/kill9.py                          # SQLite, 1 worker, 50 matches
    .venv/bin/python benchmarks/kill9.py --pg                     # PostgreSQL, 1 worker
    .venv/bin/python benchmarks/kill9.py --workers 2              # PostgreSQL, 2 workers + Redis
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from typing import Any

import httpx
import loadkit as kit
from chaos_club import RedisServer


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=50)
    p.add_argument("--game", default="mezha", help="a game without a default clock keeps the log ours alone")
    p.add_argument("--pg", action="store_true", help="PostgreSQL instead of SQLite (implied by --workers 2)")
    p.add_argument("--workers", type=int, default=1, choices=(1, 2))
    p.add_argument("--kills", type=int, default=3)
    p.add_argument("--warmup", type=float, default=8.0)
    p.add_argument("--play", type=float, default=8.0, help="seconds of play after each restart")
    p.add_argument("--http-every", type=int, default=4)
    p.add_argument("--resend-after", type=float, default=3.0)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--keep", action="store_true", help="keep the work dir (worker logs)")
    p.add_argument("--json", action="store_true", help="last line: one JSON object of the figures")
    args = p.parse_args(argv)
    if args.workers > 1:
        args.pg = True
    if args.matches < 1 or args.kills < 1:
        p.error("--matches and --kills must be positive")
    return args


def logged_actions(db: kit.BenchDatabase, url: str, match_ids: list[str]) -> list[tuple[str, str]]:
    """(match id, client action id) of every logged player action of ``match_ids``."""
    sql = "SELECT match_id, client_action_id FROM match_actions WHERE client_action_id IS NOT NULL"
    if db.pg_name is not None:
        rows = db.query(sql)
    else:
        with contextlib.closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as conn:
            rows = conn.execute(sql).fetchall()
    wanted = set(match_ids)
    return [(str(m), str(c)) for m, c in rows if m in wanted]


async def restart(cluster: kit.Cluster, i: int, timeout: float = 60.0) -> float:
    """Start worker ``i`` again on its port; seconds until it answers ``GET /api/games``."""
    w, started = cluster.workers[i], time.monotonic()
    with w.log_path.open("ab") as out:
        w.proc = subprocess.Popen(
            [sys.executable, "-m", "duelclub.cli", "serve", "--port", str(w.port), "--log-level", "warning"],
            env=cluster.env,
            cwd=kit.REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    async with httpx.AsyncClient(timeout=2.0) as client:
        while time.monotonic() - started < timeout:
            if w.proc.poll() is not None:
                raise RuntimeError(f"worker {i} exited on restart:\n{w.log_path.read_text()[-3000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"{w.http}/api/games")).status_code == 200:
                    return time.monotonic() - started
            await asyncio.sleep(0.1)
    raise RuntimeError(f"worker {i} did not come back within {timeout} s")


class Kill9(kit.IncidentClub):
    """The matches of the suite (loadkit.IncidentClub)."""


async def timeline(game: Kill9, t0: float) -> list[dict[str, Any]]:
    args, cluster, kills = game.args, game.cluster, []
    await asyncio.sleep(args.warmup)
    for k in range(args.kills):
        i = k % len(cluster.workers)
        acked = game.stats.acks
        os.kill(cluster.workers[i].proc.pid, signal.SIGKILL)
        cluster.workers[i].proc.wait(10)
        back = await restart(cluster, i)
        print(
            f"  t={time.monotonic() - t0:5.1f} s  SIGKILL worker {i} at {acked} acked; back in {back:.1f} s"
        )
        kills.append({"worker": i, "acked_before": acked, "restart_s": round(back, 2)})
        await asyncio.sleep(args.play)
    game.hold.set()  # no new actions: the last answers arrive
    await asyncio.sleep(max(args.resend_after, 3.0) + 2.0)
    return kills


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with kit.workdir(args.keep) as wd:
        rds = RedisServer(wd) if args.workers > 1 else None
        if rds is not None:
            rds.start()
        db = kit.BenchDatabase(wd, pg=args.pg)
        env = {"BOT_WORKERS": "0"}
        cluster = kit.Cluster(wd, db.url, count=args.workers, redis_url=rds.url if rds else None, env=env)
        try:
            await cluster.start()
            members = kit.seed_members(db.url, cluster.secret_key, 2 * args.matches)
            game = Kill9(args, cluster, members)
            try:
                where = (
                    f"{args.workers} workers on PostgreSQL + Redis"
                    if rds
                    else ("PostgreSQL" if args.pg else "SQLite")
                )
                print(
                    f"# kill9: {where}; {args.matches} {args.game} matches; {args.kills} SIGKILLs;"
                    f" load average {kit.load_average()}",
                    flush=True,
                )
                return await _play(game, db)
            finally:
                await game.api.close()
        finally:
            cluster.stop()
            db.drop()
            if rds is not None:
                rds.kill()


async def _play(game: Kill9, db: kit.BenchDatabase) -> dict[str, Any]:
    args, t0 = game.args, time.monotonic()
    until = t0 + args.warmup + args.kills * (args.play + 30.0) + 60.0
    slots = [
        asyncio.create_task(
            game.keep_playing(j, None, functools.partial(game.human_match, j, game.stats), until)
        )
        for j in range(args.matches)
    ]
    try:
        kills = await timeline(game, t0)
    finally:
        for task in slots:
            task.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
    rows = logged_actions(db, game.cluster.env["DATABASE_URL"], game.match_ids)
    stored = Counter(cid.split(":", 1)[1] for _m, cid in rows)
    ours = {cid: n for cid, n in stored.items() if cid in game.stats.sent_ids}
    acked = game.stats.acked_ids
    missing = sorted(acked - set(ours))
    duplicated = sorted(cid for cid, n in ours.items() if n > 1)
    not_acked = sorted(set(ours) - acked)
    stats = game.stats
    result = {
        "acked": stats.acks,
        "missing": len(missing),
        "duplicated": len(duplicated),
        "stored_not_acked": len(not_acked),
        "http_5xx": sum(stats.http_5xx.values()),
        "http_5xx_by_call": dict(stats.http_5xx),
        "errors": dict(stats.errors),
        "socket_closes": stats.closes,
        "matches": len(game.match_ids),
        "kills": kills,
        "tracebacks": [w.log_count("Traceback") for w in game.cluster.workers],
        "database": "postgresql" if args.pg else "sqlite",
        "workers": args.workers,
        "load_avg": kit.load_average(),
    }
    print(f"actions acknowledged: {result['acked']} in {result['matches']} matches")
    print(f"acknowledged but missing from the log: {result['missing']} {missing[:10]}")
    print(f"stored more than once: {result['duplicated']} {duplicated[:10]}")
    print(f"stored but not acknowledged (in flight at a kill): {result['stored_not_acked']}")
    print(f"5xx answers: {result['http_5xx']} {result['http_5xx_by_call']}")
    print(f"WebSocket/HTTP error codes: {result['errors']}; sockets closed by the server: {stats.closes}")
    print(f"tracebacks in the worker logs: {result['tracebacks']}; load average {result['load_avg']}")
    return result


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    return 0 if result["missing"] == 0 and result["duplicated"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
