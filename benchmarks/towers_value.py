"""Train Дві вежі's learned value (bots/towers/value.py) on self-play and rewrite its weights file.

    .venv/bin/pip install -e '.[bench]'      # numpy
    nice -n 19 .venv/bin/python benchmarks/towers_value.py [--matches N] [--workers W] [--seed S] [--out PATH]

Defaults: N = 8000, seed 27, the file ``src/duelclub/bots/towers/value_weights.json``. Rerunning with the same
arguments writes the same file (the matches are keyed, the pool's results are put back in match order, numpy
runs single-threaded and its generator is seeded).

1. N self-play matches: match ``i`` is played by ``easy``'s greedy ranking (``heuristics.greedy_action``)
   for even ``i`` and by the fitted greedy player (``fitted.greedy_action``) for odd ``i``, both seats; each
   action is replaced by a random legal one with probability 0.1 so that positions vary. Battlefield
   ``i % 8``, deck ``normal``/``infinite`` by ``(i // 8) % 2``, match key ``sha256("towers-value/i")``.
2. Every start of a turn (phase ``main``, production done) gives one row: ``value.features`` of the mover
   (both hands as they truly are), labelled 1 if the mover won, 0 if it lost, ½ for a draw.
3. A model is fitted by Adam on the log-loss (inputs standardised, small L2), on the matches ``i % 5 != 4``;
   the rest is held out. ``--hidden 0`` (the default, the written model) is logistic; ``--hidden H`` a network
   of H tanh units. The script prints the training and held-out log-loss of the written model, of a network
   of ``--compare`` units, and of the fitted evaluation's verdict the rollouts used so far (the mover's best
   card, ``fitted.reply_value``, calibrated by one scale and bias). With the defaults (715,399 positions,
   572,468 of them for training): logistic 0.5238 / 0.5304, a 32-unit network 0.4833 / 0.5347 (after 30
   epochs 0.4791 / 0.5403: it learns the training matches — the positions of one match share its label, so
   6,400 matches are few for its 1,300 weights), the best card 0.5320 / 0.5348. The logistic model is
   written.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import hashlib
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

import numpy as np

from duelclub.bots.towers import fitted, heuristics, value
from duelclub.games.towers import GAME
from duelclub.games.towers.battlefields import BATTLEFIELD_IDS
from duelclub.games.towers.state import MAIN

DECKS = ("normal", "infinite")
EPSILON = 0.1
OUT = Path(__file__).resolve().parent.parent / "src/duelclub/bots/towers/value_weights.json"
BEST_CARD = value.FEATURE_NAMES.index("fitted logit me best card/10")


def play(i: int) -> tuple[list[list[float]], list[float]]:
    """Match ``i`` of the self-play: (feature rows, labels)."""
    key = hashlib.sha256(f"towers-value/{i}".encode()).digest()
    options = GAME.parse_options({"battlefield": BATTLEFIELD_IDS[i % 8], "deck": DECKS[(i // 8) % 2]})
    state = GAME.new_match(key, options)
    rng = random.Random(key)
    policy = heuristics.greedy_action if i % 2 == 0 else fitted.greedy_action
    rows: list[list[float]] = []
    movers: list[int] = []
    while state.outcome is None:
        seat = state.active
        actions = GAME.legal_actions(state, seat)
        if state.phase == MAIN:
            rows.append(value.features(state, seat))
            movers.append(seat)
        action = rng.choice(actions) if rng.random() < EPSILON else policy(state, seat, actions)
        GAME.apply(state, seat, action)
    winner = state.outcome.winner
    labels = [0.5 if winner is None else float(winner == s) for s in movers]
    return rows, labels


def selfplay(matches: int, workers: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(inputs, labels, held-out mask) of all rows, in match order."""
    start = time.perf_counter()
    xs: list[list[float]] = []
    ys: list[float] = []
    held: list[bool] = []
    with multiprocessing.Pool(workers) as pool:
        for i, (rows, labels) in enumerate(pool.imap(play, range(matches), chunksize=20)):
            xs.extend(rows)
            ys.extend(labels)
            held.extend([i % 5 == 4] * len(rows))
    print(
        f"self-play: {matches} matches, {len(xs)} positions, {time.perf_counter() - start:.0f} s",
        file=sys.stderr,
    )
    return np.array(xs), np.array(ys), np.array(held)


def log_loss(z: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def train(
    x: np.ndarray, y: np.ndarray, hidden: int, seed: int, epochs: int, l2: float = 1e-5
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(W, b, v, c) of ``σ(v · tanh(W x + b) + c)`` on standardised ``x`` (``hidden`` = 0: logistic, W is
    the identity and v the weights). Adam, minibatches of 512, the learning rate halved for the last
    third of the epochs."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    linear = hidden == 0
    w1 = np.eye(d) if linear else rng.normal(0.0, 1.0 / np.sqrt(d), (hidden, d))
    b1 = np.zeros(w1.shape[0])
    v = np.zeros(w1.shape[0]) if linear else rng.normal(0.0, 1.0 / np.sqrt(hidden), hidden)
    c = np.zeros(1)
    params = [v, c] if linear else [w1, b1, v, c]
    m = [np.zeros_like(p) for p in params]
    s = [np.zeros_like(p) for p in params]
    lr, t = 3e-3, 0
    for epoch in range(epochs):
        if epoch == 2 * epochs // 3:
            lr /= 2
        order = rng.permutation(n)
        for k in range(0, n, 512):
            idx = order[k : k + 512]
            xb, yb = x[idx], y[idx]
            h = xb if linear else np.tanh(xb @ w1.T + b1)
            p = 1.0 / (1.0 + np.exp(-(h @ v + c[0])))
            g = (p - yb) / len(idx)
            gv = h.T @ g + l2 * v
            gc = np.array([g.sum()])
            grads = [gv, gc]
            if not linear:
                gh = np.outer(g, v) * (1.0 - h * h)
                grads = [gh.T @ xb + l2 * w1, gh.sum(axis=0), gv, gc]
            t += 1
            for j, g_ in enumerate(grads):
                m[j] = 0.9 * m[j] + 0.1 * g_
                s[j] = 0.999 * s[j] + 0.001 * g_ * g_
                params[j] -= lr * (m[j] / (1 - 0.9**t)) / (np.sqrt(s[j] / (1 - 0.999**t)) + 1e-8)
    return w1, b1, v, float(c[0])


def model_logit(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, v: np.ndarray, c: float) -> np.ndarray:
    """Log-odds of a model of :func:`train` (logistic when ``w1`` is the identity)."""
    if w1.shape[0] == x.shape[1] and np.array_equal(w1, np.eye(x.shape[1])):
        return np.asarray(x @ v + c)
    return np.asarray(np.tanh(x @ w1.T + b1) @ v + c)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=0, help="hidden units; 0 (default): logistic")
    parser.add_argument("--compare", type=int, default=32, help="hidden units of the network only reported")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    x, y, held = selfplay(args.matches, args.workers)
    mean, std = x[~held].mean(axis=0), x[~held].std(axis=0)
    std[std == 0] = 1.0
    xs = (x - mean) / std
    start = time.perf_counter()
    train_x, train_y, held_x, yh = xs[~held], y[~held], xs[held], y[held]
    w1, b1, v, c = train(train_x, train_y, args.hidden, args.seed, args.epochs)
    nw1, nb1, nv, nc = train(train_x, train_y, args.compare, args.seed, args.epochs)
    _, _, cv, cc = train(train_x[:, [BEST_CARD]], train_y, 0, args.seed, args.epochs)
    print(f"training: {time.perf_counter() - start:.0f} s", file=sys.stderr)

    def losses(z_train: np.ndarray, z_held: np.ndarray) -> str:
        return f"{log_loss(z_train, train_y):.4f} / {log_loss(z_held, yh):.4f}"

    print(f"log-loss, training / held out ({int((~held).sum())} / {int(held.sum())} positions):")
    for name, model in ((f"written ({args.hidden} hidden)", (w1, b1, v, c)),
                        (f"network ({args.compare} hidden)", (nw1, nb1, nv, nc))):  # fmt: skip
        print(f"  {name:<22}{losses(model_logit(train_x, *model), model_logit(held_x, *model))}")
    card_train, card_held = train_x[:, [BEST_CARD]] @ cv + cc, held_x[:, [BEST_CARD]] @ cv + cc
    print(f"  {'fitted best card':<22}{losses(card_train, card_held)}")
    if args.hidden == 0:  # logistic: z = c + v·(x − μ)/σ
        w_raw, b_raw = np.zeros((0, len(mean))), np.zeros(0)
        v, c = v / std, c - float((v / std) @ mean)
    else:  # fold the standardisation into the first layer: W (x − μ)/σ + b = (W/σ) x + (b − W μ/σ)
        w_raw = w1 / std
        b_raw = b1 - w_raw @ mean
    doc = {
        "about": "Дві вежі learned value (bots/towers/value.py); written by benchmarks/towers_value.py",
        "args": {"matches": args.matches, "hidden": args.hidden, "epochs": args.epochs, "seed": args.seed},
        "features": list(value.FEATURE_NAMES),
        "W": [[round(float(a), 7) for a in row] for row in w_raw],
        "b": [round(float(a), 7) for a in b_raw],
        "v": [round(float(a), 7) for a in v],
        "c": round(c, 7),
    }
    args.out.write_text(json.dumps(doc, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
