"""The bot ladder of one game: a round robin of every level and a random player, one rating per level.

Run: ``.venv/bin/python benchmarks/bot_ladder.py GAME [--matches-per-pair N] [--jobs J] [--json]
[--write] [--adjacent | --pair A B ...] [--fresh]`` — every pair of {random, the game's levels} plays N
matches (default 100): seats alternate every match and the options cycle through the lobby form
(defaults, then each choice of each field: battlefields, decks, expansions, houses), each option set with
both seat assignments. Every bot decides on ``game.determinize(state, seat)``. The results are fitted to
Bradley–Terry ratings on the Elo scale (``duelclub.bots.ladder.fit``, random = 0) and printed with 95 %
confidence intervals, the score of each adjacent pair of levels, and each level's CPU seconds per
decision (mean and max); ``--write`` stores the ratings in ``src/duelclub/bots/ladder.json`` (marked
provisional below 100 matches a pair). Matches run in ``--jobs`` processes.

Levels play by their **work caps** (iterations, samples, rounds: ``timed=False``), not by the wall clock:
where a level's strength is its caps, which fit its think budget on one idle core (the CPU columns show
it), the clock only cuts a search short on an overloaded server, so the ladder is the same on a busy or a
quiet machine, and every match is reproducible from its key. Межа's search levels play so too since issue 27
(before, their clock bound first and their ratings followed the machine's load). ``--timed`` (each level's
own think budget, as in the club; on a quiet machine with ``--jobs`` at most the number of idle cores) is
kept for a check of the club's conditions; timed and untimed results are logged apart.

**The results log.** A round robin costs CPU hours (Межа: ~5), more than one sitting, so every match is
appended as it ends to ``benchmarks/results/ladder/GAME.jsonl`` with each level's *fingerprint* (a hash of
its parameters and its bot code); a run plays only the matches the log lacks for the current
fingerprints, and fits everything the log holds for them. An interrupted run loses at most the matches in
progress; runs on several sittings (or machines) add up. ``--adjacent`` (neighbouring levels only) and
``--pair A B`` (one pair, repeatable) play part of the round robin, into the same log; ``--fresh`` ignores
the log (and writes none). A change that does not change play (code moved, data split out) keeps the log
through ``benchmarks/ladder_carry.py``, which replays a sample of the logged matches and, if every one comes
out the same, logs an alias from each level's old fingerprint to its new one.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib
import itertools
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from bench_stats import wilson
from engine_speed import option_sets

import duelclub.bots.ismcts
import duelclub.bots.levels
import duelclub.bots.paired
from duelclub.bots import ladder
from duelclub.bots.base import Bot
from duelclub.bots.random_bot import RandomBot
from duelclub.games.registry import all_games

ANCHOR = "random"
MAX_STEPS = 20_000
FULL_MATCHES = 100
LOG_DIR = Path(__file__).with_name("results") / "ladder"


@dataclass(frozen=True, slots=True)
class Task:
    game: str
    a: str
    b: str
    index: int
    timed: bool = False


@dataclass(slots=True)
class Outcome:
    a: str
    b: str
    index: int
    score: float  # a's: 1 win, 0.5 draw, 0 loss
    think: dict[str, list[float]] = field(default_factory=dict)  # level → [decisions, CPU s, max CPU s]


def build_bot(game: str, level: str, timed: bool = False) -> Bot:
    """``level``'s bot by its work caps, or also by its clock if ``timed`` (see the module docstring)."""
    if level == ANCHOR:
        return RandomBot(ANCHOR)
    module = importlib.import_module(f"duelclub.bots.{game}")
    bot: Bot = module.build(level, module.LEVEL_PARAMS[level], timed=timed)
    return bot


UNRATED_MODULES = frozenset({"analysis.py", "trials.py"})
"""Files of a game's bot package that no ladder level runs: the post-game analysis's budget and the levels on
trial's parameters (``EXPERIMENTAL_PARAMS``; Межа keeps them in ``bots/mezha/trials.py``)."""


@cache
def fingerprint(game: str, level: str, timed: bool = False) -> str:
    """A hash of ``level``'s parameters, whether it plays by the clock, and the code of its bots (the
    game's bot package, the shared search and level modules): a log entry counts only while both players'
    fingerprints are unchanged. The package's ``analysis.py`` (the post-game analysis's budget, which plays
    no ladder match) and ``trials.py`` (the parameters of levels on trial, which play only
    ``level_duel.py``'s matches) are left out, so that a new trial does not restart the game's ladder."""
    if level == ANCHOR:
        return ANCHOR
    module = importlib.import_module(f"duelclub.bots.{game}")
    h = hashlib.sha256(json.dumps(module.LEVEL_PARAMS[level], sort_keys=True).encode())
    if timed:
        h.update(b"timed")
    for path in bot_sources(module):
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def bot_sources(module: Any) -> list[Path]:
    """The files of a game's bot code: its package (:data:`UNRATED_MODULES` left out), the shared search and
    level modules, and ``bots/paired.py`` when the package imports it (so that the games that do not use it
    keep their fingerprints)."""
    package = Path(module.__file__ or "").parent
    own = sorted(p for p in package.glob("*.py") if p.name not in UNRATED_MODULES)
    shared = [Path(m.__file__ or "") for m in (duelclub.bots.ismcts, duelclub.bots.levels)]
    if any("duelclub.bots.paired" in p.read_text(encoding="utf-8") for p in own):
        shared.append(Path(duelclub.bots.paired.__file__ or ""))
    return own + shared


def play(task: Task) -> Outcome:
    """One match of ``task``: ``a`` sits at seat ``index % 2``; options ``option_sets[index // 2]``."""
    game = all_games()[task.game]
    opts = option_sets(game)
    key = hashlib.sha256(f"ladder/{task.game}/{task.a}/{task.b}/{task.index}".encode()).digest()
    state = game.new_match(key, opts[(task.index // 2) % len(opts)])
    a_seat = task.index % 2
    names = {a_seat: task.a, 1 - a_seat: task.b}
    bots = {seat: build_bot(task.game, name, task.timed) for seat, name in names.items()}
    rngs = {seat: random.Random(key + bytes([seat])) for seat in (0, 1)}
    out = Outcome(task.a, task.b, task.index, 0.5, {task.a: [0, 0.0, 0.0], task.b: [0, 0.0, 0.0]})
    for _ in range(MAX_STEPS):
        result = game.outcome(state)
        if result is not None:
            out.score = 0.5 if result.winner is None else float(result.winner == a_seat)
            return out
        seat = min(game.to_move(state))
        cpu = time.process_time()
        view = game.determinize(state, seat, rngs[seat])
        action = bots[seat].choose(game, view, seat, rngs[seat])
        spent = time.process_time() - cpu
        cell = out.think[names[seat]]
        cell[0], cell[1], cell[2] = cell[0] + 1, cell[1] + spent, max(cell[2], spent)
        game.apply(state, seat, action)
    raise RuntimeError(f"match {task} did not end in {MAX_STEPS} actions")


def pairs_of(
    players: list[str], adjacent: bool = False, only: Sequence[tuple[str, str]] = ()
) -> list[tuple[str, str]]:
    """The pairs to play, each as (weaker, stronger) in ladder order: ``only`` if given, else neighbours
    (``adjacent``) or every pair."""
    order = {p: i for i, p in enumerate(players)}
    if only:
        return [(a, b) if order[a] < order[b] else (b, a) for a, b in only]
    return list(itertools.pairwise(players)) if adjacent else list(itertools.combinations(players, 2))


def tasks(game: str, pairs: list[tuple[str, str]], per_pair: int, timed: bool = False) -> list[Task]:
    """Every pair's matches, interleaved: each pair's first match, then each pair's second, ..."""
    return [Task(game, a, b, i, timed) for i in range(per_pair) for a, b in pairs]


def log_path(game: str) -> Path:
    return LOG_DIR / f"{game}.jsonl"


def read_log(game: str) -> tuple[list[dict[str, Any]], dict[tuple[str, str], str]]:
    """The log's match rows, in the order logged, and its *aliases*: (level, old fingerprint) → the new
    fingerprint that ``benchmarks/ladder_carry.py`` found to play the very same matches (a change of code or
    data that does not change play: its alias rows say which matches it replayed)."""
    path = log_path(game)
    rows: list[dict[str, Any]] = []
    aliases: dict[tuple[str, str], str] = {}
    if not path.exists():
        return rows, aliases
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if "alias" in row:
            aliases[(row["alias"], row["from"])] = row["to"]
        else:
            rows.append(row)
    return rows, aliases


def resolve(aliases: dict[tuple[str, str], str], level: str, fp: str) -> str:
    """``level``'s fingerprint ``fp`` followed through the log's aliases (old → new, as often as chained)."""
    seen = {fp}
    while (level, fp) in aliases:
        fp = aliases[(level, fp)]
        if fp in seen:  # a cycle: a level changed back and forth; its latest name stands
            break
        seen.add(fp)
    return fp


def load_log(game: str, players: list[str], timed: bool = False) -> dict[tuple[str, str, int], Outcome]:
    """The logged matches of ``game`` whose two players have their current fingerprints (directly or by an
    alias, :func:`read_log`)."""
    rows, aliases = read_log(game)
    done: dict[tuple[str, str, int], Outcome] = {}
    for row in rows:
        a, b = row["a"], row["b"]
        if a not in players or b not in players:
            continue
        fps = [resolve(aliases, a, row["fp"][0]), resolve(aliases, b, row["fp"][1])]
        if fps != [fingerprint(game, a, timed), fingerprint(game, b, timed)]:
            continue
        done[(a, b, row["index"])] = Outcome(a, b, row["index"], row["score"], row["think"])
    return done


def append_log(game: str, out: Outcome, timed: bool = False) -> None:
    """Append one finished match to the results log (flushed at once: a kill loses only running matches)."""
    path = log_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    row = {"a": out.a, "b": out.b, "index": out.index, "score": out.score,
           "fp": [fingerprint(game, out.a, timed), fingerprint(game, out.b, timed)],
           "think": {k: [v[0], round(v[1], 4), round(v[2], 4)] for k, v in out.think.items()}}  # fmt: skip
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(row, ensure_ascii=False) + "\n")


def report(game: str, players: list[str], outcomes: list[Outcome]) -> dict[str, Any]:
    """The fitted ladder and the figures around it (what ``--json`` prints)."""
    fitted = ladder.fit([(o.a, o.b, o.score) for o in outcomes], players, ANCHOR)
    per_pair = {pair: 0 for pair in itertools.combinations(players, 2)}
    for o in outcomes:
        per_pair[(o.a, o.b)] = per_pair.get((o.a, o.b), 0) + 1
    levels = {}
    for p in players:
        rating, se = fitted[p]
        cells = [o.think[p] for o in outcomes if p in o.think]
        decisions = sum(c[0] for c in cells)
        levels[p] = {
            "rating": round(rating, 1),
            "low": round(rating - 1.96 * se, 1),
            "high": round(rating + 1.96 * se, 1),
            "decisions": decisions,
            "cpu_mean_s": round(sum(c[1] for c in cells) / max(decisions, 1), 4),
            "cpu_max_s": round(max((c[2] for c in cells), default=0.0), 4),
        }
    adjacent = [head_to_head(outcomes, hi, lo) for lo, hi in itertools.pairwise(players)]
    # the target of issue 17: the top level against today's hard (``strong``), unless that is a neighbour
    top = head_to_head(outcomes, players[-1], "strong") if "strong" in players[:-2] else None
    # today's hard against today's easy (issue 17 quotes their scores): the span the middle level splits
    legacy = head_to_head(outcomes, "strong", "light") if {"strong", "light"} <= set(players) else None
    played = {pair for pair, n in per_pair.items() if n}
    least = min((per_pair[pair] for pair in played), default=0)
    unplayed = len(per_pair) - len(played)
    chain = set(itertools.pairwise(players))
    kind = "all" if not unplayed else "adjacent" if played == chain else f"some ({unplayed} pairs unplayed)"
    return {
        "game": game,
        "matches_per_pair": least,
        "matches": len(outcomes),
        "provisional": least < FULL_MATCHES or unplayed > 0,
        "pairs": kind,
        "updated": dt.date.today().isoformat(),
        "levels": levels,
        "adjacent": adjacent,
        "top_vs_strong": top,
        "strong_vs_light": legacy,
    }


def head_to_head(outcomes: list[Outcome], hi: str, lo: str) -> dict[str, Any]:
    """``hi``'s record against ``lo``: mean score, and win rate of the decided matches with its interval."""
    games = [o for o in outcomes if {o.a, o.b} == {hi, lo}]
    score = sum(o.score if o.a == hi else 1.0 - o.score for o in games)
    decided = [o for o in games if o.score != 0.5]
    wins = sum(1 for o in decided if (o.score == 1.0) == (o.a == hi))
    return {"stronger": hi, "weaker": lo, "matches": len(games),
            "score": round(score / max(len(games), 1), 4),
            "decided": len(decided), "decided_win_rate": round(wins / max(len(decided), 1), 4),
            "wilson95": [round(x, 4) for x in wilson(wins, len(decided))]}  # fmt: skip


def print_table(rep: dict[str, Any]) -> None:
    tag = " (PROVISIONAL)" if rep["provisional"] else ""
    print(
        f"{rep['game']}: {rep['matches']} matches, pairs played: {rep['pairs']}, at least"
        f" {rep['matches_per_pair']} per pair played{tag}"
    )
    print(f"  {'level':<8} {'rating':>7} {'95% CI':>17} {'CPU/decision mean':>18} {'max':>8}")
    for p, r in rep["levels"].items():
        ci = f"[{r['low']:.0f}, {r['high']:.0f}]"
        print(f"  {p:<8} {r['rating']:>7.0f} {ci:>17} {r['cpu_mean_s']:>17.3f}s {r['cpu_max_s']:>7.3f}s")
    rows = [*rep["adjacent"], *(rep[k] for k in ("top_vs_strong", "strong_vs_light") if rep[k])]
    for a in rows:
        if not a["matches"]:
            continue
        lo, hi = a["wilson95"]
        print(
            f"  {a['stronger']:>7} vs {a['weaker']:<7} score {a['score']:.3f}, decided won"
            f" {a['decided_win_rate']:.3f} (95% CI {lo:.3f}–{hi:.3f}),"
            f" {a['decided']} decided of {a['matches']}"
        )


def write(rep: dict[str, Any]) -> None:
    """Store ``rep``'s ratings for its game in ``bots/ladder.json`` (other games kept)."""
    path = ladder.LADDER_PATH
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data.setdefault("scale", "elo")
    data.setdefault("anchor", ANCHOR)
    data["note"] = (
        "written by benchmarks/bot_ladder.py GAME --write from benchmarks/results/ladder/GAME.jsonl;"
        " per game: pairs (all: the round robin; adjacent: neighbouring levels only), matches_per_pair (the"
        " fewest of any pair played), provisional = not all pairs or fewer than 100 matches a pair"
        " (the lobby then shows no ratings). Ratings: Elo scale, random = 0; the lobby shows them on the"
        " club's scale (bots/ladder.py club_rating: medium = 1500)"
    )
    keep = ("provisional", "matches_per_pair", "pairs", "matches", "updated")
    entry = {k: rep[k] for k in keep}
    entry["timed"] = rep.get("timed", False)
    entry["levels"] = {p: {k: r[k] for k in ("rating", "low", "high")} for p, r in rep["levels"].items()}
    data.setdefault("games", {})[rep["game"]] = entry
    data["games"] = dict(sorted(data["games"].items()))
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=sorted(all_games()))
    ap.add_argument("--matches-per-pair", type=int, default=FULL_MATCHES)
    ap.add_argument("--jobs", type=int, default=multiprocessing.cpu_count() or 1)
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--adjacent", action="store_true", help="only neighbouring levels play each other")
    which.add_argument(
        "--pair", nargs=2, action="append", default=[], metavar=("A", "B"), help="play only A vs B"
    )
    ap.add_argument("--fresh", action="store_true", help="ignore the results log and write none")
    ap.add_argument(
        "--timed", action="store_true", help="levels also play by their clock (the club's conditions)"
    )
    ap.add_argument("--json", action="store_true", help="print the report as JSON instead of the table")
    ap.add_argument("--write", action="store_true", help="store the ratings in src/duelclub/bots/ladder.json")
    args = ap.parse_args(argv)
    game = all_games()[args.game]
    players = [ANCHOR, *game.bot_levels]
    for a, b in args.pair:
        if a not in players or b not in players or a == b:
            ap.error(f"--pair {a} {b}: two different players of {players}")
    done = {} if args.fresh else load_log(args.game, players, args.timed)
    pairs = pairs_of(players, args.adjacent, args.pair)
    todo = [t for t in tasks(args.game, pairs, args.matches_per_pair, args.timed)
            if (t.a, t.b, t.index) not in done]  # fmt: skip
    print(f"{args.game}: {len(done)} matches logged, {len(todo)} to play", file=sys.stderr, flush=True)
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for out in pool.imap_unordered(play, todo, chunksize=1):
            done[(out.a, out.b, out.index)] = out
            if not args.fresh:
                append_log(args.game, out, args.timed)
    rep = report(args.game, players, list(done.values()))
    rep["wall_seconds"] = round(time.perf_counter() - start, 1)
    rep["timed"] = args.timed
    if args.json:
        print(json.dumps(rep, ensure_ascii=False, indent=1))
    else:
        print_table(rep)
        print(f"  wall {rep['wall_seconds']} s with {args.jobs} jobs for {len(todo)} new matches")
    if args.write:
        write(rep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
