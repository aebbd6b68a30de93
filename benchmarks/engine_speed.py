"""Engine speed of every game: random-playout actions per second through the public ``Game`` contract.

Run: ``.venv/bin/python benchmarks/engine_speed.py [--seconds S] [--game SLUG ...]`` — for each game of the
registry (or the ones named) prints one line: playouts/s, actions/s, mean actions per playout, and the rate of
``copy`` + ``determinize`` (what one ISMCTS simulation costs before its playout). Each playout starts from a
fresh match with options drawn from the game's lobby form (every choice in turn) and plays uniformly random
legal actions (the lowest seat to move acts) to the end. Rates are per second of CPU time of this process.

``--before DIR`` compares with another checkout (DIR holds its ``src``, e.g. ``git archive main src | tar -x
-C DIR``): for each game both trees are measured in fresh processes, alternately ``--rounds`` times each (so
the machine's load hits both alike), and the best round of each is printed with the ratio after/before.
``--json`` prints the figures as JSON.

``--before DIR --instructions N`` counts instead of timing (for a loaded machine, where CPU seconds drift
by ±20 % between runs): each tree runs a warm-up and then ``N`` seeded random playouts per game under
valgrind's cachegrind, and the instructions per action (the run with the ``N`` playouts minus the run
without them, over the actions played) are compared. The counts repeat to the instruction on any load;
they weigh every instruction alike, so they are a proxy for time, not a replacement. Needs ``valgrind``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from duelclub.games.contract import Game
from duelclub.games.registry import all_games

AnyGame = Game[Any, Any, Any]


def option_sets(game: AnyGame) -> list[Any]:
    """Parsed options: the form's defaults, then each choice of each field once."""
    try:
        from duelclub.words import words_for
    except ImportError:  # a tree from before the words left the games (``--before`` an older checkout)
        form = game.options_form()  # type: ignore[attr-defined]
    else:
        form = words_for(game.slug).options_form()
    defaults = {f["name"]: f["default"] for f in form}
    raw = [defaults] + [{**defaults, f["name"]: c["value"]} for f in form for c in f["choices"]]
    return [game.parse_options(r) for r in raw]


def playout(game: AnyGame, state: Any, rng: random.Random, cap: int = 100_000) -> int:
    """Random legal actions to the end (or ``cap`` actions); returns how many were applied."""
    steps = 0
    to_move, legal, apply, outcome = game.to_move, game.legal_actions, game.apply, game.outcome
    while outcome(state) is None and steps < cap:
        seats = to_move(state)
        if not seats:
            break
        seat = min(seats)
        acts = legal(state, seat)
        apply(state, seat, acts[rng.randrange(len(acts))])
        steps += 1
    return steps


def measure(game: AnyGame, seconds: float) -> dict[str, float]:
    rng = random.Random(2026)
    opts = option_sets(game)
    playouts = actions = 0
    start = time.process_time()
    i = 0
    while (elapsed := time.process_time() - start) < seconds:
        state = game.new_match(rng.randbytes(32), opts[i % len(opts)])
        actions += playout(game, state, rng)
        playouts += 1
        i += 1
    mid = game.new_match(rng.randbytes(32), opts[0])
    for _ in range(10):
        seats = game.to_move(mid)
        if game.outcome(mid) is not None or not seats:
            break
        seat = min(seats)
        game.apply(mid, seat, rng.choice(game.legal_actions(mid, seat)))
    n, t0 = 0, time.process_time()
    while (dt := time.process_time() - t0) < seconds / 4:
        game.determinize(game.copy(mid), 0, rng)
        n += 1
    return {
        "playouts_s": playouts / elapsed,
        "actions_s": actions / elapsed,
        "mean_len": actions / max(playouts, 1),
        "determinize_s": n / dt,
    }


WARMUP_PLAYOUTS = 200


def fixed(game: AnyGame, n: int) -> int:
    """A warm-up of :data:`WARMUP_PLAYOUTS` playouts, then ``n`` seeded ones; the actions of those ``n``."""
    opts = option_sets(game)
    warm = random.Random(7)
    for i in range(WARMUP_PLAYOUTS):
        playout(game, game.new_match(warm.randbytes(32), opts[i % len(opts)]), warm)
    rng = random.Random(2026)
    return sum(playout(game, game.new_match(rng.randbytes(32), opts[i % len(opts)]), rng) for i in range(n))


def _instructions_in(src: Path, slug: str, n: int) -> tuple[int, int]:
    """(instructions executed, actions played) of ``fixed(game, n)`` in a fresh process under cachegrind."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    cmd += [sys.executable, __file__, "--game", slug, "--fixed", str(n)]
    run = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if refs is None:
        raise RuntimeError(f"no instruction count from valgrind: {run.stderr[-500:]}")
    return int(refs.group(1).replace(",", "")), int(run.stdout.strip())


def instructions_per_action(src: Path, slug: str, n: int) -> float:
    """Instructions per random-playout action of ``slug`` in the tree ``src`` (see the module docstring)."""
    base, _ = _instructions_in(src, slug, 0)
    total, actions = _instructions_in(src, slug, n)
    return (total - base) / actions


def _measure_in(src: Path, slug: str, seconds: float) -> dict[str, float]:
    """``measure`` of one game in a fresh process importing duelclub from ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [sys.executable, __file__, "--game", slug, "--seconds", str(seconds), "--json"]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    figures: dict[str, float] = json.loads(out)[slug]
    return figures


def compare(before: Path, slugs: list[str], seconds: float, rounds: int) -> dict[str, dict[str, float]]:
    """Best-of-``rounds`` actions/s of each game in ``before/src`` and in this checkout (alternately)."""
    here = Path(__file__).resolve().parents[1] / "src"
    out = {}
    for slug in slugs:
        old: list[float] = []
        new: list[float] = []
        for _ in range(rounds):
            old.append(_measure_in(before / "src", slug, seconds)["actions_s"])
            new.append(_measure_in(here, slug, seconds)["actions_s"])
        out[slug] = {"before_actions_s": max(old), "after_actions_s": max(new), "ratio": max(new) / max(old)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of playouts per game")
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--before", type=Path, help="another checkout (with src/) to compare against")
    ap.add_argument("--rounds", type=int, default=2, help="alternating rounds per tree with --before")
    ap.add_argument("--instructions", type=int, metavar="N", help="with --before: instructions of N playouts")
    ap.add_argument("--fixed", type=int, help=argparse.SUPPRESS)  # internal: the counted run
    args = ap.parse_args()
    games = all_games()
    slugs = args.game or list(games)
    if args.fixed is not None:
        print(fixed(games[slugs[0]], args.fixed))
        return
    if args.before is not None and args.instructions:
        here = Path(__file__).resolve().parents[1] / "src"
        counts = {}
        for slug in slugs:
            old = instructions_per_action(args.before / "src", slug, args.instructions)
            new = instructions_per_action(here, slug, args.instructions)
            counts[slug] = {"before_instr_per_action": old, "after_instr_per_action": new, "ratio": old / new}
        if args.json:
            print(json.dumps(counts, indent=1))
            return
        print(f"{'game':<10} {'before instr/action':>20} {'after instr/action':>19} {'speed-up':>9}")
        for slug, r in counts.items():
            old, new = r["before_instr_per_action"], r["after_instr_per_action"]
            print(f"{slug:<10} {old:>20,.0f} {new:>19,.0f} {r['ratio']:>8.2f}x")
        return
    if args.before is not None:
        cmp = compare(args.before, slugs, args.seconds, args.rounds)
        if args.json:
            print(json.dumps(cmp, indent=1))
            return
        print(f"{'game':<10} {'before act/s':>13} {'after act/s':>12} {'after/before':>13}")
        for slug, r in cmp.items():
            before, after = r["before_actions_s"], r["after_actions_s"]
            print(f"{slug:<10} {before:>13,.0f} {after:>12,.0f} {r['ratio']:>12.2f}x")
        return
    results = {slug: measure(games[slug], args.seconds) for slug in slugs}
    if args.json:
        print(json.dumps(results, indent=1))
        return
    head = ("game", "playouts/s", "actions/s", "actions/playout", "copy+determinize/s")
    print(f"{head[0]:<10} {head[1]:>11} {head[2]:>11} {head[3]:>16} {head[4]:>19}")
    for slug, r in results.items():
        print(
            f"{slug:<10} {r['playouts_s']:>11,.0f} {r['actions_s']:>11,.0f} {r['mean_len']:>16.1f}"
            f" {r['determinize_s']:>19,.0f}"
        )


if __name__ == "__main__":
    main()
