"""Paired trial of a Дві вежі bot candidate against ``strong``, sequentially in one process.

    .venv/bin/python benchmarks/towers_master.py --cand '{"kind": "search", "iterations": 2000}' \\
        [--opp strong] [--matches 40] [--first 0]

``--cand`` is a level's params for ``duelclub.bots.towers.build`` (a level name such as ``master`` takes its
``LEVEL_PARAMS``); both bots play by their work caps (``timed=False``), each on ``game.determinize`` of its
seat (as ``bot_ladder.py`` does). Match ``i`` uses the key ``sha256("master/i")``, the candidate sits at seat
``i % 2`` and the options cycle through the lobby form's option sets (``engine_speed.option_sets``), each with
both seat assignments. One line per match, then the decided win rate with its Wilson 95 % interval and the
candidate's CPU seconds per decision (``time.process_time``; median and max; decisions with one legal
action not counted).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time

from bench_stats import wilson
from engine_speed import option_sets

from duelclub.bots.towers import LEVEL_PARAMS, build
from duelclub.games.towers import GAME


def params_of(spec: str) -> dict[str, object]:
    if spec in LEVEL_PARAMS:
        return dict(LEVEL_PARAMS[spec])
    params: dict[str, object] = json.loads(spec)
    return params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cand", required=True, help="JSON params or a level name")
    parser.add_argument("--opp", default="strong", help="JSON params or a level name (default strong)")
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="index of the first match")
    args = parser.parse_args()
    cand, opp = params_of(args.cand), params_of(args.opp)
    opts = option_sets(GAME)
    wins = losses = draws = 0
    cpu: list[float] = []
    t0 = time.process_time()
    for i in range(args.first, args.first + args.matches):
        key = hashlib.sha256(f"master/{i}".encode()).digest()
        state = GAME.new_match(key, opts[(i // 2) % len(opts)])
        me = i % 2
        bots = {me: build("cand", cand, timed=False), 1 - me: build("opp", opp, timed=False)}
        rngs = {seat: random.Random(key + bytes([seat])) for seat in (0, 1)}
        while (outcome := GAME.outcome(state)) is None:
            seat = min(GAME.to_move(state))
            many = len(GAME.legal_actions(state, seat)) > 1
            t = time.process_time()
            view = GAME.determinize(state, seat, rngs[seat])
            action = bots[seat].choose(GAME, view, seat, rngs[seat])
            if seat == me and many:
                cpu.append(time.process_time() - t)
            GAME.apply(state, seat, action)
        if outcome.winner is None:
            draws += 1
        elif outcome.winner == me:
            wins += 1
        else:
            losses += 1
        n = wins + losses
        print(
            f"match {i}: {'draw' if outcome.winner is None else ('win' if outcome.winner == me else 'loss')}"
            f"  running {wins}/{n} = {100 * wins / max(n, 1):.1f} %  ({time.process_time() - t0:.0f} s CPU;"
            f" cand median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s per decision)",
            flush=True,
        )
    n = wins + losses
    lo, hi = wilson(wins, n)
    cpu.sort()
    print(f"cand {json.dumps(cand)} vs opp {json.dumps(opp)}")
    print(
        f"matches {args.matches} (from {args.first}), decided {n}, draws {draws}: win rate "
        f"{100 * wins / max(n, 1):.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]; CPU per decision median "
        f"{statistics.median(cpu):.3f} s, max {cpu[-1]:.3f} s ({len(cpu)} decisions)",
        file=sys.stdout,
    )


if __name__ == "__main__":
    main()
