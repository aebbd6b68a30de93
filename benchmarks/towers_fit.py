"""Fit Дві вежі's evaluation (bots/towers/fitted.py) on self-play and rewrite its weights file.

    .venv/bin/pip install -e '.[bench]'      # numpy, for the regression
    .venv/bin/python benchmarks/towers_fit.py [--easy N] [--greedy M] [--workers W] [--out PATH]

1. N matches (default 24000) of ``easy`` against itself, each action replaced by a random legal one with
   probability 0.1 so that the positions vary; battlefield ``i % 8``, deck ``normal``/``infinite`` by
   ``(i // 8) % 2``, match key ``sha256("towers-fit/easy/i")``.
2. A first fit on those positions.
3. M matches (default 16000) of the fitted greedy player (``fitted.greedy_action`` with the first fit's
   weights) against itself, the same way (keys ``towers-fit/greedy/i``).
4. The final fit on all positions; the weights go to ``src/duelclub/bots/towers/eval_weights.json``.

A position is recorded when a turn ends and the match goes on: the counters of the player who just moved
(``me``) and of the enemy, labelled 1 if ``me`` won the match, 0 if it lost (draws are left out). The
model per battlefield is ``σ(b + Σ_k w_k (f_k(me, en) − f_k(en, me)))`` (``fitted.FEATURES``), fitted by
Newton's method on the mean log-loss plus ``l2 · |w|²`` on standardised features; 20 % of each field's
matches are held out and the held-out log-loss is printed beside that of ``easy``'s score calibrated by
one scale and bias (``bot.score``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

import numpy as np

from duelclub.bots.towers import fitted
from duelclub.bots.towers.heuristics import EasyBot, score
from duelclub.games.towers import GAME
from duelclub.games.towers.battlefields import BATTLEFIELD_IDS, BATTLEFIELDS

DECKS = ("normal", "infinite")
EPSILON = 0.1
OUT = Path(__file__).resolve().parent.parent / "src/duelclub/bots/towers/eval_weights.json"

Row = tuple[int, int, tuple[int, ...], tuple[int, ...], float]
"""(field, match index, me's counters, enemy's counters, 1.0 if me won else 0.0)."""


def _init(weights: list[list[float]] | None) -> None:
    if weights is not None:
        fitted.WEIGHTS = tuple(tuple(w) for w in weights)


def play(task: tuple[str, int]) -> list[Row]:
    """One self-play match of ``easy`` (stage ``easy``) or the fitted greedy player (``greedy``)."""
    stage, i = task
    field = i % len(BATTLEFIELD_IDS)
    key = hashlib.sha256(f"towers-fit/{stage}/{i}".encode()).digest()
    options = GAME.parse_options({"battlefield": BATTLEFIELD_IDS[field], "deck": DECKS[(i // 8) % 2]})
    state = GAME.new_match(key, options)
    rng = random.Random(key)
    easy = EasyBot()
    seen: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    while state.outcome is None:
        seat = state.active
        actions = GAME.legal_actions(state, seat)
        if rng.random() < EPSILON:
            action = rng.choice(actions)
        elif stage == "easy":
            action = easy.choose(GAME, state, seat, rng)
        else:
            action = fitted.greedy_action(state, seat, actions)
        GAME.apply(state, seat, action)
        if state.outcome is None and state.active != seat:
            seen.append((seat, tuple(state.p[seat]), tuple(state.p[1 - seat])))
    winner = state.outcome.winner
    if winner is None:
        return []
    return [(field, i, me, en, float(winner == s)) for s, me, en in seen]


def selfplay(stage: str, matches: int, workers: int, weights: list[list[float]] | None) -> list[Row]:
    start = time.perf_counter()
    rows: list[Row] = []
    with multiprocessing.Pool(workers, initializer=_init, initargs=(weights,)) as pool:
        for part in pool.imap_unordered(play, [(stage, i) for i in range(matches)], chunksize=20):
            rows.extend(part)
    print(
        f"{stage}: {matches} matches, {len(rows)} positions, {time.perf_counter() - start:.0f} s",
        file=sys.stderr,
    )
    return rows


def _newton(x: np.ndarray, y: np.ndarray, l2: float, steps: int = 30) -> np.ndarray:
    w = np.zeros(x.shape[1])
    reg = l2 * np.eye(x.shape[1])
    reg[-1, -1] = 0.0  # the bias is not shrunk
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) / len(y) + reg @ w
        hess = (x * (p * (1.0 - p))[:, None]).T @ x / len(y) + reg
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return w


def _log_loss(z: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(rows: list[Row], l2: float = 1e-3, report: bool = False) -> list[list[float]]:
    """Per battlefield: the weights of ``fitted.FEATURES`` then the bias (raw feature units)."""
    out: list[list[float]] = []
    for field, bf in enumerate(BATTLEFIELDS):
        mine = [r for r in rows if r[0] == field]
        x = np.array(
            [
                [
                    a - b
                    for a, b in zip(
                        fitted.features(list(me), list(en), field),
                        fitted.features(list(en), list(me), field),
                        strict=True,
                    )
                ]
                + [1.0]
                for _, _, me, en, _ in mine
            ]
        )
        y = np.array([r[4] for r in mine])
        held = np.array([r[1] % 5 == 4 for r in mine])  # every fifth match is held out
        scale = x[~held].std(axis=0)
        scale[scale == 0] = 1.0
        scale[-1] = 1.0
        w = _newton(x[~held] / scale, y[~held], l2) / scale
        if report:
            s = np.array([[score(list(me), list(en), bf) / 40.0, 1.0] for _, _, me, en, _ in mine])
            c = _newton(s[~held], y[~held], 0.0)
            mine_loss, easy_loss = _log_loss(x[held] @ w, y[held]), _log_loss(s[held] @ c, y[held])
            print(
                f"{bf.id:<18} {len(mine):>8} positions  held-out log-loss: fitted {mine_loss:.4f}"
                f"  easy's score {easy_loss:.4f}"
            )
        out.append([float(v) for v in w])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--easy", type=int, default=24000, help="easy self-play matches (default 24000)")
    parser.add_argument("--greedy", type=int, default=16000, help="fitted greedy self-play matches (16000)")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--out", type=Path, default=OUT, help="weights file to write")
    args = parser.parse_args(argv)
    rows = selfplay("easy", args.easy, args.workers, None)
    first = fit(rows)
    if args.greedy:
        rows += selfplay("greedy", args.greedy, args.workers, first)
    weights = fit(rows, report=True)
    doc = {
        "about": "Дві вежі fitted evaluation (bots/towers/fitted.py); written by benchmarks/towers_fit.py",
        "matches": {"easy": args.easy, "greedy": args.greedy},
        "features": [*fitted.FEATURES, "bias"],
        "weights": {bf.id: [round(v, 8) for v in w] for bf, w in zip(BATTLEFIELDS, weights, strict=True)},
    }
    args.out.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
