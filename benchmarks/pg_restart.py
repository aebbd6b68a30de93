"""PostgreSQL outages under load (issue 29 §6): ``chaos.py --pg-restart``.

Starts a PostgreSQL cluster of its own — ``initdb`` and ``pg_ctl`` on a spare port in a temporary directory
(tests/play/private_postgres.py; under root as the ``postgres`` system user), never the shared server on
5432 — with ``synchronous_commit=on`` (a commit answered is in the WAL, so a ``-m immediate`` restart may not
take it back), a Redis of its own (chaos_club.py) and two ``duelclub serve`` workers, and plays
``--matches`` invite matches of ``--game`` across them (seat 0 on worker 0, seat 1 on worker 1, every
``--http-every``-th action over HTTP), each with a move clock of ``--move-seconds`` (10 s by default: shorter
than the 30 s stop, so every running clock runs out inside it). Timeline: play ``--warmup`` s; then, each
followed by ``--play`` s of play: ``pg_ctl restart -m fast``; ``pg_ctl restart -m immediate``; ``pg_ctl stop
-m fast``, ``--pg-outage`` s (30) down, ``pg_ctl start``. During the stop it asks both workers' ``/readyz``
(must be 503). After each incident it measures the seconds from PostgreSQL accepting connections again
until both workers' ``/readyz`` answer 200 and an action has been acknowledged again (``seconds_to_recover``,
target ≤ 5). The workers are never restarted: ``workers_restarted`` says whether one died.

Counted against the database afterwards: ``lost`` (acknowledged, not in ``match_actions``: must be 0),
``duplicated`` (one client action id stored twice: must be 0), ``stored_not_acked`` (in flight when the
connection broke: allowed), ``clock_timeouts`` (actions of source ``clock`` and matches aborted
``no_first_move``; a player that stalls for a move's time is timed out as ever) and of them
``clock_timeouts_for_outage``, stored within 3 s of PostgreSQL coming back (must be 0 — the clocks pause for
an outage, play/clock.py ``ClockRearm``).
``failed_requests``: acts and calls answered 503 / ``store_unavailable`` (WebSocket error frames) during the
outages — expected — and ``http_500`` (a crash: must be 0). Per incident (``incidents``): sent, acked, 5xx,
store_unavailable frames, seconds to recover. ``--json``: the last line is one JSON object of these.

    .venv/bin/python benchmarks/chaos.py --pg-restart --json       # about 2 minutes
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import loadkit as kit
import psycopg
from chaos_club import Chaos, RedisServer

sys.path.insert(0, str(kit.REPO / "tests" / "play"))  # one private-cluster helper for tests and benchmarks
from private_postgres import PrivatePostgres, unavailable

MODES = ("fast", "immediate", "stop")
RECOVER_LIMIT_S = 5.0
OUTAGE_TIMEOUT_S = 3.0
"""A clock timeout stored this soon after PostgreSQL came back counts as one for the outage."""


class PrivateDatabase:
    """``query`` on the private cluster's ``duelclub`` database (what :class:`Chaos` reads)."""

    def __init__(self, pg: PrivatePostgres) -> None:
        self.pg = pg

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.pg.dsn(), connect_timeout=5) as conn:
            return list(conn.execute(sql, params).fetchall())


async def readyz(cluster: kit.Cluster) -> list[int]:
    """Each worker's ``/readyz`` status (0: no answer)."""
    found = []
    async with httpx.AsyncClient(timeout=3.0) as client:
        for w in cluster.workers:
            try:
                found.append((await client.get(f"{w.http}/readyz")).status_code)
            except httpx.HTTPError:
                found.append(0)
    return found


async def until(test: Any, started: float, limit: float = 60.0) -> float | None:
    """Seconds from ``started`` until ``await test()`` is true (polled every 50 ms); None after ``limit``."""
    while time.monotonic() - started < limit:
        if await test():
            return time.monotonic() - started
        await asyncio.sleep(0.05)
    return None


def snapshot(stats: kit.Stats) -> dict[str, int]:
    return {
        "sent": len(stats.sent_ids),
        "acked": stats.acks,
        "http_5xx": sum(stats.http_status.values()),
        "http_503": stats.http_status[503],
        "store_unavailable_frames": stats.errors["store_unavailable"],
    }


async def incident(chaos: Chaos, pg: PrivatePostgres, mode: str, t0: float) -> dict[str, Any]:
    """One outage (``mode``: a ``pg_ctl restart -m`` mode, or ``stop``) and the play after it."""
    args, stats, cluster = chaos.args, chaos.stats, chaos.cluster
    before = snapshot(stats)
    down: list[int] | None = None
    print(f"  t={time.monotonic() - t0:5.1f} s  PostgreSQL {mode} ({stats.acks} acked so far)", flush=True)
    if mode == "stop":
        await asyncio.to_thread(pg.stop)
        await asyncio.sleep(min(2.0, args.pg_outage))
        down = await readyz(cluster)
        await asyncio.sleep(max(0.0, args.pg_outage - 2.0))
        await asyncio.to_thread(pg.start)
    else:
        await asyncio.to_thread(pg.restart, mode)
    back, acked_at_back, back_at = time.monotonic(), stats.acks, datetime.now(UTC)

    async def all_ready() -> bool:
        return all(code == 200 for code in await readyz(cluster))

    async def acked_again() -> bool:
        return stats.acks > acked_at_back

    ready_s = await until(all_ready, back)
    ack_s = await until(acked_again, back)
    recover = None if ready_s is None or ack_s is None else round(max(ready_s, ack_s), 2)
    print(f"  t={time.monotonic() - t0:5.1f} s  back: readyz 200 after {ready_s} s, acks after {ack_s} s")
    await asyncio.sleep(args.play)
    after = snapshot(stats)
    return {
        "mode": mode,
        **{k: after[k] - before[k] for k in after},
        "readyz_during": down,
        "seconds_to_recover": recover,
        "back_at": back_at.isoformat(),
    }


def counted(chaos: Chaos, db: PrivateDatabase) -> dict[str, Any]:
    """What the database holds of the clients' actions, and the clock's moves."""
    rows = db.query(
        "SELECT client_action_id, count(*) FROM match_actions"
        " WHERE match_id = ANY(%s) AND client_action_id IS NOT NULL GROUP BY client_action_id",
        (chaos.match_ids,),
    )
    stored: dict[str, int] = {}
    for cid, n in rows:
        key = str(cid).split(":", 1)[1]
        stored[key] = stored.get(key, 0) + int(n)
    ours = {k: n for k, n in stored.items() if k in chaos.stats.sent_ids}
    acked = chaos.stats.acked_ids
    clock_at = [
        at
        for (at,) in db.query(
            "SELECT created_at FROM match_actions WHERE match_id = ANY(%s) AND source = 'clock'"
            " UNION ALL SELECT finished_at FROM matches"
            " WHERE id = ANY(%s) AND result->>'reason' = 'no_first_move'",
            (chaos.match_ids, chaos.match_ids),
        )
    ]
    return {
        "lost": len(acked - set(ours)),
        "duplicated": sum(1 for n in ours.values() if n > 1),
        "stored_not_acked": len(set(ours) - acked),
        "clock_timeouts": len(clock_at),
        "clock_at": clock_at,
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    why = unavailable()
    if why:
        raise SystemExit(f"no private PostgreSQL cluster: {why}")
    with kit.workdir(args.keep) as wd:
        pg = PrivatePostgres(kit.free_port(), synchronous_commit=True)
        rds = RedisServer(wd)
        try:
            await asyncio.to_thread(pg.create)
            rds.start()
            cluster = kit.Cluster(wd, pg.url, count=2, redis_url=rds.url, env={"BOT_WORKERS": "0"})
            try:
                await cluster.start()
                members = kit.seed_members(pg.url, cluster.secret_key, 2 * args.matches)
                chaos = Chaos(args, cluster, members)
                chaos.move_seconds = args.move_seconds
                try:
                    print(
                        f"# 2 workers on a private PostgreSQL (port {pg.port}) + Redis; {args.matches}"
                        f" {args.game} matches, {args.move_seconds} s clocks;"
                        f" load average {kit.load_average()}",
                        flush=True,
                    )
                    return await _play(chaos, pg, cluster)
                finally:
                    await chaos.api.close()
            finally:
                cluster.stop()
        finally:
            rds.kill()
            pg.destroy()


async def _play(chaos: Chaos, pg: PrivatePostgres, cluster: kit.Cluster) -> dict[str, Any]:
    args, t0 = chaos.args, time.monotonic()
    pids = cluster.pids()
    until_t = t0 + args.warmup + len(MODES) * (args.play + 70.0) + args.pg_outage
    slots = [
        asyncio.create_task(
            chaos.keep_playing(j, None, functools.partial(chaos.human_match, j, chaos.stats), until_t)
        )
        for j in range(args.matches)
    ]
    incidents = []
    try:
        await asyncio.sleep(args.warmup)
        for mode in MODES:
            incidents.append(await incident(chaos, pg, mode, t0))
        chaos.hold.set()  # the last answers arrive
        await asyncio.sleep(max(args.resend_after, 3.0) + 2.0)
    finally:
        for task in slots:
            task.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
    return report(chaos, PrivateDatabase(pg), cluster, pids, incidents)


def report(
    chaos: Chaos, db: PrivateDatabase, cluster: kit.Cluster, pids: list[int], incidents: list[dict[str, Any]]
) -> dict[str, Any]:
    stats = chaos.stats
    found = counted(chaos, db)
    recover = [i["seconds_to_recover"] for i in incidents]
    alive = all(w.proc.poll() is None for w in cluster.workers) and cluster.pids() == pids
    backs = [datetime.fromisoformat(i["back_at"]) for i in incidents]
    clock_at = found.pop("clock_at")
    # A timeout for an outage would be stored as soon as the database is back: within OUTAGE_TIMEOUT_S of it.
    found["clock_timeouts_for_outage"] = sum(
        any(timedelta(0) <= at - back <= timedelta(seconds=OUTAGE_TIMEOUT_S) for back in backs)
        for at in clock_at
    )
    result = {
        "sent": len(stats.sent_ids),
        "acked": stats.acks,
        **found,
        "recovered": alive and all(r is not None and r <= RECOVER_LIMIT_S for r in recover),
        "seconds_to_recover": max((r for r in recover if r is not None), default=None),
        "failed_requests": sum(stats.http_status.values()) + stats.errors["store_unavailable"],
        "http_5xx": sum(stats.http_status.values()),
        "http_500": sum(n for code, n in stats.http_status.items() if code != 503),
        "workers_restarted": not alive,
        "incidents": incidents,
        "errors": dict(stats.errors),
        "socket_closes": stats.closes,
        "matches": len(chaos.match_ids),
        "tracebacks": [w.log_count("Traceback") for w in cluster.workers],
        "load_avg": kit.load_average(),
    }
    for i in incidents:
        print(
            f"{i['mode']:>9}: sent {i['sent']}, acked {i['acked']},"
            f" 5xx {i['http_5xx']} (503: {i['http_503']}),"
            f" store_unavailable frames {i['store_unavailable_frames']}, readyz during {i['readyz_during']},"
            f" recovered in {i['seconds_to_recover']} s"
        )
    print(f"sent {result['sent']}, acknowledged {result['acked']} in {result['matches']} matches")
    lost = f"lost {result['lost']}, duplicated {result['duplicated']}"
    print(f"{lost}, stored not acked {result['stored_not_acked']}")
    print(
        f"clock timeouts {result['clock_timeouts']} ({result['clock_timeouts_for_outage']} within"
        f" {OUTAGE_TIMEOUT_S} s of a recovery); failed requests {result['failed_requests']}"
    )
    print(f"http 500 {result['http_500']}; workers restarted {result['workers_restarted']}")
    print(f"recovered {result['recovered']} (max {result['seconds_to_recover']} s)")
    print(f"errors {result['errors']}; socket closes {stats.closes}; tracebacks {result['tracebacks']}")
    print(f"load average {result['load_avg']}")
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    return result
