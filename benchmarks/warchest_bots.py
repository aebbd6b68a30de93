"""Сундук войны bot strength and speed: plays bot pairings and prints a results table.

    .venv/bin/python benchmarks/warchest_bots.py [--matches N] [--think S] [--workers W]
        [--pairs easy-random hard-easy ...]

Each pairing ``A-B`` plays N matches (default 100). Match ``i`` seats bot A in seat ``i % 2``, gives it
Wolf or Raven by ``(i // 2) % 2`` (sides alternated) and cycles the expansions base / +Знать / +Ночь /
both by ``(i // 4) % 4``; the club draft is played by the bots themselves, and every bag draw comes from
the match's own key (``sha256("warchest-bench/A-B/i")``), as in a real match. Matches run in a process
pool (one match per worker at a time, default one worker per core), so each decision has one core
to itself; think times are wall-clock seconds per ``hard`` decision that had more than one legal
action; their CPU seconds are shown too (one core per decision): on a busy machine the wall clock
also counts the time a worker waited for a core, so the load average is printed with the table.

``--fit-draft N`` instead plays N matches of ``easy`` against itself with randomly dealt armies
(``draft="random"``, expansions cycled, keys ``sha256("calib/i")``, bots' rng ``Random(i)``) and prints
the L2-regularised logistic regression of the winner on the two armies: the per-type values of
``DRAFT_LOGIT``, hard's draft table in bots/warchest/heuristics.py (fitted with N = 3000).

Targets (issue): easy beats random in >= 90% of decided matches; hard beats easy in >= 65% of decided
matches; hard thinks <= 2 s per decision on one core.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from bench_stats import spread, wilson

from duelclub.bots.registry import make_bot
from duelclub.games.warchest import GAME

SIDES = ("wolf", "raven")
EXPANSIONS = ("base", "nobility", "nightfall", "both")
TARGETS = {"easy-random": 0.90, "hard-easy": 0.65, "hard-random": 0.90}
MAX_THINK = 2.0
MAX_STEPS = 20_000


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
        make_bot("warchest", first, think_seconds=task.think),
        make_bot("warchest", second, think_seconds=task.think),
    ]
    a_seat = task.index % 2
    a_side = SIDES[(task.index // 2) % 2]
    seat0_side = a_side if a_seat == 0 else SIDES[1 - SIDES.index(a_side)]
    expansions = EXPANSIONS[(task.index // 4) % 4]
    key = hashlib.sha256(f"warchest-bench/{task.pair}/{task.index}".encode()).digest()
    options = {"side": seat0_side, "expansions": expansions, "draft": "club"}
    state = GAME.new_match(key, GAME.parse_options(options))
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


def fit_match(index: int) -> tuple[list[str], list[str], int | None]:
    """One ``easy`` self-play match on a random deal: Wolf's types, Raven's types, the winning side."""
    key = hashlib.sha256(f"calib/{index}".encode()).digest()
    options = {"side": "wolf", "expansions": EXPANSIONS[index % 4], "draft": "random"}
    state = GAME.new_match(key, GAME.parse_options(options))
    armies = [list(state.sides[0].types), list(state.sides[1].types)]
    bot, rng = make_bot("warchest", "easy"), random.Random(index)
    while (outcome := GAME.outcome(state)) is None:
        seat = next(iter(GAME.to_move(state)))
        GAME.apply(state, seat, bot.choose(GAME, state, seat, rng))
    winner = None if outcome.winner is None else state.side_of(outcome.winner)
    return armies[0], armies[1], winner


def fit_draft(matches: int, workers: int, l2: float = 2.0, steps: int = 400) -> dict[str, float]:
    """Per-type weights w of P(Wolf wins) = σ(b + Σ w[Wolf's types] − Σ w[Raven's types]), decided
    matches only, by gradient ascent on the L2-penalised log-likelihood."""
    with multiprocessing.Pool(workers) as pool:
        rows = [r for r in pool.map(fit_match, range(matches)) if r[2] is not None]
    types = sorted({t for wolf, raven, _ in rows for t in wolf + raven})
    w = dict.fromkeys(types, 0.0)
    b = 0.0
    for _ in range(steps):
        grad = dict.fromkeys(types, 0.0)
        grad_b = 0.0
        for wolf, raven, winner in rows:
            z = b + sum(w[t] for t in wolf) - sum(w[t] for t in raven)
            err = (1.0 if winner == 0 else 0.0) - 1.0 / (1.0 + math.exp(-z))
            grad_b += err
            for t in wolf:
                grad[t] += err
            for t in raven:
                grad[t] -= err
        for t in types:
            w[t] += 5.0 * (grad[t] - l2 * w[t]) / len(rows)
        b += 5.0 * grad_b / len(rows)
    return w


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
        f"{pair:<12} {n:>5} {wins / n:>6.1%} {draws / n:>6.1%} {losses / n:>6.1%} {rate:>8.1%} "
        f"[{low:.1%}, {high:.1%}]  {median:>7} {peak:>7}  {ok}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="matches per pairing (default 100)")
    parser.add_argument(
        "--think", type=float, default=None, help="hard's seconds per decision (default: its own)"
    )
    parser.add_argument(
        "--pairs", nargs="+", default=["easy-random", "hard-easy"], help="pairings A-B to play"
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: cores)")
    parser.add_argument(
        "--fit-draft", type=int, default=0, help="fit hard's draft values on N easy self-play matches"
    )
    args = parser.parse_args(argv)
    if args.fit_draft:
        values = fit_draft(args.fit_draft, args.workers)
        for t in sorted(values, key=lambda t: -values[t]):
            print(f"{t:<16} {values[t]:+.2f}")
        return 0
    tasks = [Task(pair, i, args.think) for pair in args.pairs for i in range(args.matches)]
    by_pair: dict[str, list[Result]] = {pair: [] for pair in args.pairs}
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for done, result in enumerate(pool.imap_unordered(play_match, tasks), 1):
            by_pair[result.pair].append(result)
            if done % 20 == 0 or done == len(tasks):
                print(f"  {done}/{len(tasks)} matches, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    budget = "default" if args.think is None else f"{args.think} s"
    print(
        f"Сундук войны bots: {args.matches} matches per pairing, hard think budget {budget}, "
        f"{args.workers} workers"
    )
    head = f"{'pairing':<12} {'n':>5} {'win':>6} {'draw':>6} {'loss':>6} {'decided':>8}"
    print(f"{head} {'95% CI':>16}  {'med s':>7} {'max s':>7}")
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
