"""Chaos benchmark of the real-time server (issue 18 §3): a Redis outage and a frozen worker mid-play.

Starts a Redis of its own (``redis-server --port P --save "" --appendonly no`` on a spare port) and two
``duelclub serve`` workers on a fresh PostgreSQL database (127.0.0.1:5432, dropped afterwards), and plays
``--matches`` invite matches of ``--game`` across them: seat 0 on worker 0, seat 1 on worker 1, random legal
actions over the WebSocket and every ``--http-every``-th action through ``POST /api/matches/{id}/actions``.
Timeline: play ``--warmup`` s; kill Redis (SIGKILL) for ``--outage`` s and start it again on the same port;
hold (no new actions) for the ``--catchup`` s window and check the sockets; play; freeze worker 1 (SIGSTOP)
for ``--freeze`` s and SIGCONT it; hold and check again; play; hold while the last answers arrive.

An action unanswered for ``--resend-after`` s (on the frozen worker) is resent once with the same id through
HTTP on the other worker; other unanswered actions (a socket closed under them, a 5xx) are not resent. A
socket closed by the server is reopened after 0.5 s, as the page does.

It prints: actions acknowledged; 5xx answers; actions stored but not acknowledged (the rows of
``match_actions`` whose client action id got no ack); acknowledged but not stored (must never happen);
sockets that did not catch up within ``--catchup`` s of each recovery (a socket caught up when it has
received the database's latest seq of its match); plus WebSocket error codes, socket closes and the
workers' logged tracebacks. Targets (issue 18): 0 5xx / 0 stored-not-acknowledged / 0 not caught up.
``--json`` makes the last line one JSON object of these figures (``acked``, ``http_5xx``,
``stored_not_acked``, ``acked_not_stored``, ``not_caught_up``, …).

``--pg-restart`` runs the PostgreSQL outages instead (issue 29 §6, benchmarks/pg_restart.py): a private
cluster restarted ``-m fast``, ``-m immediate``, then stopped ``--pg-outage`` s, under two workers.

Command line (from the project root, after ``make install-dev``; about a minute):

    .venv/bin/python benchmarks/chaos.py
    .venv/bin/python benchmarks/chaos.py --matches 20 --json
    .venv/bin/python benchmarks/chaos.py --pg-restart --json
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import signal
import sys
import time
from typing import Any

import loadkit as kit
from chaos_club import Chaos, RedisServer


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=10)
    p.add_argument("--game", default="towers")
    p.add_argument("--http-every", type=int, default=3, help="every k-th action over HTTP (0: never)")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--outage", type=float, default=10.0, help="seconds Redis is down")
    p.add_argument("--freeze", type=float, default=10.0, help="seconds worker 1 is stopped")
    p.add_argument("--catchup", type=float, default=5.0, help="seconds a socket has to catch up")
    p.add_argument("--play", type=float, default=5.0, help="seconds of play after each check")
    p.add_argument("--resend-after", type=float, default=3.0)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--pg-restart", action="store_true", help="PostgreSQL outages instead (pg_restart.py)")
    p.add_argument("--pg-outage", type=float, default=30.0, help="seconds PostgreSQL is stopped")
    p.add_argument("--move-seconds", type=int, default=10, help="the matches' move clock (--pg-restart)")
    p.add_argument("--keep", action="store_true", help="keep the work dir (worker and Redis logs)")
    p.add_argument("--json", action="store_true", help="last line: one JSON object of the figures")
    args = p.parse_args(argv)
    if args.matches < 1:
        p.error("--matches must be positive")
    return args


def _stamp(t0: float, text: str) -> None:
    print(f"  t={time.monotonic() - t0:5.1f} s  {text}", flush=True)


async def timeline(chaos: Chaos, rds: RedisServer, db: kit.BenchDatabase, t0: float) -> None:
    """The incidents, in order (see the module docstring)."""
    args, frozen = chaos.args, chaos.cluster.workers[1]
    await asyncio.sleep(args.warmup)
    _stamp(t0, f"kill Redis ({chaos.stats.acks} acked so far)")
    rds.kill()
    await asyncio.sleep(args.outage)
    rds.start()
    _stamp(t0, f"Redis restarted ({chaos.stats.acks} acked so far)")
    await chaos.check_catch_up(db, "after the Redis outage")
    await asyncio.sleep(args.play)
    _stamp(t0, f"SIGSTOP worker 1 ({chaos.stats.acks} acked so far)")
    os.kill(frozen.proc.pid, signal.SIGSTOP)
    try:
        await asyncio.sleep(args.freeze)
    finally:
        os.kill(frozen.proc.pid, signal.SIGCONT)
    _stamp(t0, f"SIGCONT worker 1 ({chaos.stats.acks} acked so far)")
    await chaos.check_catch_up(db, "after the freeze")
    await asyncio.sleep(args.play)
    chaos.hold.set()  # the last answers arrive before the players stop


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with kit.workdir(args.keep) as wd:
        rds = RedisServer(wd)
        rds.start()
        db = kit.BenchDatabase(wd, pg=True)
        cluster = kit.Cluster(wd, db.url, count=2, redis_url=rds.url)
        try:
            await cluster.start()
            members = kit.seed_members(db.url, cluster.secret_key, 2 * args.matches)
            chaos = Chaos(args, cluster, members)
            try:
                await chaos.api.me(cluster.workers[1].http, members[0])
                print(
                    f"# 2 workers on PostgreSQL, Redis on port {rds.port};"
                    f" {args.matches} {args.game} matches;"
                    f" load average {kit.load_average()}",
                    flush=True,
                )
                return await _play(chaos, rds, db, cluster)
            finally:
                await chaos.api.close()
        finally:
            cluster.stop()
            db.drop()
            rds.kill()


async def _play(
    chaos: Chaos, rds: RedisServer, db: kit.BenchDatabase, cluster: kit.Cluster
) -> dict[str, Any]:
    args = chaos.args
    total = args.warmup + args.outage + 2 * (args.catchup + args.play) + args.freeze + 3.0
    t0 = time.monotonic()
    until = t0 + total + 60.0  # a bound: the players stop once the timeline is over
    slots = [
        asyncio.create_task(
            chaos.keep_playing(j, None, functools.partial(chaos.human_match, j, chaos.stats), until)
        )
        for j in range(args.matches)
    ]
    try:
        await timeline(chaos, rds, db, t0)
        await asyncio.sleep(3.0)
    finally:
        for task in slots:
            task.cancel()
        ends = await asyncio.gather(*slots, return_exceptions=True)
    for end in ends:
        if isinstance(end, Exception):
            print(f"!! a match slot failed: {end!r}", file=sys.stderr)
    not_acked, not_stored = chaos.stored_vs_acked(db)
    stats = chaos.stats
    result = {
        "acked": stats.acks,
        "http_5xx": sum(stats.http_5xx.values()),
        "stored_not_acked": len(not_acked),
        "acked_not_stored": len(not_stored),
        "not_caught_up": sum(chaos.lagging),
        "not_caught_up_by_check": chaos.lagging,
        "http_5xx_by_call": dict(stats.http_5xx),
        "errors": dict(stats.errors),
        "socket_closes": stats.closes,
        "matches": len(chaos.match_ids),
        "tracebacks": [w.log_count("Traceback") for w in cluster.workers],
        "load_avg": kit.load_average(),
    }
    print(f"actions acknowledged: {result['acked']} in {len(chaos.match_ids)} matches")
    print(f"5xx answers: {result['http_5xx']} {result['http_5xx_by_call']}")
    print(f"stored but not acknowledged: {result['stored_not_acked']} {not_acked[:10]}")
    print(f"acknowledged but not stored: {result['acked_not_stored']} {not_stored[:10]}")
    print(f"sockets not caught up within {args.catchup} s: {result['not_caught_up']} {chaos.lagging}")
    print(f"WebSocket/HTTP error codes: {result['errors']}; sockets closed by the server: {stats.closes}")
    print(f"tracebacks in the worker logs: {result['tracebacks']}; load average {result['load_avg']}")
    return result


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.pg_restart:
        import pg_restart

        result = asyncio.run(pg_restart.run(args))
        if args.json:
            print(json.dumps(result))
        return 0 if result["lost"] == 0 and result["duplicated"] == 0 and result["recovered"] else 1
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
