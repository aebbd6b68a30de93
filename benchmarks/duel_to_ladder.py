"""Carry the direct matches of two ladder levels (``benchmarks/level_duel.py``'s log) into the ladder's log.

Run: ``.venv/bin/python benchmarks/duel_to_ladder.py GAME NEW [NEW ...]`` — reads
``benchmarks/results/duel/GAME-NEW.jsonl`` and appends to ``benchmarks/results/ladder/GAME.jsonl`` every
match whose two levels are both ladder levels with their current fingerprints, and which the ladder's log
lacks. Such a match *is* the ladder's match: level_duel plays match ``i`` of (OLD, NEW) exactly as
``bot_ladder.py`` plays match ``i`` of the pair (OLD, NEW) — the same key, options, seats, bot rngs and
work caps —, so the ladder's round robin need not play it again.

What differs is the think record: the duel log keeps the CPU seconds of each decision with more than one
legal action, the ladder's ``[decisions, CPU s, max CPU s]`` counts every decision. A carried row counts the
searched decisions only (a forced one costs next to nothing), so its mean CPU per decision is a little
higher than a played row's; the row carries ``"from": "duel"``. The pair must be in ladder order (OLD the
weaker level, as ``level_duel.py NEW OLD`` with NEW above OLD writes it); other rows are skipped.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any

import bot_ladder
import level_duel

from duelclub.games.registry import all_games


def ladder_row(game: str, duel: dict[str, Any]) -> dict[str, Any] | None:
    """The ladder's log row of one duel log row, or None if it is not a ladder match with current
    fingerprints (a level on trial, a changed level, or a pair out of ladder order)."""
    module = importlib.import_module(f"duelclub.bots.{game}")
    players = [bot_ladder.ANCHOR, *all_games()[game].bot_levels]
    old, new = duel["old"], duel["new"]
    if old not in players or new not in players or old == new or players.index(old) > players.index(new):
        return None
    if old != bot_ladder.ANCHOR and old not in module.LEVEL_PARAMS:
        return None
    fp = [bot_ladder.fingerprint(game, old), bot_ladder.fingerprint(game, new)]
    if duel["fp"] != fp:
        return None
    think = {k: [len(v), round(sum(v), 4), round(max(v, default=0.0), 4)] for k, v in duel["think"].items()}
    return {"a": old, "b": new, "index": duel["index"], "score": 1.0 - duel["score"], "fp": fp,
            "think": think, "from": "duel"}  # fmt: skip


def carry(game: str, news: list[str]) -> int:
    """Append the missing ladder matches of ``news``' duel logs to the ladder's log; how many were added."""
    path = bot_ladder.log_path(game)
    rows, _ = bot_ladder.read_log(game)
    have = {(r["a"], r["b"], r["index"], tuple(r["fp"])) for r in rows}
    added = []
    for new in news:
        source = level_duel.LOG_DIR / f"{game}-{new}.jsonl"
        if not source.exists():
            continue
        for line in source.read_text(encoding="utf-8").splitlines():
            row = ladder_row(game, json.loads(line)) if line.strip() else None
            if row is None:
                continue
            key = (row["a"], row["b"], row["index"], tuple(row["fp"]))
            if key not in have:
                have.add(key)
                added.append(row)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        for row in added:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return len(added)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("game", choices=sorted(all_games()))
    ap.add_argument("new", nargs="+", help="the NEW levels whose duel logs to carry")
    args = ap.parse_args(argv)
    added = carry(args.game, args.new)
    print(f"{args.game}: {added} matches carried into {bot_ladder.log_path(args.game)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
