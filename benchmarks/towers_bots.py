"""Дві вежі bot strength and speed: plays bot pairings and prints a results table.

    .venv/bin/python benchmarks/towers_bots.py [--matches N] [--think S] [--pairs easy-random hard-easy ...]

Each pairing ``A-B`` plays N matches (default 200). Match ``i`` seats bot A in seat ``i % 2``, plays on
battlefield ``(i // 2) % 8`` and with the deck ``normal``/``infinite`` by ``(i // 16) % 2``, so both seats,
all eight battlefields and both deck types are covered equally; who moves first is drawn by each match's own
key (``sha256("towers-bench/A-B/i")``), as in a real match. Matches run in a process pool (one match per
worker at a time), so each decision has one core to itself; think times are wall-clock seconds per ``hard``
decision that had more than one legal action; their CPU seconds (``time.process_time``) are shown too: on a
busy machine the wall clock also counts the time a worker waited for a core, so the load average is printed
with the table.

The win rate is over decided matches (draws left out), with its 95% Wilson interval; ``med s``/``max s``
are wall-clock seconds of the pairing's hard decisions.

Targets (issue): easy beats random in >= 90% of decided matches; hard beats easy in >= 65% of decided
matches; hard thinks <= 1.5 s per decision on one core.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from bench_stats import spread, wilson

from duelclub.bots.registry import make_bot
from duelclub.games.towers import GAME
from duelclub.games.towers.battlefields import BATTLEFIELD_IDS

DECKS = ("normal", "infinite")
TARGETS = {"easy-random": 0.90, "hard-easy": 0.65, "hard-random": 0.90}
MAX_THINK = 1.5
MAX_STEPS = 20_000  # 500 turns (§7.4) of a few actions each


@dataclass(frozen=True, slots=True)
class Task:
    pair: str
    index: int
    think: float | None


@dataclass(slots=True)
class Result:
    pair: str
    score: float  # 1 win, 0.5 draw, 0 loss for the pairing's first bot
    think: list[float] = field(default_factory=list)  # wall-clock seconds per searched decision
    cpu: list[float] = field(default_factory=list)  # CPU seconds of the same decisions


def play_match(task: Task) -> Result:
    """One match of ``task.pair``'s bots; raises RuntimeError if it does not end in MAX_STEPS actions."""
    first, second = task.pair.split("-")
    bots = [
        make_bot("towers", first, think_seconds=task.think),
        make_bot("towers", second, think_seconds=task.think),
    ]
    a_seat = task.index % 2
    field = BATTLEFIELD_IDS[(task.index // 2) % len(BATTLEFIELD_IDS)]
    deck = DECKS[(task.index // 16) % 2]
    key = hashlib.sha256(f"towers-bench/{task.pair}/{task.index}".encode()).digest()
    state = GAME.new_match(key, GAME.parse_options({"battlefield": field, "deck": deck}))
    rngs = [random.Random(key + b"/a"), random.Random(key + b"/b")]
    result = Result(task.pair, 0.0)
    for _ in range(MAX_STEPS):
        outcome = GAME.outcome(state)
        if outcome is not None:
            result.score = 0.5 if outcome.winner is None else float(outcome.winner == a_seat)
            return result
        seat = next(iter(GAME.to_move(state)))
        who = 0 if seat == a_seat else 1
        multiple = len(GAME.legal_actions(state, seat)) > 1
        start, cpu = time.perf_counter(), time.process_time()
        action = bots[who].choose(GAME, state, seat, rngs[who])
        if bots[who].level == "hard" and multiple:
            result.think.append(time.perf_counter() - start)
            result.cpu.append(time.process_time() - cpu)
        GAME.apply(state, seat, action)
    raise RuntimeError(f"match {task} did not end")


def _row(pair: str, results: list[Result]) -> str:
    wins = sum(1 for r in results if r.score == 1.0)
    draws = sum(1 for r in results if r.score == 0.5)
    losses = len(results) - wins - draws
    n = len(results)
    decided = wins + losses
    rate = wins / decided if decided else float("nan")
    low, high = wilson(wins, decided)
    think = [t for r in results for t in r.think]
    median = f"{statistics.median(think):.3f}" if think else "-"
    peak = f"{max(think):.3f}" if think else "-"
    target = TARGETS.get(pair)
    ok = "" if target is None else ("PASS" if rate >= target else "FAIL") + f" (>= {target:.0%})"
    return (
        f"{pair:<12} {n:>5} {wins / n:>6.1%} {draws / n:>6.1%} {losses / n:>6.1%} {decided:>7}"
        f" {rate:>8.1%} [{low:.1%}, {high:.1%}]  {median:>7} {peak:>7}  {ok}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="matches per pairing (default 200)")
    parser.add_argument(
        "--think", type=float, default=None, help="hard's seconds per decision (default: its own)"
    )
    parser.add_argument(
        "--pairs", nargs="+", default=["easy-random", "hard-easy"], help="pairings A-B to play"
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: cores)")
    args = parser.parse_args(argv)
    tasks = [Task(pair, i, args.think) for pair in args.pairs for i in range(args.matches)]
    by_pair: dict[str, list[Result]] = {pair: [] for pair in args.pairs}
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for done, result in enumerate(pool.imap_unordered(play_match, tasks), 1):
            by_pair[result.pair].append(result)
            if done % 20 == 0 or done == len(tasks):
                print(f"  {done}/{len(tasks)} matches, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    think = "default" if args.think is None else f"{args.think} s"
    print(f"Дві вежі bots: {args.matches} matches per pairing, hard think {think}, {args.workers} workers")
    head = f"{'pairing':<12} {'n':>5} {'win':>6} {'draw':>6} {'loss':>6} {'decided':>7}"
    print(f"{head} {'win/dec':>8} {'95% CI':<16}  {'med s':>7} {'max s':>7}")
    for pair in args.pairs:
        print(_row(pair, by_pair[pair]))
    think = sorted(t for rs in by_pair.values() for r in rs for t in r.think)
    cpu = sorted(t for rs in by_pair.values() for r in rs for t in r.cpu)
    if think:
        print(f"hard think per decision, {len(think)} searched decisions:")
        print(spread("wall-clock", think, MAX_THINK))
        print(spread("CPU (one core)", cpu, MAX_THINK))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine load average (1, 5, 15 min) at the end: {load} on {os.cpu_count()} cores")
    print(f"wall time {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
