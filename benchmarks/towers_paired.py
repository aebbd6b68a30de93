"""Paired trial of two ``hard`` settings for Дві вежі, each against ``easy`` on the same match keys.

    .venv/bin/python benchmarks/towers_paired.py --b '{"overrule_z": 0}' [--a '{}'] [--matches 200]

``--a`` and ``--b`` are JSON objects of :class:`duelclub.bots.towers.LookaheadBot` keyword arguments
(``max_samples``, ``candidates``, ``rollout_turns``, ``overrule_z``, ``own_depth``; ``{}`` is the shipped
``hard``). Both play without a time cap, so a setting's result depends only on the keys, not on the machine.
Match ``i`` uses the key ``sha256("trial/i")`` (never the benchmark's ``towers-bench/…`` keys, so a
setting chosen by trials is judged afresh by ``towers_bots.py``) and the same seat/battlefield/deck schedule
as ``towers_bots.py``. It prints each setting's win rate and the paired difference B − A with its standard
error: most matches end the same for both settings (the deal decides them), so the paired difference is
known far better than the two rates.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import random
import statistics
import time

from duelclub.bots.registry import make_bot
from duelclub.bots.towers import LookaheadBot
from duelclub.games.towers import GAME
from duelclub.games.towers.battlefields import BATTLEFIELD_IDS

DECKS = ("normal", "infinite")


def play(task: tuple[str, int]) -> tuple[float, float]:
    """(score of the hard setting, its CPU seconds) in match ``index``; score 1 win, 0.5 draw, 0 loss."""
    setting, index = task
    hard = LookaheadBot("hard", time_budget=None, **json.loads(setting))
    easy = make_bot("towers", "easy")
    hard_seat = index % 2
    field = BATTLEFIELD_IDS[(index // 2) % len(BATTLEFIELD_IDS)]
    deck = DECKS[(index // 16) % 2]
    key = hashlib.sha256(f"trial/{index}".encode()).digest()
    state = GAME.new_match(key, GAME.parse_options({"battlefield": field, "deck": deck}))
    rngs = [random.Random(key + b"/a"), random.Random(key + b"/b")]
    cpu = 0.0
    while (outcome := GAME.outcome(state)) is None:
        seat = state.active
        if seat == hard_seat:
            t = time.process_time()
            action = hard.choose(GAME, state, seat, rngs[0])
            cpu += time.process_time() - t
        else:
            action = easy.choose(GAME, state, seat, rngs[1])
        GAME.apply(state, seat, action)
    return (0.5 if outcome.winner is None else float(outcome.winner == hard_seat)), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", default="{}", help="JSON LookaheadBot kwargs of setting A (default: shipped)")
    parser.add_argument("--b", required=True, help="JSON LookaheadBot kwargs of setting B")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    settings = [json.dumps(json.loads(args.a)), json.dumps(json.loads(args.b))]
    tasks = [(s, i) for s in settings for i in range(args.matches)]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(play, tasks, chunksize=1)
    a, b = results[: args.matches], results[args.matches :]
    for name, setting, rows in (("A", settings[0], a), ("B", settings[1], b)):
        scores = [s for s, _ in rows]
        decided = [s for s in scores if s != 0.5]
        rate = 100 * sum(decided) / len(decided) if decided else float("nan")
        cpu = sum(c for _, c in rows)
        print(f"{name} {setting}: {rate:.1f} % of {len(decided)} decided vs easy, {cpu:.0f} s CPU in all")
    diffs = [sb - sa for (sa, _), (sb, _) in zip(a, b, strict=True)]
    if len(diffs) > 1:
        mean = statistics.mean(diffs)
        se = statistics.stdev(diffs) / math.sqrt(len(diffs))
        same = sum(d == 0 for d in diffs) / len(diffs)
        alike = f"{100 * same:.0f} % of matches alike"
        print(f"B - A: {100 * mean:+.1f} ± {100 * se:.1f} points of score ({alike})")


if __name__ == "__main__":
    main()
