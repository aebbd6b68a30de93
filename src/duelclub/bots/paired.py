"""Paired rollouts with common random numbers, shared by the ``expert`` levels on trial (issue 27:
``bots/artania/wide.py``, ``bots/towers/wide.py``).

A *round* samples one determinization of what the searching seat cannot see and plays every candidate
action on its own copy of it, then rolls each copy out: the candidates meet the same deal, so the
differences between their values are not drowned by the deal's luck. :func:`paired_rounds` plays rounds
until a round count, a *work cap* (actions played in rollouts: deterministic, so a seeded bot stays
seeded while its CPU time stays bounded) or a wall-clock deadline stops it; :func:`overruling_by` keeps
a base candidate unless another one beats it clearly.

    >>> overruling_by([[0.0, 1.0], [0.0, 1.0], [1.0, 1.0]], 0, 0.02, 1.5)
    1
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from duelclub.bots.base import AnyGame
from duelclub.games.contract import Seat

Rollout = Callable[[AnyGame, Any, Seat], tuple[float, int]]
"""``(game, state after a candidate, seat) -> (seat's value, actions the rollout played)``; mutates the
state it is given (a copy)."""

MIN_CAPPED_ROUNDS = 2
"""Rounds a phase plays before its work cap may stop it (a spread needs two)."""


def paired_rounds(
    game: AnyGame,
    state: Any,
    seat: Seat,
    cands: list[Any],
    rng: random.Random,
    rollout: Rollout,
    *,
    rounds: int,
    max_work: int | None = None,
    deadline: float | None = None,
) -> tuple[list[list[float]], int]:
    """(rows of paired rollout values — one row per determinization, one column per candidate —, the
    actions all the rollouts played). Stops after ``rounds`` rows; sooner once the rollouts have played
    ``max_work`` actions (after :data:`MIN_CAPPED_ROUNDS` rows) or ``deadline`` (``time.perf_counter``)
    has passed (after one row)."""
    rows: list[list[float]] = []
    work = 0
    for _ in range(rounds):
        if deadline is not None and rows and time.perf_counter() >= deadline:
            break
        if max_work is not None and len(rows) >= MIN_CAPPED_ROUNDS and work >= max_work:
            break
        det = game.determinize(state, seat, rng)
        row = []
        for action in cands:
            sim = det.copy()
            game.apply(sim, seat, action)
            value, steps = rollout(game, sim, seat)
            row.append(value)
            work += steps
        rows.append(row)
    return rows, work


def column_means(rows: list[list[float]]) -> list[float]:
    """The mean of every column of ``rows``.

    >>> column_means([[0.0, 1.0], [1.0, 1.0]])
    [0.5, 1.0]
    """
    return [sum(col) / len(rows) for col in zip(*rows, strict=True)]


def overruling_by(rewards: list[list[float]], base: int, margin: float, z: float) -> int:
    """The column of ``rewards`` (rows: determinizations) whose mean paired advantage over column ``base``
    is above ``margin`` and ``z`` standard errors, the largest such; else ``base``.

    >>> overruling_by([[0.0, 1.0], [1.0, 0.0]], 0, 0.02, 1.5)
    0
    """
    n = len(rewards)
    best, best_gain = base, 0.0
    for i in range(len(rewards[0])):
        diffs = [row[i] - row[base] for row in rewards]
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else math.inf
        if mean > margin and mean > z * spread / math.sqrt(n) and mean > best_gain:
            best, best_gain = i, mean
    return best
