"""How good are the post-game analysis' win chances (issue 27 §4)? Brier score and log-loss of the ``before``
win chance of every analysed decision against the match's final result, and CPU per analysed match.

Run: ``nice -n 19 .venv/bin/python benchmarks/analysis_quality.py GAME [GAME ...] [--matches N]
[--levels A B] [--stride K] [--effort E] [--variants V ...] [--json]``

1. **Matches.** ``N`` (default 12) finished matches per game between the levels ``A`` and ``B`` (default
   ``strong`` against ``strong``: players whose policy is none of the analysis' rollout policies, and
   equally strong seats, so the analysis cannot gain by guessing who is the stronger player), played by
   their work caps (``bot_ladder.build_bot(timed=False)``), each bot deciding on ``game.determinize`` of its
   seat. Match ``i`` has key ``sha256("analysis-quality/GAME/i")``, the options ``option_sets[i // 2]``
   (cycled) and ``A`` at seat ``i % 2``: the set is fixed and seeded. Played matches are cached in
   ``benchmarks/results/analysis_quality/GAME.matches.jsonl`` with the levels' ladder fingerprints; a
   cached match counts only while both fingerprints are unchanged.
2. **Analysis.** Every variant (``--variants``; default ``old`` and ``shipped``) analyses every
   ``stride``-th decision of every match (``seq % stride == 1 % stride``; the state before it replayed from
   the log), exactly as ``bots.analysis.analyse`` does (``Analyst.evaluate`` with ``decision_seed``). The
   variants: ``shipped`` the game's ``ANALYSIS`` (``bots/<game>/analysis.py``); ``old`` the analysis before
   issue 27 §4 (the ``light`` level's playouts; Сундук войны's cut at 12 actions on the static evaluation);
   the others are the candidates of :data:`CANDIDATES`.
3. **Figures.** Per variant: Brier = mean (p − y)² and log-loss = −mean(y ln p + (1 − y) ln(1 − p)) (p
   clipped to [0.001, 0.999]) over the analysed decisions, ``y`` the mover's result (1 / ½ / 0), ``p`` its
   ``before``; forced decisions (one legal action) included, as the graph shows them. Standard errors and
   the paired differences against the first variant are clustered by match (the decisions of one match
   share its result). CPU: process seconds of the analysed decisions, scaled to the whole match (× all
   decisions / analysed ones), per match and per 60 actions. The constant ½ scores Brier 0.25 and log-loss
   0.693 on decided matches.

A game takes a few minutes per variant at the defaults (towers and warchest are the dear ones: ``--stride
3``); the machine's /proc/loadavg is printed with the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot_ladder import build_bot, fingerprint
from engine_speed import option_sets

from duelclub.bots.analysis import Analyst, decision_seed
from duelclub.bots.base import AnalysisSettings
from duelclub.bots.registry import analysis_settings
from duelclub.games.registry import all_games

CACHE_DIR = Path(__file__).with_name("results") / "analysis_quality"
MAX_STEPS = 20_000
EPS = 1e-3


def _old_warchest() -> AnalysisSettings:
    from duelclub.bots.warchest.analysis import horizon_value

    return AnalysisSettings(iterations=32, playout_cut=12, cut_value=horizon_value)


OLD: dict[str, Callable[[], AnalysisSettings]] = {
    "artania": lambda: AnalysisSettings(iterations=160),
    "mezha": lambda: AnalysisSettings(iterations=160),
    "towers": lambda: AnalysisSettings(iterations=120),
    "warchest": _old_warchest,
}
"""The analysis settings before issue 27 §4 (rollout None: the ``light`` level)."""


def _candidates() -> dict[str, dict[str, Callable[[], AnalysisSettings]]]:
    from duelclub.bots.artania import analysis as artania
    from duelclub.bots.mezha import analysis as mezha
    from duelclub.bots.towers import analysis as towers
    from duelclub.bots.warchest import analysis as warchest

    return {
        "artania": getattr(artania, "CANDIDATES", {}),
        "mezha": getattr(mezha, "CANDIDATES", {}),
        "towers": getattr(towers, "CANDIDATES", {}),
        "warchest": getattr(warchest, "CANDIDATES", {}),
    }


CANDIDATES = _candidates()
"""Named alternative settings per game (``CANDIDATES`` of ``bots/<game>/analysis.py``, if any)."""


@dataclass(slots=True)
class Match:
    index: int
    key: str
    options: int
    seat_a: int
    log: list[tuple[int, dict[str, Any]]]
    winner: int | None
    fps: list[str]


def match_key(game: str, index: int) -> bytes:
    return hashlib.sha256(f"analysis-quality/{game}/{index}".encode()).digest()


def play_match(game_slug: str, index: int, a: str, b: str) -> Match:
    """Match ``index`` of the set (module docstring), played out."""
    game = all_games()[game_slug]
    opts = option_sets(game)
    key = match_key(game_slug, index)
    opt_index = (index // 2) % len(opts)
    state = game.new_match(key, opts[opt_index])
    seat_a = index % 2
    names = {seat_a: a, 1 - seat_a: b}
    bots = {seat: build_bot(game_slug, name) for seat, name in names.items()}
    rngs = {seat: random.Random(key + bytes([seat])) for seat in (0, 1)}
    log: list[tuple[int, dict[str, Any]]] = []
    for _ in range(MAX_STEPS):
        result = game.outcome(state)
        if result is not None:
            fps = [fingerprint(game_slug, a), fingerprint(game_slug, b)]
            return Match(index, key.hex(), opt_index, seat_a, log, result.winner, fps)
        seat = min(game.to_move(state))
        view = game.determinize(state, seat, rngs[seat])
        action = bots[seat].choose(game, view, seat, rngs[seat])
        log.append((seat, game.action_to_json(action)))
        game.apply(state, seat, action)
    raise RuntimeError(f"match {index} of {game_slug} did not end")


def matches_for(game_slug: str, n: int, a: str, b: str, quiet: bool) -> list[Match]:
    """The first ``n`` matches of the set, from the cache where its fingerprints still hold."""
    path = CACHE_DIR / f"{game_slug}.matches.jsonl"
    fps = [fingerprint(game_slug, a), fingerprint(game_slug, b)]
    cached: dict[int, Match] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            raw = json.loads(line)
            m = Match(**{**raw, "log": [tuple(x) for x in raw["log"]]})
            if m.fps == fps and m.key == match_key(game_slug, m.index).hex():
                cached[m.index] = m
    out = []
    for i in range(n):
        if i not in cached:
            start = time.process_time()
            cached[i] = play_match(game_slug, i, a, b)
            CACHE_DIR.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(_as_json(cached[i])) + "\n")
            if not quiet:
                took = time.process_time() - start
                print(f"  played match {i}: {len(cached[i].log)} actions, {took:.1f} s CPU", file=sys.stderr)
        out.append(cached[i])
    return out


def _as_json(m: Match) -> dict[str, Any]:
    return {
        "index": m.index,
        "key": m.key,
        "options": m.options,
        "seat_a": m.seat_a,
        "log": m.log,
        "winner": m.winner,
        "fps": m.fps,
    }


def settings_of(game_slug: str, variant: str) -> AnalysisSettings:
    if variant == "shipped":
        return analysis_settings(game_slug)
    if variant == "old":
        return OLD[game_slug]()
    return CANDIDATES[game_slug][variant]()


def analyse_set(
    game_slug: str, matches: list[Match], variant: str, stride: int, effort: float
) -> dict[str, Any]:
    """Per-decision ``(match, p, y)`` and per-match CPU of ``variant`` over ``matches``."""
    game = all_games()[game_slug]
    settings = settings_of(game_slug, variant)
    iterations = max(2, round(settings.iterations * effort))
    analyst = Analyst(game, iterations, settings=settings)
    opts = option_sets(game)
    rows: list[tuple[int, float, float]] = []
    cpu_match: list[float] = []
    cpu_60: list[float] = []
    for m in matches:
        state = game.new_match(bytes.fromhex(m.key), opts[m.options])
        spent, analysed = 0.0, 0
        for seq, (seat, raw) in enumerate(m.log, start=1):
            action = game.parse_action(raw)
            if seq % stride == 1 % stride:
                start = time.process_time()
                entry = analyst.evaluate(
                    state, seat, action, decision_seed(f"aq/{game_slug}/{m.index}", seq), seq
                )
                spent += time.process_time() - start
                analysed += 1
                y = 0.5 if m.winner is None else float(m.winner == seat)
                rows.append((m.index, entry.before, y))
            game.apply(state, seat, action)
        whole = spent * len(m.log) / max(analysed, 1)
        cpu_match.append(whole)
        cpu_60.append(whole * 60 / len(m.log))
    return {
        "variant": variant,
        "iterations": iterations,
        "rows": rows,
        "cpu_match": cpu_match,
        "cpu_60": cpu_60,
    }


def brier(p: float, y: float) -> float:
    return (p - y) ** 2


def logloss(p: float, y: float) -> float:
    p = min(max(p, EPS), 1 - EPS)
    return -(y * math.log(p) + (1 - y) * math.log(1 - p))


def clustered(rows: list[tuple[int, float]]) -> tuple[float, float]:
    """(mean, standard error clustered by match) of ``(match, value)`` rows."""
    n = len(rows)
    mean = sum(v for _, v in rows) / n
    sums: dict[int, float] = {}
    for m, v in rows:
        sums[m] = sums.get(m, 0.0) + (v - mean)
    k = len(sums)
    var = sum(s * s for s in sums.values()) / (n * n) * (k / (k - 1) if k > 1 else math.inf)
    return mean, math.sqrt(var)


def figures(result: dict[str, Any], base: dict[str, Any] | None) -> dict[str, Any]:
    rows = result["rows"]
    out: dict[str, Any] = {
        "variant": result["variant"],
        "iterations": result["iterations"],
        "decisions": len(rows),
        "cpu_per_match": statistics.mean(result["cpu_match"]),
        "cpu_per_60_actions": statistics.mean(result["cpu_60"]),
    }
    for name, f in (("brier", brier), ("logloss", logloss)):
        mean, se = clustered([(m, f(p, y)) for m, p, y in rows])
        out[name], out[f"{name}_se"] = mean, se
        if base is not None and base is not result:
            diffs = [
                (m, f(p, y) - f(q, y2)) for (m, p, y), (_, q, y2) in zip(rows, base["rows"], strict=True)
            ]
            d, dse = clustered(diffs)
            out[f"{name}_vs_{base['variant']}"], out[f"{name}_vs_{base['variant']}_se"] = d, dse
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", choices=sorted(OLD))
    ap.add_argument("--matches", type=int, default=12)
    ap.add_argument("--levels", nargs=2, default=["strong", "strong"])
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--effort", type=float, default=1.0)
    ap.add_argument("--variants", nargs="*", default=["old", "shipped"])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    report: dict[str, Any] = {"load_before": Path("/proc/loadavg").read_text().split()[:3], "games": {}}
    for slug in args.games:
        matches = matches_for(slug, args.matches, args.levels[0], args.levels[1], quiet=args.json)
        decided = sum(m.winner is not None for m in matches)
        results = []
        for variant in args.variants:
            start = time.perf_counter()
            results.append(analyse_set(slug, matches, variant, args.stride, args.effort))
            if not args.json:
                print(f"  {slug} {variant}: {time.perf_counter() - start:.0f} s wall", file=sys.stderr)
        figs = [figures(r, results[0]) for r in results] if results else []
        report["games"][slug] = {
            "matches": len(matches),
            "decided": decided,
            "actions": sum(len(m.log) for m in matches),
            "stride": args.stride,
            "effort": args.effort,
            "levels": args.levels,
            "variants": figs,
        }
        if not args.json:
            print(
                f"{slug}: {len(matches)} matches ({decided} decided), {args.levels[0]} v {args.levels[1]},"
                f" every {args.stride} decision(s), effort {args.effort}"
            )
            for f in figs:
                line = (
                    f"  {f['variant']:<14} it {f['iterations']:>4}  n {f['decisions']:>4}"
                    f"  Brier {f['brier']:.4f} ±{f['brier_se']:.4f}"
                    f"  log-loss {f['logloss']:.4f} ±{f['logloss_se']:.4f}"
                    f"  CPU/match {f['cpu_per_match']:.1f} s  /60 actions {f['cpu_per_60_actions']:.1f} s"
                )
                key = f"brier_vs_{figs[0]['variant']}"
                if key in f:
                    line += (
                        f"  ΔBrier {f[key]:+.4f} ±{f[key + '_se']:.4f}"
                        f"  Δlog-loss {f['logloss_vs_' + figs[0]['variant']]:+.4f}"
                        f" ±{f['logloss_vs_' + figs[0]['variant'] + '_se']:.4f}"
                    )
                print(line)
    report["load_after"] = Path("/proc/loadavg").read_text().split()[:3]
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        load = " ".join(report["load_before"]), " ".join(report["load_after"])
        print(f"load average: before {load[0]}, after {load[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
