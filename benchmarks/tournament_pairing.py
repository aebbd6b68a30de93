"""The pairing part of the tournament benchmark (benchmarks/tournaments.py ``pairing``): CPU time per call
of the pure pairers of ``play/tournaments/`` on simulated tournaments (see that file's docstring)."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import loadkit as kit

from duelclub.play.tournaments import arena, progress, swiss
from duelclub.play.tournaments.model import Game, Pairing

RESULTS = (1.0, 1.0, 1.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0)
"""A first seat's score drawn from this: wins and losses alike, a draw one game in nine."""


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
