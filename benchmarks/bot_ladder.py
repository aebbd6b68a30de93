"""The bot ladder of one game: a round robin of every level and a random player, one rating per level.

Run: ``.venv/bin/python benchmarks/bot_ladder.py GAME [--matches-per-pair N] [--jobs J] [--json]
[--write]`` — every pair of {random, the game's levels} plays N matches (default 100): seats alternate
every match and the options cycle through the lobby form (defaults, then each choice of each field:
battlefields, decks, expansions, houses), each option set with both seat assignments. Every bot decides
on ``game.determinize(state, seat)`` with its level's default think budget, as in the club. The results
are fitted to Bradley–Terry ratings on the Elo scale (``duelclub.bots.ladder.fit``, random = 0) and
printed with 95 % confidence intervals, the score of each adjacent pair of levels, and the per-decision
think time of each level (CPU seconds); ``--adjacent`` plays only neighbouring levels (a chain, for cheap
validation runs); ``--write`` stores the ratings in ``src/duelclub/bots/ladder.json`` (marked
provisional below 100 matches a pair). Matches run in ``--jobs`` processes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import itertools
import json
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from bench_stats import wilson
from engine_speed import option_sets

from duelclub.bots import ladder
from duelclub.bots.registry import make_bot
from duelclub.games.registry import all_games

ANCHOR = "random"
MAX_STEPS = 20_000
FULL_MATCHES = 100


@dataclass(frozen=True, slots=True)
class Task:
    game: str
    a: str
    b: str
    index: int


@dataclass(slots=True)
class Outcome:
    a: str
    b: str
    score: float  # a's: 1 win, 0.5 draw, 0 loss
    think: dict[str, list[float]] = field(default_factory=dict)  # level → CPU seconds per decision


def play(task: Task) -> Outcome:
    """One match of ``task``: ``a`` sits at seat ``index % 2``; options ``option_sets[index // 2]``."""
    game = all_games()[task.game]
    opts = option_sets(game)
    key = hashlib.sha256(f"ladder/{task.game}/{task.a}/{task.b}/{task.index}".encode()).digest()
    state = game.new_match(key, opts[(task.index // 2) % len(opts)])
    a_seat = task.index % 2
    names = {a_seat: task.a, 1 - a_seat: task.b}
    bots = {seat: make_bot(task.game, name) for seat, name in names.items()}
    rngs = {seat: random.Random(key + bytes([seat])) for seat in (0, 1)}
    out = Outcome(task.a, task.b, 0.5, {task.a: [], task.b: []})
    for _ in range(MAX_STEPS):
        result = game.outcome(state)
        if result is not None:
            out.score = 0.5 if result.winner is None else float(result.winner == a_seat)
            return out
        seat = min(game.to_move(state))
        cpu = time.process_time()
        view = game.determinize(state, seat, rngs[seat])
        action = bots[seat].choose(game, view, seat, rngs[seat])
        out.think[names[seat]].append(time.process_time() - cpu)
        game.apply(state, seat, action)
    raise RuntimeError(f"match {task} did not end in {MAX_STEPS} actions")


def tasks(game: str, players: list[str], per_pair: int, adjacent: bool = False) -> list[Task]:
    """Every pair's matches (only neighbours on the ladder if ``adjacent``), interleaved: each pair's first
    match, then each pair's second, ..."""
    pairs = list(itertools.pairwise(players)) if adjacent else list(itertools.combinations(players, 2))
    return [Task(game, a, b, i) for i in range(per_pair) for a, b in pairs]


def report(game: str, players: list[str], outcomes: list[Outcome], per_pair: int) -> dict[str, Any]:
    """The fitted ladder and the figures around it (what ``--json`` prints)."""
    fitted = ladder.fit([(o.a, o.b, o.score) for o in outcomes], players, ANCHOR)
    think: dict[str, list[float]] = {p: [] for p in players}
    for o in outcomes:
        for p, secs in o.think.items():
            think[p].extend(secs)
    levels = {}
    for p in players:
        rating, se = fitted[p]
        secs = sorted(think[p])
        levels[p] = {
            "rating": round(rating, 1),
            "low": round(rating - 1.96 * se, 1),
            "high": round(rating + 1.96 * se, 1),
            "think_median_s": round(secs[len(secs) // 2], 4) if secs else 0.0,
            "think_max_s": round(secs[-1], 4) if secs else 0.0,
        }
    adjacent = []
    for lo, hi in itertools.pairwise(players):
        games = [o for o in outcomes if {o.a, o.b} == {lo, hi}]
        score = sum(o.score if o.a == hi else 1.0 - o.score for o in games)
        decided = [o for o in games if o.score != 0.5]
        wins = sum(1 for o in decided if (o.score == 1.0) == (o.a == hi))
        adjacent.append(
            {"stronger": hi, "weaker": lo, "matches": len(games), "score": score / max(len(games), 1),
             "decided_win_rate": wins / max(len(decided), 1), "wilson95": list(wilson(wins, len(decided)))}
        )  # fmt: skip
    return {
        "game": game,
        "matches_per_pair": per_pair,
        "matches": len(outcomes),
        "provisional": per_pair < FULL_MATCHES,
        "updated": dt.date.today().isoformat(),
        "levels": levels,
        "adjacent": adjacent,
    }


def print_table(rep: dict[str, Any]) -> None:
    tag = " (PROVISIONAL)" if rep["provisional"] else ""
    print(f"{rep['game']}: {rep['matches']} matches, {rep['matches_per_pair']} per pair{tag}")
    print(f"  {'level':<8} {'rating':>7} {'95% CI':>17} {'think med':>10} {'think max':>10}")
    for p, r in rep["levels"].items():
        ci = f"[{r['low']:.0f}, {r['high']:.0f}]"
        print(f"  {p:<8} {r['rating']:>7.0f} {ci:>17} {r['think_median_s']:>9.3f}s {r['think_max_s']:>9.3f}s")
    for a in rep["adjacent"]:
        lo, hi = a["wilson95"]
        print(
            f"  {a['stronger']:>7} vs {a['weaker']:<7} score {a['score']:.3f}, decided won"
            f" {a['decided_win_rate']:.3f} (95% CI {lo:.3f}–{hi:.3f}) of {a['matches']}"
        )


def write(rep: dict[str, Any]) -> None:
    """Store ``rep``'s ratings for its game in ``bots/ladder.json`` (other games kept)."""
    path = ladder.LADDER_PATH
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data.setdefault("scale", "elo")
    data.setdefault("anchor", ANCHOR)
    data["note"] = (
        "written by benchmarks/bot_ladder.py GAME --write; per game: matches_per_pair, pairs"
        " (all: round robin, adjacent: neighbouring levels only), provisional = fewer than 100 matches"
        " a pair (the lobby then shows no ratings)"
    )
    keep = ("provisional", "matches_per_pair", "pairs", "matches", "updated")
    entry = {k: rep[k] for k in keep}
    entry["levels"] = {p: {k: r[k] for k in ("rating", "low", "high")} for p, r in rep["levels"].items()}
    data.setdefault("games", {})[rep["game"]] = entry
    data["games"] = dict(sorted(data["games"].items()))
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=sorted(all_games()))
    ap.add_argument("--matches-per-pair", type=int, default=FULL_MATCHES)
    ap.add_argument("--jobs", type=int, default=multiprocessing.cpu_count() or 1)
    ap.add_argument(
        "--adjacent",
        action="store_true",
        help="only neighbouring levels play each other (a chain: cheaper, wider intervals)",
    )
    ap.add_argument("--json", action="store_true", help="print the report as JSON instead of the table")
    ap.add_argument("--write", action="store_true", help="store the ratings in src/duelclub/bots/ladder.json")
    args = ap.parse_args(argv)
    game = all_games()[args.game]
    players = [ANCHOR, *game.bot_levels]
    todo = tasks(args.game, players, args.matches_per_pair, args.adjacent)
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        outcomes = pool.map(play, todo, chunksize=1)
    rep = report(args.game, players, outcomes, args.matches_per_pair)
    rep["pairs"] = "adjacent" if args.adjacent else "all"
    rep["wall_seconds"] = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps(rep, ensure_ascii=False, indent=1))
    else:
        print_table(rep)
        print(f"  wall {rep['wall_seconds']} s with {args.jobs} jobs")
    if args.write:
        write(rep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
