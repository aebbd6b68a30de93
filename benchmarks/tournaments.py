"""Tournament benchmark (issue 26 §Real time and scale): pairing time per round, and a live arena.

Two parts:

- ``pairing`` — the pure pairers of ``play/tournaments/`` on simulated tournaments with seeded random
  results, at 16, 64 and 256 players (``--sizes``). **Swiss**: ``--swiss-runs`` tournaments of
  ``--rounds`` rounds each (at most what the players allow), every ``swiss.pair_round`` call timed (with
  ``rounds=`` as the driver passes it, so the look-ahead runs). **Arena**: the driver's passes as ticks;
  each game lasts 2..20 ticks, so each tick a random subset of players becomes free, and
  ``arena.pair_pool`` is timed on the free players (inputs built as ``progress.next_step`` builds them),
  ``--arena-calls`` calls with at least two free players per size; the whole step (``next_step``: scores,
  ranking and the pairing, what the driver runs per pass) is timed too. Figures: median, p95 and max CPU
  ms (``time.process_time``) per call, and the free players per arena call.
- ``arena`` — a simulated arena of ``--members`` (64) members on PostgreSQL (a fresh database on
  127.0.0.1:5432, dropped afterwards) with one real ``duelclub serve`` worker (benchmarks/loadkit.py, as
  load.py): the members are seeded with sessions, each opens the lobby socket (``/ws/lobby``), the first
  creates an arena of ``--game`` (minutes enough for ``--seconds``), all join, it starts; each member then
  plays every match the lobby socket announces (``{"type": "match"}``) over the match socket with a random
  legal action as soon as it is to move (``--think-ms``: a pause first), and looks at ``GET
  /api/tournaments/{id}`` (``you.match_id``) only when ``--poll-after`` seconds pass with no match. After
  ``--seconds`` it prints acknowledged acts/s, act latency p50/p99 (send → ack), matches finished,
  the pairing delay p50/p99 as a member sees it (the end state of their match → the next match's
  announcement) and as the database has it (the match's ``finished_at`` → the next board's
  ``created_at``), the driver's lag recording a result, server CPU ms per act (/proc of the worker and its
  children), PostgreSQL transactions per act (pg_stat_database, read without a settle: ±1 s of flushing),
  and the checks: a member paired while still in a game, the same opponent twice in a row, announcements
  missed (found by the poll), socket closes, errors, HTTP 5xx and tracebacks in the worker log; and what
  one read of ``GET /api/tournaments/{id}`` costs at the end, with the rate of ``{"type": "tournament"}``
  pushes a lobby socket hears (the tournament page re-reads on each). ``--page-readers K``: the first K
  members also keep the tournament page open — a read on every push, one in flight (pushes meanwhile
  coalesce into one more read) — and the reads' rate and latency are printed (their CPU is in the
  server's, so "per act" is then not comparable).

Both print /proc/loadavg; ``--json`` makes the last line one JSON object of the figures.

Command lines (from the project root, after ``make install-dev``):

    .venv/bin/python benchmarks/tournaments.py pairing                       # 16, 64, 256 players
    .venv/bin/python benchmarks/tournaments.py pairing --sizes 64 --swiss-runs 2 --arena-calls 50
    .venv/bin/python benchmarks/tournaments.py arena --seconds 30            # a quick look
    .venv/bin/python benchmarks/tournaments.py arena --seconds 300 --json    # issue 26: 5 minutes
    .venv/bin/python benchmarks/tournaments.py arena --seconds 60 --page-readers 16  # pages open too
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import loadkit as kit
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.typing import Origin

from duelclub.play.tournaments import arena, progress, swiss
from duelclub.play.tournaments.model import Game, Pairing

RESULTS = (1.0, 1.0, 1.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0)
"""A first seat's score drawn from this: wins and losses alike, a draw one game in nine."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="part", required=True)
    pair = sub.add_parser("pairing", help="pairing CPU time per call on the pure functions")
    pair.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 256])
    pair.add_argument("--rounds", type=int, default=7, help="Swiss rounds (at most what the players allow)")
    pair.add_argument("--swiss-runs", type=int, default=5, help="Swiss tournaments per size")
    pair.add_argument("--arena-calls", type=int, default=200, help="pair_pool calls per size")
    pair.add_argument("--seed", type=int, default=1)
    pair.add_argument("--json", action="store_true", help="last line: one JSON object of the figures")
    live = sub.add_parser("arena", help="a live arena on PostgreSQL")
    live.add_argument("--seconds", type=float, default=300.0)
    live.add_argument("--members", type=int, default=64)
    live.add_argument("--game", default="towers")
    live.add_argument("--think-ms", type=float, default=0.0, help="a pause of 0.5–1.5 × this before acting")
    live.add_argument("--poll-after", type=float, default=15.0, help="seconds without a match before a GET")
    live.add_argument("--seed", type=int, default=1, help="seed of the members' random choices")
    live.add_argument(
        "--page-readers",
        type=int,
        default=0,
        help="members with the tournament page open (re-read on pushes)",
    )
    live.add_argument("--keep", action="store_true", help="keep the work dir (the worker's log)")
    live.add_argument("--json", action="store_true", help="last line: one JSON object of the figures")
    args = p.parse_args(argv)
    if args.part == "pairing" and (min(args.sizes) < 2 or args.rounds < 1 or args.arena_calls < 1):
        p.error("--sizes at least 2, --rounds and --arena-calls positive")
    if args.part == "arena" and (
        args.seconds <= 0 or not 2 <= args.members <= 256 or not 0 <= args.page_readers <= args.members
    ):
        p.error("--seconds positive, --members 2..256, --page-readers 0..--members")
    return args


def spread_ms(seconds: list[float]) -> dict[str, float | None]:
    """Median, p95 (nearest rank) and max of ``seconds``, in ms."""
    ordered = sorted(seconds)
    if not ordered:
        return {"median_ms": None, "p95_ms": None, "max_ms": None}
    p95 = kit.percentile(ordered, 0.95)
    return {
        "median_ms": round(1000 * statistics.median(ordered), 2),
        "p95_ms": round(1000 * (p95 or 0.0), 2),
        "max_ms": round(1000 * ordered[-1], 2),
    }


# -- part 1: the pure pairers --------------------------------------------------------------------------
def swiss_times(size: int, rounds: int, runs: int, rng: random.Random) -> dict[str, Any]:
    """CPU seconds of every ``pair_round`` call of ``runs`` Swiss tournaments of ``size`` players."""
    rounds = min(rounds, swiss.max_rounds(size))
    players = list(range(1, size + 1))
    times: list[float] = []
    for _ in range(runs):
        games: list[Game] = []
        for number in range(1, rounds + 1):
            cpu = time.process_time()
            boards = swiss.pair_round(players, games, rounds=rounds)
            times.append(time.process_time() - cpu)
            for b in boards:
                if b.second is None:
                    games.append(Game.bye(number, b.first))
                else:
                    games.append(Game(number, b.first, b.second, rng.choice(RESULTS)))
    return {"players": size, "rounds": rounds, "calls": len(times), **spread_ms(times)}


@dataclass
class ArenaSim:
    """A simulated arena: ``games`` so far (unfinished ones with ``score`` None), the tick, and when each
    running game (by its index in ``games``) ends."""

    size: int
    rng: random.Random
    games: list[Game] = field(default_factory=list)
    ends: dict[int, int] = field(default_factory=dict)
    tick: int = 0
    pair_steps: int = 0

    def finish_due(self) -> None:
        """End the games due at this tick with a random result."""
        for index, at in list(self.ends.items()):
            if at <= self.tick:
                g = self.games[index]
                self.games[index] = Game(
                    g.round, g.first, g.second, self.rng.choice(RESULTS), False, self.tick
                )
                del self.ends[index]

    def pool_inputs(self) -> tuple[list[int], dict[str, Any]]:
        """The free players and ``pair_pool``'s keyword arguments, as ``progress.next_step`` builds them."""
        players = list(range(1, self.size + 1))
        busy = {p for g in self.games if not g.finished for p in g.players}
        last_end: dict[int, float] = {}
        last_opponent: dict[int, int] = {}
        last_seat: dict[int, int] = {}
        for g in sorted((g for g in self.games if g.finished), key=lambda g: (g.ended_at or 0.0, g.round)):
            for p in g.players:
                last_end[p] = g.ended_at or 0.0
                last_opponent[p] = g.opponent(p) or 0
                last_seat[p] = g.seat(p)
        waiting = sorted((p for p in players if p not in busy), key=lambda p: (last_end.get(p, -1.0), p))
        table = arena.scores(self.games)
        ranking = sorted(players, key=lambda p: (-(table[p].points if p in table else 0), p))
        kwargs = {"ranking": ranking, "last_opponent": last_opponent, "others_busy": bool(busy)}
        return waiting, {**kwargs, "last_seat": last_seat}

    def start(self, boards: list[Pairing]) -> None:
        self.pair_steps += 1
        for b in boards:
            assert b.second is not None, "an arena has no byes"
            self.ends[len(self.games)] = self.tick + self.rng.randint(2, 20)
            self.games.append(Game(self.pair_steps, b.first, b.second))


def arena_times(size: int, calls: int, rng: random.Random) -> dict[str, Any]:
    """CPU seconds of ``calls`` ``pair_pool`` calls (and of the driver's whole step) in a simulated arena."""
    sim = ArenaSim(size, rng)
    pool_times: list[float] = []
    step_times: list[float] = []
    free: list[int] = []
    differ = 0
    while len(pool_times) < calls:
        sim.finish_due()
        waiting, kwargs = sim.pool_inputs()
        if len(waiting) >= 2:
            cpu = time.process_time()
            boards = arena.pair_pool(waiting, **kwargs)
            pool_times.append(time.process_time() - cpu)
            cpu = time.process_time()
            step = progress.next_step(
                "arena", players=list(range(1, size + 1)), games=sim.games, current_round=sim.pair_steps
            )
            step_times.append(time.process_time() - cpu)
            free.append(len(waiting))
            if [(b.first, b.second) for b in step.boards] != [(b.first, b.second) for b in boards]:
                differ += 1  # the benchmark's inputs are not the driver's: its figures would be off
            sim.start(boards)
        sim.tick += 1
    step = spread_ms(step_times)
    return {
        "players": size,
        "calls": len(pool_times),
        **spread_ms(pool_times),
        "step_median_ms": step["median_ms"],
        "step_p95_ms": step["p95_ms"],
        "step_max_ms": step["max_ms"],
        "free_median": statistics.median(free),
        "free_max": max(free),
        "games": len(sim.games),
        "ticks": sim.tick,
        "differs_from_next_step": differ,
    }


def run_pairing(args: argparse.Namespace) -> dict[str, Any]:
    print(f"# pairing, CPU ms per call (time.process_time); load average {kit.load_average()}", flush=True)
    result: dict[str, Any] = {"swiss": {}, "arena": {}}
    for size in args.sizes:
        s = swiss_times(size, args.rounds, args.swiss_runs, random.Random(args.seed * 1000 + size))
        result["swiss"][str(size)] = s
        print(
            f"swiss {size:>4} players: {s['calls']} calls ({args.swiss_runs} × {s['rounds']} rounds);"
            f" median {s['median_ms']} ms, p95 {s['p95_ms']} ms, max {s['max_ms']} ms",
            flush=True,
        )
    for size in args.sizes:
        a = arena_times(size, args.arena_calls, random.Random(args.seed * 1000 + size))
        result["arena"][str(size)] = a
        print(
            f"arena {size:>4} players: {a['calls']} calls (free players median {a['free_median']}, max"
            f" {a['free_max']}; {a['games']} games); pair_pool median {a['median_ms']} ms, p95"
            f" {a['p95_ms']} ms, max {a['max_ms']} ms; the whole step (next_step) median"
            f" {a['step_median_ms']} ms, p95 {a['step_p95_ms']} ms, max {a['step_max_ms']} ms"
            + (
                f"; differs from next_step {a['differs_from_next_step']}×"
                if a["differs_from_next_step"]
                else ""
            ),
            flush=True,
        )
    result["load_avg"] = kit.load_average()
    print(f"# load average after {result['load_avg']}")
    return result


# -- part 2: a live arena ------------------------------------------------------------------------------
class ArenaPlayer(kit.Player):
    """A member's seat in one tournament match; ``ended_seen`` is when its end state arrived."""

    ended_seen: float | None = None

    def _take_state(self, payload: dict[str, Any]) -> None:
        super()._take_state(payload)
        if self.ended and self.ended_seen is None:
            self.ended_seen = time.monotonic()


@dataclass
class Seen:
    """What the members saw: pairing delays (s), matches whose end they saw, and the checks."""

    delays: list[float] = field(default_factory=list)
    ended: set[str] = field(default_factory=set)
    missed: int = 0
    early: int = 0
    lobby_closes: int = 0
    pushes: int = 0
    errors: Counter[str] = field(default_factory=Counter)


@dataclass
class Page:
    """An open tournament page: reading now, and pushed to again meanwhile."""

    busy: bool = False
    dirty: bool = False


class ArenaBench:
    """The running arena: members, their lobby sockets and their matches (see the module docstring)."""

    def __init__(self, args: argparse.Namespace, worker: kit.Worker, members: list[kit.Member]) -> None:
        self.args, self.worker, self.members = args, worker, members
        self.stats, self.seen = kit.Stats(), Seen()
        self.api = kit.Api(self.stats)
        self.rng = random.Random(args.seed)
        self.gate = asyncio.Semaphore(16)
        self.tournament_id = ""
        self.until = math.inf
        # --page-readers: members whose tournament page is open (re-read on each push, one read in flight)
        self.pages = {m.id: Page() for m in members[: args.page_readers]}
        self.page_reads: list[float] = []
        self.page_tasks: set[asyncio.Task[None]] = set()

    def page_push(self, member: kit.Member) -> None:
        """A ``{"type": "tournament"}`` push to an open tournament page: read it again (static/js/
        tournament.js reads on every push; this reader coalesces the pushes that come while it reads)."""
        page = self.pages[member.id]
        if page.busy:
            page.dirty = True
        elif self.tournament_id and time.monotonic() < self.until:
            page.busy = True
            task = asyncio.create_task(self.page_read(member, page))
            self.page_tasks.add(task)
            task.add_done_callback(self.page_tasks.discard)

    async def page_read(self, member: kit.Member, page: Page) -> None:
        try:
            while time.monotonic() < self.until:
                page.dirty = False
                t = time.monotonic()
                path = f"/api/tournaments/{self.tournament_id}"
                with contextlib.suppress(httpx.HTTPError):
                    await self.api.call(self.worker.http, member, "GET", path)
                    self.page_reads.append(time.monotonic() - t)
                if not page.dirty:
                    break
        finally:
            page.busy = False

    async def call(self, member: kit.Member, method: str, path: str, body: Any = None) -> Any:
        async with self.gate:
            if body is None and method == "POST":
                body = {}  # a state-changing call is JSON (web/security.py's CSRF guard)
            r = await self.api.call(self.worker.http, member, method, path, body)
        if r.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    async def lobby(
        self, member: kit.Member, inbox: asyncio.Queue[tuple[str, float]], ready: asyncio.Event
    ) -> None:
        """Keep ``member``'s lobby socket open; each ``{"type": "match"}`` goes to ``inbox`` with its time."""
        headers = {"Cookie": f"{kit.SESSION_COOKIE}={member.cookie}"}
        while True:
            try:
                async with connect(
                    f"{self.worker.ws}/ws/lobby",
                    origin=Origin(self.worker.http),
                    additional_headers=headers,
                    open_timeout=20,
                    ping_interval=None,
                    max_size=2**22,
                ) as sock:
                    async for raw in sock:
                        ready.set()
                        msg = json.loads(raw)
                        if msg.get("type") == "tournament":
                            self.seen.pushes += 1
                            if member.id in self.pages:
                                self.page_push(member)
                        elif msg.get("type") == "match":
                            inbox.put_nowait((str(msg["id"]), time.monotonic()))
            except (ConnectionClosed, InvalidHandshake, InvalidStatus, OSError, TimeoutError):
                pass
            self.seen.lobby_closes += 1
            await asyncio.sleep(0.5)

    async def poll(self, member: kit.Member) -> str | None:
        """``you.match_id`` of ``GET /api/tournaments/{id}`` (None on a failure)."""
        try:
            detail = await self.call(member, "GET", f"/api/tournaments/{self.tournament_id}")
        except (RuntimeError, httpx.HTTPError) as exc:
            self.seen.errors[f"poll:{type(exc).__name__}"] += 1
            return None
        found = detail.get("you", {}).get("match_id")
        return str(found) if found else None

    async def member(self, member: kit.Member, inbox: asyncio.Queue[tuple[str, float]], until: float) -> None:
        """Play every match announced to ``member`` until ``until``."""
        played: set[str] = set()
        last_end: float | None = None
        rng = random.Random(self.rng.random())
        while (left := until - time.monotonic()) > 0:
            try:
                match_id, heard = await asyncio.wait_for(inbox.get(), min(self.args.poll_after, left))
            except TimeoutError:
                if until - time.monotonic() <= 0:
                    return
                found = await self.poll(member)
                if found is None or found in played:
                    continue
                match_id, heard = found, time.monotonic()
                self.seen.missed += 1  # a match the lobby socket did not announce (or not yet)
            if match_id in played:
                continue
            played.add(match_id)
            if last_end is not None:
                self.seen.early += heard < last_end
                self.seen.delays.append(max(0.0, heard - last_end))
            think = self.args.think_ms / 1000
            player = ArenaPlayer(
                self.api,
                self.stats,
                member,
                match_id,
                http=self.worker.http,
                ws=self.worker.ws,
                rng=rng,
                think=think,
            )
            await player.play(until)
            if player.ended_seen is not None:
                last_end = player.ended_seen
                self.seen.ended.add(match_id)
            else:
                last_end = None

    async def setup(self) -> list[asyncio.Queue[tuple[str, float]]]:
        """Lobby sockets open, the arena created and joined by every member; the members' inboxes."""
        inboxes: list[asyncio.Queue[tuple[str, float]]] = [asyncio.Queue() for _ in self.members]
        readies = [asyncio.Event() for _ in self.members]
        self.lobbies = [
            asyncio.create_task(self.lobby(m, q, r))
            for m, q, r in zip(self.members, inboxes, readies, strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 60)
        organiser = self.members[0]
        minutes = max(5, math.ceil(self.args.seconds / 60) + 5)
        body = {
            "game": self.args.game,
            "format": "arena",
            "name": "benchmark arena",
            "minutes": minutes,
            "max_players": len(self.members),
        }
        created = await self.call(organiser, "POST", "/api/tournaments", body)
        self.tournament_id = str(created["id"])
        await asyncio.gather(
            *(self.call(m, "POST", f"/api/tournaments/{self.tournament_id}/join") for m in self.members)
        )
        return inboxes

    async def close(self) -> None:
        tasks = [*getattr(self, "lobbies", []), *self.page_tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.api.close()


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


async def page_cost(bench: ArenaBench, cluster: kit.Cluster, reads: int = 3) -> dict[str, Any]:
    """What one read of ``GET /api/tournaments/{id}`` costs at the end (the tournament page re-reads it on
    every ``{"type": "tournament"}`` push): wall ms (median), server CPU ms (mean) and KB."""
    walls, size = [], 0
    cpu0 = cluster.cpu_seconds()
    for _ in range(reads):
        t = time.monotonic()
        r = await bench.api.call(
            bench.worker.http, bench.members[0], "GET", f"/api/tournaments/{bench.tournament_id}"
        )
        walls.append(time.monotonic() - t)
        size = len(r.content)
    cpu = cluster.cpu_seconds() - cpu0
    return {
        "detail_get_ms": round(1000 * statistics.median(walls), 1),
        "detail_get_cpu_ms": round(1000 * cpu / reads, 1),
        "detail_kb": round(size / 1024, 1),
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
    cpu0, xact0, t0 = cluster.cpu_seconds(), db.xacts(), time.monotonic()
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
    page = await page_cost(bench, cluster)
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
        f" server CPU {f['detail_get_cpu_ms']} ms, {f['detail_kb']} KB",
        *(
            [
                f"  {f['page_readers']} open tournament pages: {f['page_reads_per_s']} reads/s, p50"
                f" {f['page_read_p50_ms']} ms, p99 {f['page_read_p99_ms']} ms"
            ]
            if f["page_readers"]
            else []
        ),
        f"  server CPU {f['cpu_ms_per_act']} ms per act ({f['cpu_core_pct']} % of a core);"
        f" PostgreSQL transactions per act {f['pg_xact_per_act']}; server RSS {f['server_rss_mb']} MB",
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


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    result = run_pairing(args) if args.part == "pairing" else asyncio.run(run_arena(args))
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
