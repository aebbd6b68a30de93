"""Keep a game's ladder log across a change that does not change play, by replaying a sample of it.

Run: ``.venv/bin/python benchmarks/ladder_carry.py GAME [--check N] [--jobs J]`` — for every level whose
fingerprint (``bot_ladder.fingerprint``: its parameters and its bot code) differs from the one it had in its
latest logged match, replays the ``N`` latest logged matches (default 3) of every pair of levels that the
change would carry, with today's code, and compares each with its log row: the score and every level's number
of decisions. Ladder matches are reproducible from their keys (work caps, no clock: see ``bot_ladder.py``), so
a change that does not change play replays them exactly, and one that does — a parameter, a rollout policy,
an order of iteration — almost never gives the same score *and* the same decision counts in every match.

If every replayed match agrees, one *alias* row per changed level is appended to
``benchmarks/results/ladder/GAME.jsonl``: ``{"alias": LEVEL, "from": OLD, "to": NEW, "checked": [[A, B,
INDEX], ...], "date": ...}``, and ``bot_ladder.py`` counts the old fingerprint's matches as the new one's.
Otherwise nothing is written, the disagreements are printed, and the exit status is 1: the change changed
play, and the levels it touched must play their matches again.

Made for moving a game's level parameters out of its code (``bots/mezha/levels.toml``, issue 27), which
changes every level's fingerprint without changing a single move.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import multiprocessing
import sys
from typing import Any

import bot_ladder

from duelclub.games.registry import all_games


def previous_fingerprints(rows: list[dict[str, Any]], aliases: dict[tuple[str, str], str]) -> dict[str, str]:
    """Each level's fingerprint in its latest logged match (followed through the aliases already logged)."""
    latest: dict[str, str] = {}
    for row in rows:
        for level, fp in zip((row["a"], row["b"]), row["fp"], strict=True):
            latest[level] = bot_ladder.resolve(aliases, level, fp)
    return latest


def sample(
    rows: list[dict[str, Any]],
    aliases: dict[tuple[str, str], str],
    previous: dict[str, str],
    changed: list[str],
    check: int,
) -> list[dict[str, Any]]:
    """The ``check`` latest logged matches of every pair with a ``changed`` level whose two levels both have
    their previous fingerprints: the matches the aliases would carry."""
    per_pair: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        a, b = row["a"], row["b"]
        if a not in changed and b not in changed:
            continue
        fps = [bot_ladder.resolve(aliases, a, row["fp"][0]), bot_ladder.resolve(aliases, b, row["fp"][1])]
        if fps == [previous.get(a), previous.get(b)]:
            per_pair.setdefault((a, b), []).append(row)
    return [row for pair in sorted(per_pair) for row in per_pair[pair][-check:]]


def disagreement(row: dict[str, Any], out: bot_ladder.Outcome) -> str | None:
    """What differs between a log row and its replay (None: the same score and decision counts)."""
    if out.score != row["score"]:
        return f"score {row['score']} logged, {out.score} replayed"
    for level in (row["a"], row["b"]):
        logged, replayed = row["think"][level][0], out.think[level][0]
        if logged != replayed:
            return f"{level} made {logged} decisions logged, {replayed} replayed"
    return None


def carry(game: str, check: int, jobs: int) -> int:
    """Replay and, if all agree, log the aliases (see the module docstring); the exit status."""
    rows, aliases = bot_ladder.read_log(game)
    players = {bot_ladder.ANCHOR, *all_games()[game].bot_levels}
    previous = {k: v for k, v in previous_fingerprints(rows, aliases).items() if k in players}
    current = {level: bot_ladder.fingerprint(game, level) for level in previous}
    changed = sorted(level for level in previous if previous[level] != current[level])
    if not changed:
        print(f"{game}: every level has its logged fingerprint; nothing to carry")
        return 0
    picked = sample(rows, aliases, previous, changed, check)
    tasks = [bot_ladder.Task(game, r["a"], r["b"], r["index"]) for r in picked]
    print(f"{game}: {', '.join(changed)} changed; replaying {len(tasks)} logged matches", file=sys.stderr)
    with multiprocessing.Pool(jobs) as pool:
        outs = pool.map(bot_ladder.play, tasks, chunksize=1)
    wrong = [(r, d) for r, out in zip(picked, outs, strict=True) if (d := disagreement(r, out)) is not None]
    for r, d in wrong:
        print(f"  {r['a']} vs {r['b']} #{r['index']}: {d}")
    if wrong or not picked:
        print(f"{game}: {len(wrong)} of {len(picked)} replays differ; nothing carried")
        return 1
    checked = [[r["a"], r["b"], r["index"]] for r in picked]
    with bot_ladder.log_path(game).open("a", encoding="utf-8") as f:
        for level in changed:
            row = {"alias": level, "from": previous[level], "to": current[level], "checked": checked,
                   "date": dt.date.today().isoformat()}  # fmt: skip
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{game}: all {len(picked)} replays agree; aliases logged for {', '.join(changed)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("game", choices=sorted(all_games()))
    ap.add_argument("--check", type=int, default=3, help="logged matches replayed per pair (default 3)")
    ap.add_argument("--jobs", type=int, default=multiprocessing.cpu_count() or 1)
    args = ap.parse_args(argv)
    return carry(args.game, args.check, args.jobs)


if __name__ == "__main__":
    sys.exit(main())
