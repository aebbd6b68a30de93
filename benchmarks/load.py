"""Load benchmark of the real-time server (issue 12 §4 and §5): concurrent matches over WebSockets.

Starts its own ``duelclub serve`` worker(s) as subprocesses on a throw-away database (a SQLite file, or with
``--pg`` a fresh PostgreSQL database on 127.0.0.1:5432, dropped afterwards; ``--workers N`` processes share
Redis), creates members and sessions directly in the database, opens ``--matches N`` invite matches of
``--game`` and plays them with one WebSocket per player (the two players of a match on different workers when
N > 1), each answering with a random legal action, at once or after ``--think-ms`` (0.5–1.5 ×, as a member
thinks), for ``--seconds``; a match that ends is replaced.
It prints the load average, acknowledged actions/s, p50/p90/p99 latency (ms, send → ack), server CPU ms per
acknowledged action (/proc of every worker and its children — bot processes included), PostgreSQL
transactions per action (pg_stat_database of the benchmark's database; ``--pg`` only) and the growth of the
workers' RSS per open socket (its match's cache included). ``--bots K`` then keeps K matches against the
hard bot going while the human phase runs again, and reports the ratio of the humans' p50 latency with and
without them (``--bot-rounds R``: R such pairs of phases, the median ratio, ``bot_latency_ratios`` each).
``--idle-sockets M`` finally opens M seated sockets (on fresh matches) that send nothing and
reports their CPU (% of one core: the median of six slices of ``--idle-seconds``, less that of the same
window without them, so that a periodic background pass does not decide the figure) and KB of RSS
each. ``--json`` makes the last
line one JSON object with ``acked_per_s``, ``p50_ms``, ``p99_ms``, ``cpu_ms_per_action``,
``pg_xact_per_action``, ``rss_kb_per_socket``, ``bot_latency_ratio`` (null where not measured) and a few more.

Command lines (from the project root, after ``make install-dev``; the issue 12 targets in brackets):

    .venv/bin/python benchmarks/load.py --matches 20 --seconds 10                 # SQLite, quick look
    .venv/bin/python benchmarks/load.py --pg --matches 100 --seconds 20           # [CPU ≤ 1.5 ms, ≤ 1.5 xact]
    .venv/bin/python benchmarks/load.py --pg --matches 500 --seconds 30           # closed loop: capacity
    .venv/bin/python benchmarks/load.py --pg --matches 500 --seconds 30 --think-ms 1000  # [≥ 400/s, p99 300]
    .venv/bin/python benchmarks/load.py --pg --workers 2 --matches 100 --seconds 20   # [CPU ≤ 1.3× 1 worker]
    .venv/bin/python benchmarks/load.py --pg --matches 10 --bots 20 --seconds 20  # [p50 ratio ≤ 1.5]
    .venv/bin/python benchmarks/load.py --pg --matches 10 --bots 20 --bot-level master --bot-rounds 5 \
        --seconds 20                                                       # issue 27 §3 [median ≤ 1.3]
    .venv/bin/python benchmarks/load.py --pg --matches 10 --seconds 5 --idle-sockets 1000  # [≤ 3 %, ≤ 40 KB]
    .venv/bin/python benchmarks/load.py --matrix --think-ms 1000 --json   # issue 29: store × 50/500 × 1/2
    .venv/bin/python benchmarks/load.py --matrix --stores pg --match-counts 500 --think-ms 1000  # [2/1 ≤ 1.2]

``--matrix`` runs every combination of ``--stores``, ``--match-counts`` and ``--worker-counts`` one after the
other and prints one JSON line per run (``cpu_ms_per_action``, ``acked_per_s``, ``p50_ms``, ``p99_ms``,
``xact_per_action``, ``idle_kb_per_socket``, ``idle_cpu_pct`` — the idle pair with ``--idle-sockets`` —,
``load_avg``) and the ratio of 2 workers' CPU per action to 1 worker's.

Why ``--think-ms`` for the 500-match target: with every player answering at once the clients form a
closed loop, and by Little's law 500 matches (one action in flight each) at p99 ≤ 300 ms would need over
1,700 acks/s. Members think between moves; at about a second each, 500 matches offer ~450 actions/s, and the
figure that matters is the latency at that load.

Notes: the PostgreSQL transaction count is read ``PG_STATS_SETTLE_S`` after the sockets close (statistics
are flushed late), so it includes the disconnects' presence writes (one per socket, at most). Run it on a
quiet machine: the load average is printed so that figures can be stated with it. ``BOT_WORKERS`` (or
``--bot-workers``) is passed through to the workers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import loadkit as kit
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

DEFAULT_REDIS = "redis://127.0.0.1:6379/13"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=20, help="concurrent human-vs-human matches (N)")
    p.add_argument("--seconds", type=float, default=10.0, help="length of each playing phase")
    p.add_argument("--game", default="towers")
    p.add_argument("--pg", action="store_true", help="PostgreSQL (a temporary database) instead of SQLite")
    p.add_argument("--workers", type=int, default=1, help="web worker processes (Redis when > 1)")
    p.add_argument(
        "--placement",
        choices=kit.PLACEMENTS,
        default="split",
        help="several workers: a match's two sockets on two workers (split, the worst case) or on the one"
        " a hash of its id picks (sticky: a load balancer routing /ws/match/{id} by id)",
    )
    p.add_argument("--redis", default=None, help=f"Redis URL (default with --workers > 1: {DEFAULT_REDIS})")
    p.add_argument("--bots", type=int, default=0, help="hard-bot matches during a second human phase (K)")
    p.add_argument("--bot-level", default="hard")
    p.add_argument(
        "--bot-rounds",
        type=int,
        default=1,
        help="with --bots: R pairs of phases (humans alone, then with bots); the ratio: the median of R",
    )
    p.add_argument("--bot-workers", default=None, help="BOT_WORKERS for the workers (default: inherited)")
    p.add_argument("--idle-sockets", type=int, default=0, help="idle seated sockets to measure (M)")
    p.add_argument("--idle-seconds", type=float, default=60.0, help="idle window (s)")
    p.add_argument("--idle-settle", type=float, default=10.0, help="wait after the idle sockets opened")
    p.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="each player thinks 0.5–1.5 × this before acting (0: answers at once, a closed loop)",
    )
    p.add_argument(
        "--matrix",
        action="store_true",
        help="run every combination of --stores × --match-counts × --worker-counts (issue 29)",
    )
    p.add_argument("--stores", default="sqlite,pg", help="--matrix: stores (sqlite, pg)")
    p.add_argument("--match-counts", default="50,500", help="--matrix: match counts")
    p.add_argument("--worker-counts", default="1,2", help="--matrix: worker counts (2: with Redis)")
    p.add_argument("--seed", type=int, default=None, help="seed of the players' random choices")
    p.add_argument("--keep", action="store_true", help="keep the work dir (worker logs)")
    p.add_argument("--json", action="store_true", help="last line: one JSON object of the figures")
    args = p.parse_args(argv)
    if args.matches < 1 or args.seconds <= 0 or args.workers < 1 or args.bots < 0 or args.idle_sockets < 0:
        p.error("--matches, --seconds and --workers must be positive; --bots, --idle-sockets not negative")
    if args.bot_rounds < 1:
        p.error("--bot-rounds must be positive")
    if args.redis is None and args.workers > 1:
        args.redis = DEFAULT_REDIS
    for url in filter(None, [args.redis]):
        if not url.startswith(("redis://127.0.0.1", "redis://localhost")):
            p.error("--redis must point at 127.0.0.1")
    return args


IDLE_SLICES = 6
"""Slices of each idle window (``Bench._slices``)."""
IDLE_MOVE_SECONDS = 86_400
"""The move clock of the idle phase's matches (a day: none runs out during the windows)."""


def _has_clock(game: str) -> bool:
    """Whether ``game`` takes a move clock (``Game.clock_mode``; 86,400 s is valid in every mode but none)."""
    from duelclub.games.registry import all_games

    return all_games()[game].clock_mode != "none"


class LoadBench(kit.Club):
    """The running benchmark: the club's matches, and the phases that measure them."""

    def __init__(self, args: argparse.Namespace, cluster: kit.Cluster, members: list[kit.Member]) -> None:
        think = args.think_ms / 1000
        options = {"think": think} if think else {}
        super().__init__(cluster, members, args.game, seed=args.seed, placement=args.placement, **options)
        self.args = args

    async def human_phase(self, label: str, measure_pg: bool, db: kit.BenchDatabase) -> dict[str, Any]:
        """N human matches for ``--seconds``; their figures (see the module docstring)."""
        args, stats = self.args, kit.Stats()
        rss_before = self.cluster.rss_kb()
        opened = await asyncio.gather(*(self.human_match(j, stats) for j in range(args.matches)))
        await asyncio.sleep(1.0)
        sockets = 2 * args.matches
        rss_open = self.cluster.rss_kb()
        if measure_pg:
            await asyncio.sleep(kit.PG_STATS_SETTLE_S)
        xact0 = db.xacts() if measure_pg else None
        cpu0, t0, started0 = self.cluster.cpu_seconds(), time.monotonic(), len(self.match_ids)
        until = t0 + args.seconds
        cpu_end = asyncio.create_task(_at(until, self.cluster.cpu_seconds))
        await asyncio.gather(
            *(
                self.keep_playing(j, first, functools.partial(self.human_match, j, stats), until)
                for j, first in enumerate(opened)
            )
        )
        cpu1 = await cpu_end
        xact1 = None
        if measure_pg:
            await asyncio.sleep(kit.PG_STATS_SETTLE_S)
            xact1 = db.xacts()
        acks = stats.acks
        out: dict[str, Any] = {
            "phase": label,
            "think_ms": args.think_ms,
            "load_avg": kit.load_average(),
            "acked": acks,
            "acked_per_s": round(acks / args.seconds, 1),
            **stats.latency_ms(),
            "cpu_ms_per_action": round(1000 * (cpu1 - cpu0) / acks, 2) if acks else None,
            "cpu_core_pct": round(100 * (cpu1 - cpu0) / args.seconds, 1),
            "pg_xact_per_action": (
                round((xact1 - xact0) / acks, 2) if xact0 is not None and xact1 is not None and acks else None
            ),
            "rss_kb_per_socket": round((rss_open - rss_before) / sockets, 1),
            "errors": dict(stats.errors),
            "socket_closes": stats.closes,
            "matches_started": len(self.match_ids) - started0,
        }
        return out

    async def bot_slot(self, k: int, stats: kit.Stats, until: float) -> None:
        """Keep one hard-bot match of member ``2N + k`` going until ``until`` (the human answers at once)."""
        member, where = self.members[2 * self.args.matches + k], self.worker(k)

        async def start() -> kit.Seated:
            async with self.create_gate:
                match_id = await self.api.bot_match(where.http, member, self.args.game, self.args.bot_level)
            p = self.player(stats, member, match_id, where)
            return [(p, await p.open())]

        await self.keep_playing(-1 - k, None, start, until)

    async def with_bots(self, db: kit.BenchDatabase) -> tuple[dict[str, Any], dict[str, Any]]:
        """The human phase again while ``--bots`` hard-bot matches play: (human figures, bot-match ones)."""
        bot_stats = kit.Stats()
        until = time.monotonic() + self.args.seconds + 600.0  # a bound; cancelled once the humans are done
        bots = [asyncio.create_task(self.bot_slot(k, bot_stats, until)) for k in range(self.args.bots)]
        await asyncio.sleep(3.0)  # the bots are thinking by now
        try:
            humans = await self.human_phase("with bots", False, db)
        finally:
            for task in bots:
                task.cancel()
            await asyncio.gather(*bots, return_exceptions=True)
        return humans, {"acked": bot_stats.acks, **bot_stats.latency_ms(), "errors": dict(bot_stats.errors)}

    async def idle(self) -> dict[str, Any]:
        """``--idle-sockets`` seated sockets on fresh matches, sending nothing: CPU and RSS."""
        m, n = self.args.idle_sockets, self.args.matches
        # A day's clock where the game has one: with the default (Дві вежі: 60 s per move) every idle match
        # timed out a minute after its creation, inside the windows (~2 s of CPU for 500 matches, the
        # clock sweeper's work, not the idle sockets' nor the background passes').
        self.move_seconds = IDLE_MOVE_SECONDS if _has_clock(self.game) else None
        try:
            match_ids = await asyncio.gather(*(self.new_match(j % n) for j in range((m + 1) // 2)))
        finally:
            self.move_seconds = None
        # The creations' aftermath (their presence and bot pokes, the last human phase's ends) dies down
        # first, as it does before the sockets' window.
        await asyncio.sleep(self.args.idle_settle)
        rss_before = self.cluster.rss_kb()
        # The same window without the sockets first: the workers' own background work (clock sweeper,
        # bot job sweep, matchmaker, the notice sweep every minute) is not the sockets' cost.
        baseline = await self._slices()

        async def open_one(i: int) -> ClientConnection:
            slot = (i // 2) % n
            p = self.player(kit.Stats(), self.pair(slot)[i % 2], match_ids[i // 2], self.worker(slot + i % 2))
            async with self.create_gate:
                return await p.open()

        sockets = await asyncio.gather(*(open_one(i) for i in range(m)))
        drains = [asyncio.create_task(_drain(s)) for s in sockets]
        await asyncio.sleep(self.args.idle_settle)  # the connects' presence notices and reads die down
        loaded = await self._slices()
        rss = self.cluster.rss_kb()
        for task in drains:
            task.cancel()
        await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
        return {
            "sockets": m,
            "cpu_core_pct": round(statistics.median(loaded) - statistics.median(baseline), 2),
            "cpu_core_pct_with_background": round(statistics.fmean(loaded), 2),
            "cpu_core_pct_background": round(statistics.fmean(baseline), 2),
            "kb_per_socket": round((rss - rss_before) / m, 1),
        }

    async def _slices(self, count: int = IDLE_SLICES) -> list[float]:
        """The workers' CPU (% of one core) in each of ``count`` equal slices of ``--idle-seconds``.

        The sockets' cost is the difference of the two windows' *median* slices: a periodic background pass
        (the notice sweep runs a minute apart, a burst of seconds) falls into one slice of a window or
        none, and a difference of whole-window means read -3 % for 1,000 sockets when it fell into the
        window without them."""
        span = self.args.idle_seconds / count
        out: list[float] = []
        before = self.cluster.cpu_seconds()
        for _ in range(count):
            await asyncio.sleep(span)
            now = self.cluster.cpu_seconds()
            out.append(100 * (now - before) / span)
            before = now
        return out


async def _at(when: float, read: Callable[[], float]) -> float:
    await asyncio.sleep(max(0.0, when - time.monotonic()))
    return read()


async def _drain(sock: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for _ in sock:
            pass


def _phase_lines(f: dict[str, Any]) -> list[str]:
    return [
        f"[{f['phase']}] load average {f['load_avg']}",
        f"  acknowledged {f['acked']} actions, {f['acked_per_s']}/s;"
        f" latency p50 {f['p50_ms']} ms, p90 {f['p90_ms']} ms, p99 {f['p99_ms']} ms",
        f"  server CPU {f['cpu_ms_per_action']} ms per action ({f['cpu_core_pct']} % of a core);"
        f" PostgreSQL transactions per action {f['pg_xact_per_action']}",
        f"  RSS {f['rss_kb_per_socket']} KB per open socket; errors {f['errors']}; socket closes"
        f" {f['socket_closes']}; matches started meanwhile {f['matches_started']}",
    ]


async def _bot_ratios(bench: LoadBench, db: kit.BenchDatabase, base: dict[str, Any]) -> list[float]:
    """``--bot-rounds`` R pairs of phases: the humans with ``--bots`` bot matches, each against the phase of
    humans alone just before it (``base`` for the first, a fresh one for the others): the R ratios of p50
    latency (with / without). Pairs of neighbouring phases keep the drift of a shared machine out of each
    ratio; the median keeps one noisy phase out of the figure."""
    ratios: list[float] = []
    for r in range(bench.args.bot_rounds):
        if r:
            base = await bench.human_phase("no bots", False, db)
            print("\n".join(_phase_lines(base)), flush=True)
        humans, bots = await bench.with_bots(db)
        print("\n".join(_phase_lines(humans)), flush=True)
        print(f"  {bench.args.bots} {bench.args.bot_level}-bot matches meanwhile: {bots}", flush=True)
        if humans["p50_ms"] and base["p50_ms"]:
            ratios.append(round(humans["p50_ms"] / base["p50_ms"], 2))
    return ratios


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with kit.workdir(args.keep) as wd:
        db = kit.BenchDatabase(wd, pg=args.pg)
        env = {} if args.bot_workers is None else {"BOT_WORKERS": str(args.bot_workers)}
        cluster = kit.Cluster(wd, db.url, count=args.workers, redis_url=args.redis, env=env)
        try:
            await cluster.start()
            members = kit.seed_members(db.url, cluster.secret_key, 2 * args.matches + args.bots)
            bench = LoadBench(args, cluster, members)
            try:
                me = await bench.api.me(cluster.workers[-1].http, members[0])
                assert me["id"] == members[0].id, f"the session cookie was not accepted: {me}"
                print(
                    f"# {args.workers} worker(s) on {'PostgreSQL' if args.pg else 'SQLite'}"
                    f"{', Redis ' + args.redis if args.redis else ''}"
                    f"{', sockets ' + args.placement if args.workers > 1 else ''};"
                    f" {args.matches} {args.game} matches;"
                    f" load average before {kit.load_average()}",
                    flush=True,
                )
                base = await bench.human_phase("no bots", args.pg, db)
                print("\n".join(_phase_lines(base)), flush=True)
                result: dict[str, Any] = {
                    k: base[k]
                    for k in (
                        "acked_per_s",
                        "p50_ms",
                        "p90_ms",
                        "p99_ms",
                        "cpu_ms_per_action",
                        "pg_xact_per_action",
                        "rss_kb_per_socket",
                        "matches_started",
                        "load_avg",
                    )
                }
                result["xact_per_action"] = result["pg_xact_per_action"]  # the issue 29 name
                result["placement"] = args.placement if args.workers > 1 else None
                result["bot_latency_ratio"] = None
                if args.bots:
                    ratios = await _bot_ratios(bench, db, base)
                    result["bot_latency_ratios"] = ratios
                    result["bot_latency_ratio"] = round(statistics.median(ratios), 2) if ratios else None
                    print(f"  human p50 with / without bots: {result['bot_latency_ratio']}", end="")
                    print(f" (median of {ratios})" if len(ratios) > 1 else "", flush=True)
                if args.idle_sockets:
                    idle = await bench.idle()
                    print(
                        f"[idle] {idle['sockets']} sockets: {idle['cpu_core_pct']} % of a core"
                        f" (with the workers' own background work: {idle['cpu_core_pct_with_background']} %;"
                        f" that work alone: {idle['cpu_core_pct_background']} %),"
                        f" {idle['kb_per_socket']} KB each; load average {kit.load_average()}"
                    )
                    result.update(idle_cpu_pct=idle["cpu_core_pct"], idle_kb_per_socket=idle["kb_per_socket"])
                if bench.api.stats.http_5xx:
                    print(f"  HTTP 5xx: {dict(bench.api.stats.http_5xx)}")
                return result
            finally:
                await bench.api.close()
        finally:
            cluster.stop()
            db.drop()


MATRIX_FIELDS = (
    "cpu_ms_per_action",
    "acked_per_s",
    "p50_ms",
    "p99_ms",
    "xact_per_action",
    "idle_kb_per_socket",
    "idle_cpu_pct",
    "load_avg",
)


def matrix(args: argparse.Namespace) -> dict[str, Any]:
    """Every combination of store, match count and worker count, one after the other (each with its own
    workers and database), in one JSON object: ``{"runs": [{store, matches, workers, <MATRIX_FIELDS>}]}``
    plus, per store and match count, ``cpu_ratio_2_to_1`` (CPU per action of 2 workers over 1 worker)."""
    runs = []
    for store in args.stores.split(","):
        for matches in (int(m) for m in args.match_counts.split(",")):
            for workers in (int(w) for w in args.worker_counts.split(",")):
                one = argparse.Namespace(**{**vars(args), "pg": store == "pg", "matches": matches})
                one.workers, one.redis = workers, (args.redis or DEFAULT_REDIS) if workers > 1 else None
                print(f"## {store}, {matches} matches, {workers} worker(s)", flush=True)
                try:
                    found = asyncio.run(run(one))
                except Exception as exc:  # one combination failing does not lose the others
                    found = {"error": repr(exc)[:300]}
                row: dict[str, Any] = {"store": store, "matches": matches, "workers": workers}
                runs.append(row | {k: found.get(k) for k in MATRIX_FIELDS} | _error(found))
    ratios = {}
    singles = {(r["store"], r["matches"]): r.get("cpu_ms_per_action") for r in runs if r["workers"] == 1}
    for row in runs:
        single, cpu = singles.get((row["store"], row["matches"])), row.get("cpu_ms_per_action")
        if row["workers"] == 2 and single and cpu:
            ratios[f"{row['store']}_{row['matches']}"] = round(cpu / single, 2)
    return {"runs": runs, "cpu_ratio_2_to_1": ratios}


def _error(found: dict[str, Any]) -> dict[str, Any]:
    return {"error": found["error"]} if "error" in found else {}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.matrix:
        found = matrix(args)
        for row in found["runs"]:
            print(json.dumps(row))
        print(f"CPU per action, 2 workers / 1 worker: {found['cpu_ratio_2_to_1']}")
        if args.json:
            print(json.dumps(found))
        return 0
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
