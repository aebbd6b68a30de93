"""The figures of the live arena (benchmarks/tournaments.py ``arena``): run it on PostgreSQL with one
``duelclub serve`` worker, measure the window, read the stored boards and print (see that file's
docstring)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import statistics
import time
from collections import Counter
from typing import Any

import httpx
import loadkit as kit
from tournament_arena import ArenaBench

BOARDS_SQL = """
SELECT g.round, g.board, g.first, g.second, g.created_at, g.ended_at, m.finished_at, m.status,
       m.result ->> 'reason'
FROM tournament_games g LEFT JOIN matches m ON m.id = g.match_id
WHERE g.tournament_id = %s ORDER BY g.round, g.board
"""


def board_figures(rows: list[tuple[Any, ...]]) -> dict[str, Any]:
    """From the stored boards: matches by status and reason, the pairing delay (the match's
    ``finished_at`` → the player's next board's ``created_at``), the driver's lag recording a result
    (``finished_at`` → the board's ``ended_at``), players paired while in a game, the same opponent twice
    in a row."""
    ends = Counter(f"{status}:{reason}" for *_, status, reason in rows if status != "active")
    lag = [(ended - fin).total_seconds() for *_, ended, fin, _, _ in rows if ended and fin]
    by_player: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        for p in (row[2], row[3]):
            if p is not None:
                by_player.setdefault(p, []).append(row)
    delays: list[float] = []
    overlaps = repeats = 0
    for p, games in by_player.items():
        for prev, nxt in itertools.pairwise(games):
            if prev[6] is None or nxt[4] < prev[6]:
                overlaps += 1
            else:
                delays.append((nxt[4] - prev[6]).total_seconds())
            other = {prev[2], prev[3]} - {p}
            if other and other == {nxt[2], nxt[3]} - {p}:
                repeats += 1
    return {
        "boards": len(rows),
        "ends": dict(ends),
        "server_delay": sorted(delays),
        "result_lag": lag,
        "overlaps": overlaps,
        "repeats_in_a_row": repeats // 2,  # counted once by each of the two players
        "players_paired": len(by_player),
    }


def fifths(values: list[float]) -> list[list[float]]:
    """``values`` (in board order) cut into five consecutive parts."""
    n = len(values)
    return [values[i * n // 5 : (i + 1) * n // 5] for i in range(5)] if n >= 5 else [values]


async def page_cost(
    bench: ArenaBench, cluster: kit.Cluster, db: kit.BenchDatabase, reads: int = 3, kept: int = 10
) -> dict[str, Any]:
    """What one read of ``GET /api/tournaments/{id}`` costs at the end (the tournament page re-reads it on
    every ``{"type": "tournament"}`` push): wall ms (median), server CPU ms (mean) and KB of ``reads`` reads;
    then, after a bare version bump (what a result does), the read that computes the new version
    (``detail_compute_*``) and ``kept`` more reads of that version (``detail_kept_*``: a server that keeps
    the detail per version answers them without computing; one that does not computes each)."""
    path = f"/api/tournaments/{bench.tournament_id}"

    async def timed(count: int) -> tuple[list[float], float, int]:
        walls, size = [], 0
        cpu0 = cluster.cpu_seconds()
        for _ in range(count):
            t = time.monotonic()
            r = await bench.api.call(bench.worker.http, bench.members[0], "GET", path)
            walls.append(time.monotonic() - t)
            size = len(r.content)
        return walls, cluster.cpu_seconds() - cpu0, size

    walls, cpu, size = await timed(reads)
    # psycopg commits on leaving the connection: the bump is written, as a recorded result would write it
    db.query(
        "UPDATE tournaments SET version = version + 1 WHERE id = %s RETURNING version", (bench.tournament_id,)
    )
    first, first_cpu, _ = await timed(1)
    again, again_cpu, _ = await timed(kept)
    return {
        "detail_get_ms": round(1000 * statistics.median(walls), 1),
        "detail_get_cpu_ms": round(1000 * cpu / reads, 1),
        "detail_kb": round(size / 1024, 1),
        "detail_compute_ms": round(1000 * first[0], 1),
        "detail_compute_cpu_ms": round(1000 * first_cpu, 1),
        "detail_kept_ms": round(1000 * statistics.median(again), 1),
        "detail_kept_cpu_ms": round(1000 * again_cpu / kept, 1),
    }


def ms(values: list[float], q: float) -> float | None:
    value = kit.percentile(sorted(values), q)
    return None if value is None else round(1000 * value, 1)


async def _at(when: float, read: Any) -> Any:
    await asyncio.sleep(max(0.0, when - time.monotonic()))
    return read()


async def measure(bench: ArenaBench, db: kit.BenchDatabase, cluster: kit.Cluster) -> dict[str, Any]:
    """Start the arena and play it for ``--seconds``; the figures of the window."""
    args = bench.args
    inboxes = await bench.setup()
    print(
        f"# arena {bench.tournament_id}: {len(bench.members)} members joined;"
        f" load average {kit.load_average()}"
    )
    cpu0, xact0, t0, rss0 = cluster.cpu_seconds(), db.xacts(), time.monotonic(), cluster.rss_kb()
    until = bench.until = t0 + args.seconds
    bench.page_reads.clear()
    at_end = asyncio.create_task(_at(until, lambda: (cluster.cpu_seconds(), db.xacts(), cluster.rss_kb())))
    players = [
        asyncio.create_task(bench.member(m, q, until)) for m, q in zip(bench.members, inboxes, strict=True)
    ]
    started = await bench.call(bench.members[0], "POST", f"/api/tournaments/{bench.tournament_id}/start")
    start_s = time.monotonic() - t0
    await asyncio.gather(*players)
    cpu1, xact1, rss = await at_end
    rows = db.query(BOARDS_SQL, (bench.tournament_id,))
    page = await page_cost(bench, cluster, db)
    boards = board_figures(rows)
    acks, seen = bench.stats.acks, bench.seen
    return {
        "game": args.game,
        "members": len(bench.members),
        "seconds": args.seconds,
        "start_call_ms": round(1000 * start_s, 1),
        "first_round_boards": sum(len(r["pairings"]) for r in started.get("rounds", [])[:1]),
        "acked": acks,
        "acked_per_s": round(acks / args.seconds, 1),
        **bench.stats.latency_ms(),
        "matches_started": boards["boards"],
        "matches_finished": sum(n for k, n in boards["ends"].items() if k.startswith("finished")),
        "match_ends": boards["ends"],
        "matches_seen_ended": len(seen.ended),
        "pairing_delay_p50_ms": ms(seen.delays, 0.5),
        "pairing_delay_p99_ms": ms(seen.delays, 0.99),
        "pairing_delay_max_ms": ms(seen.delays, 1.0),
        "server_pairing_delay_p50_ms": ms(boards["server_delay"], 0.5),
        "server_pairing_delay_p99_ms": ms(boards["server_delay"], 0.99),
        "result_lag_p50_ms": ms(boards["result_lag"], 0.5),
        "result_lag_p99_ms": ms(boards["result_lag"], 0.99),
        "result_lag_p50_ms_by_fifth": [ms(part, 0.5) for part in fifths(boards["result_lag"])],
        "tournament_pushes_per_s": round(seen.pushes / len(bench.members) / args.seconds, 1),
        **page,
        "page_readers": args.page_readers,
        "page_reads_per_s": round(len(bench.page_reads) / args.seconds, 1),
        "page_read_p50_ms": ms(bench.page_reads, 0.5),
        "page_read_p99_ms": ms(bench.page_reads, 0.99),
        "cpu_ms_per_act": round(1000 * (cpu1 - cpu0) / acks, 2) if acks else None,
        "cpu_core_pct": round(100 * (cpu1 - cpu0) / args.seconds, 1),
        "pg_xact_per_act": round((xact1 - xact0) / acks, 2) if acks and xact0 is not None and xact1 else None,
        "server_rss_mb": round(rss / 1024, 1),
        "server_rss_start_mb": round(rss0 / 1024, 1),
        "checks": {
            "paired_while_in_a_game": boards["overlaps"],
            "same_opponent_in_a_row": boards["repeats_in_a_row"],
            "announcements_missed": seen.missed,
            "announced_before_end_seen": seen.early,
            "lobby_socket_closes": seen.lobby_closes,
            "match_socket_closes": bench.stats.closes,
            "errors": dict(bench.stats.errors + seen.errors),
            "http_5xx": dict(bench.api.stats.http_5xx),
        },
        "load_avg": kit.load_average(),
    }


def _arena_lines(f: dict[str, Any]) -> list[str]:
    return [
        f"[arena] {f['members']} members, {f['game']}, {f['seconds']:g} s; load average {f['load_avg']}",
        f"  start call {f['start_call_ms']} ms ({f['first_round_boards']} boards)",
        f"  acknowledged {f['acked']} acts, {f['acked_per_s']}/s; latency p50 {f['p50_ms']} ms,"
        f" p99 {f['p99_ms']} ms",
        f"  matches: {f['matches_started']} paired, {f['matches_finished']} finished ({f['match_ends']});"
        f" members saw {f['matches_seen_ended']} end",
        f"  pairing delay (end seen → next match announced) p50 {f['pairing_delay_p50_ms']} ms,"
        f" p99 {f['pairing_delay_p99_ms']} ms, max {f['pairing_delay_max_ms']} ms",
        f"  in the database (finished_at → next board) p50 {f['server_pairing_delay_p50_ms']} ms,"
        f" p99 {f['server_pairing_delay_p99_ms']} ms; result recorded after p50 {f['result_lag_p50_ms']} ms,"
        f" p99 {f['result_lag_p99_ms']} ms (p50 by fifth of the boards {f['result_lag_p50_ms_by_fifth']})",
        f"  {f['tournament_pushes_per_s']} tournament pushes/s per lobby socket;"
        f" GET /api/tournaments/{{id}} at the end: {f['detail_get_ms']} ms,"
        f" server CPU {f['detail_get_cpu_ms']} ms, {f['detail_kb']} KB; after a version bump the first read"
        f" {f['detail_compute_ms']} ms (CPU {f['detail_compute_cpu_ms']} ms), the next ones"
        f" {f['detail_kept_ms']} ms (CPU {f['detail_kept_cpu_ms']} ms)",
        *(
            [
                f"  {f['page_readers']} open tournament pages: {f['page_reads_per_s']} reads/s, p50"
                f" {f['page_read_p50_ms']} ms, p99 {f['page_read_p99_ms']} ms"
            ]
            if f["page_readers"]
            else []
        ),
        f"  server CPU {f['cpu_ms_per_act']} ms per act ({f['cpu_core_pct']} % of a core);"
        f" PostgreSQL transactions per act {f['pg_xact_per_act']}; server RSS {f['server_rss_start_mb']} →"
        f" {f['server_rss_mb']} MB",
        f"  checks {f['checks']}",
    ]


async def run_arena(args: argparse.Namespace) -> dict[str, Any]:
    with kit.workdir(args.keep) as wd:
        db = kit.BenchDatabase(wd, pg=True)
        cluster = kit.Cluster(wd, db.url, env={"BOT_WORKERS": "0"})
        try:
            await cluster.start()
            members = kit.seed_members(db.url, cluster.secret_key, args.members, prefix="arena")
            bench = ArenaBench(args, cluster.workers[0], members)
            try:
                result = await measure(bench, db, cluster)
                with contextlib.suppress(RuntimeError, httpx.HTTPError):
                    await bench.call(members[0], "POST", f"/api/tournaments/{bench.tournament_id}/cancel")
            finally:
                await bench.close()
            result["checks"]["tracebacks"] = cluster.workers[0].log_count("Traceback")
            result["checks"]["log_errors"] = cluster.workers[0].log_count("ERROR")
            print("\n".join(_arena_lines(result)), flush=True)
            return result
        finally:
            cluster.stop()
            db.drop()
