"""Direct matches of one (possibly hidden) bot level against others, with per-decision think times.

Run: ``nice -n 10 .venv/bin/python benchmarks/level_duel.py GAME NEW OLD [OLD ...] [--matches N]
[--jobs J]`` — e.g. ``benchmarks/level_duel.py artania expert master strong --matches 100``. ``NEW`` and every
``OLD`` are keys of ``duelclub.bots.<GAME>.LEVEL_PARAMS`` or of its ``EXPERIMENTAL_PARAMS`` (levels on trial
that the lobby does not offer).
Match ``i`` of a pair is exactly ``benchmarks/bot_ladder.py``'s match ``i`` of (OLD, NEW): the same key
(``ladder/GAME/OLD/NEW/i``), options, seats and bot rngs, levels by their work caps (untimed).

Every match is appended to ``benchmarks/results/duel/GAME-NEW.jsonl`` with both levels' fingerprints (as
``bot_ladder.fingerprint``: parameters and bot code) and the CPU seconds of each decision with more than one
legal action; a run plays only the matches the log lacks for the current fingerprints, so it resumes after a
kill. The report per pair: NEW's score, the
Wilson 95 % interval of its decided win rate, and NEW's CPU per searched decision (median, p90, max).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import bot_ladder
from bench_stats import wilson
from bot_ladder import MAX_STEPS
from engine_speed import option_sets

from duelclub.bots.base import Bot
from duelclub.bots.random_bot import RandomBot
from duelclub.games.registry import all_games

LOG_DIR = Path(__file__).with_name("results") / "duel"


@dataclass(frozen=True, slots=True)
class Task:
    game: str
    old: str
    new: str
    index: int


def params_of(game: str, level: str) -> dict[str, Any]:
    """``level``'s parameters: a ladder level's, else a level on trial's — ``EXPERIMENTAL_PARAMS`` of the
    game's ``bots/<game>/trials.py`` or, where a game keeps them there, of its package (KeyError if none)."""
    module = importlib.import_module(f"duelclub.bots.{game}")
    try:
        trials = importlib.import_module(f"duelclub.bots.{game}.trials").EXPERIMENTAL_PARAMS
    except ModuleNotFoundError:
        trials = getattr(module, "EXPERIMENTAL_PARAMS", {})
    table: dict[str, dict[str, Any]] = {**trials, **module.LEVEL_PARAMS}
    return table[level]


def build(game: str, level: str) -> Bot:
    """``level``'s bot by its work caps (untimed); ``random`` is the ladder's anchor."""
    if level == bot_ladder.ANCHOR:
        return RandomBot(level)
    module = importlib.import_module(f"duelclub.bots.{game}")
    bot: Bot = module.build(level, params_of(game, level), timed=False)
    return bot


@cache
def fingerprint(game: str, level: str) -> str:
    """``bot_ladder.fingerprint`` for a ladder level; for a level on trial the same hash of its parameters
    and the bot code (``bot_ladder.UNRATED_MODULES`` left out as there)."""
    module = importlib.import_module(f"duelclub.bots.{game}")
    if level == bot_ladder.ANCHOR or level in module.LEVEL_PARAMS:
        return bot_ladder.fingerprint(game, level)
    h = hashlib.sha256(json.dumps(params_of(game, level), sort_keys=True).encode())
    for path in bot_ladder.bot_sources(module):
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def play(task: Task) -> dict[str, Any]:
    """Match ``index`` of (old, new) as bot_ladder plays it: old sits at seat ``index % 2``."""
    game = all_games()[task.game]
    opts = option_sets(game)
    key = hashlib.sha256(f"ladder/{task.game}/{task.old}/{task.new}/{task.index}".encode()).digest()
    state = game.new_match(key, opts[(task.index // 2) % len(opts)])
    old_seat = task.index % 2
    names = {old_seat: task.old, 1 - old_seat: task.new}
    bots = {seat: build(task.game, name) for seat, name in names.items()}
    rngs = {seat: random.Random(key + bytes([seat])) for seat in (0, 1)}
    think: dict[str, list[float]] = {task.old: [], task.new: []}
    for _ in range(MAX_STEPS):
        result = game.outcome(state)
        if result is not None:
            score = 0.5 if result.winner is None else float(result.winner != old_seat)
            return {"old": task.old, "new": task.new, "index": task.index, "score": score,
                    "fp": [fingerprint(task.game, task.old), fingerprint(task.game, task.new)],
                    "think": {k: [round(x, 4) for x in v] for k, v in think.items()}}  # fmt: skip
        seat = min(game.to_move(state))
        cpu = time.process_time()
        view = game.determinize(state, seat, rngs[seat])
        legal = game.legal_actions(view, seat)
        action = bots[seat].choose(game, view, seat, rngs[seat])
        if len(legal) > 1:
            think[names[seat]].append(time.process_time() - cpu)
        game.apply(state, seat, action)
    raise RuntimeError(f"match {task} did not end in {MAX_STEPS} actions")


def summary(rows: list[dict[str, Any]], old: str, new: str) -> str:
    games = [r for r in rows if r["old"] == old]
    n = len(games)
    if not n:
        return f"  {new} vs {old}: no matches"
    score = sum(r["score"] for r in games) / n
    decided = [r for r in games if r["score"] != 0.5]
    wins = sum(1 for r in decided if r["score"] == 1.0)
    lo, hi = wilson(wins, len(decided))
    lo_s, hi_s = wilson(round(score * n), n)
    times = sorted(t for r in games for t in r["think"][new])
    med = statistics.median(times) if times else 0.0
    p90 = times[int(0.9 * (len(times) - 1))] if times else 0.0
    old_times = [t for r in games for t in r["think"][old]]
    old_mean = sum(old_times) / max(len(old_times), 1)
    return (
        f"  {new} vs {old}: {n} matches, score {score:.3f} (Wilson 95% of the score {lo_s:.3f}–{hi_s:.3f});"
        f" decided {wins}/{len(decided)} = {wins / max(len(decided), 1):.3f} (Wilson 95% {lo:.3f}–{hi:.3f});"
        f" {new} CPU per searched decision median {med:.3f}s p90 {p90:.3f}s max {max(times, default=0):.3f}s"
        f" over {len(times)}; {old} mean {old_mean:.3f}s"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=sorted(all_games()))
    ap.add_argument("new")
    ap.add_argument("old", nargs="+")
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--report", action="store_true", help="only print the report of the log")
    args = ap.parse_args(argv)
    path = LOG_DIR / f"{args.game}-{args.new}.jsonl"
    rows: list[dict[str, Any]] = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if r["old"] in args.old and r["fp"] == [
                fingerprint(args.game, r["old"]),
                fingerprint(args.game, args.new),
            ]:
                rows.append(r)
    done = {(r["old"], r["index"]) for r in rows}
    todo = [
        Task(args.game, o, args.new, i) for i in range(args.matches) for o in args.old if (o, i) not in done
    ]
    if args.report:
        todo = []
    print(
        f"{args.game} {args.new}: {len(rows)} matches logged, {len(todo)} to play",
        file=sys.stderr,
        flush=True,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    with multiprocessing.Pool(args.jobs) as pool:
        for row in pool.imap_unordered(play, todo, chunksize=1):
            rows.append(row)
            with path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    for old in args.old:
        print(summary(rows, old, args.new))
    return 0


if __name__ == "__main__":
    sys.exit(main())
