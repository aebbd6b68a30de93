"""The bot ladder: one rating per bot level, fitted from a round robin, and the level for a member's rating.

The ratings live in ``bots/ladder.json`` (written by ``benchmarks/bot_ladder.py GAME``)::

    {"scale": "elo", "anchor": "random",
     "games": {"mezha": {"provisional": true, "matches_per_pair": 6, "matches": 126, "updated": "2026-12-02",
                         "levels": {"random": {"rating": 0, "low": 0, "high": 0},
                                    "novice": {"rating": 412.0, "low": 250.1, "high": 573.9}, ...}}}}

Ratings are on the Elo scale (400 points per factor 10 of odds; a 100-point gap is a 64 % expected score),
anchored at the uniformly random player = 0; ``low``/``high`` bound the 95 % confidence interval (Fisher
information of the fit). :func:`fit` is the maximum-likelihood Bradley–Terry fit behind them.

**The club's scale.** Members' ratings come from member-vs-member matches only (bot matches are not rated)
and start at 1500, so the two scales meet at one assumption: a new member (1500) plays like the middle
level («Средний»), the level «Подобрать по силе» gives a member without a rating. :func:`club_rating` is a
level's ladder rating shifted by that offset (``1500 − ladder(medium)``; gaps between levels unchanged): it
is what the lobby shows («≈ 1350») and what :func:`level_for_rating` compares a member's rating with.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from duelclub.bots.levels import LEVEL_IDS, canonical, middle_level

LADDER_PATH = Path(__file__).with_name("ladder.json")
"""Where the ladder's ratings are stored, next to the bots."""

ELO = 400.0 / math.log(10.0)
"""Elo points per logit of winning odds."""

PRIOR_SD = 1500.0
"""Standard deviation (Elo) of the weak Gaussian prior on every rating: it keeps a level that won or lost
every match finite; with a hundred matches a pair it moves a rating by a few points at most."""


@cache
def load(path: Path = LADDER_PATH) -> dict[str, Any]:
    """The stored ladder (``{"games": {}}`` if the file is absent). Cached: the file changes with a deploy."""
    if not path.exists():
        return {"games": {}}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def ladder_rating(game: str, level: str, ladder: Mapping[str, Any] | None = None) -> float | None:
    """The stored rating of ``level`` (old ids resolved) in ``game``, or None if the ladder has none."""
    games = (load() if ladder is None else ladder).get("games", {})
    entry = games.get(game, {}).get("levels", {}).get(canonical(level))
    return None if entry is None else float(entry["rating"])


CLUB_START = 1500.0
"""A new member's rating (ratings/rules.py ``RatingRules.start``): the middle level's club-scale rating."""


def club_rating(game: str, level: str, ladder: Mapping[str, Any] | None = None) -> float | None:
    """``level``'s rating on the club's scale (see the module docstring): its ladder rating + 1500 − the
    middle level's; None if the ladder has no rating for ``level`` or for the middle level."""
    own = ladder_rating(game, level, ladder)
    middle = ladder_rating(game, middle_level(), ladder)
    if own is None or middle is None:
        return None
    return own + CLUB_START - middle


def lobby_text(game: str, level: str, ladder: Mapping[str, Any] | None = None) -> str:
    """«≈ 1350»: ``level``'s club-scale rating (:func:`club_rating`) rounded to tens, for the lobby; empty
    when the game's ratings are provisional (fewer than 100 matches a pair: too noisy to show) or absent."""
    entry = (load() if ladder is None else ladder).get("games", {}).get(game, {})
    rating = club_rating(game, level, ladder)
    if rating is None or entry.get("provisional", True):
        return ""
    return f"≈ {round(rating, -1):.0f}"


def level_for_rating(game: str, rating: float | None, ladder: Mapping[str, Any] | None = None) -> str:
    """The lobby level (:data:`~duelclub.bots.levels.LEVEL_IDS`) whose club-scale rating (:func:`club_rating`)
    is closest to a member's ``rating`` for ``game`` (the weaker level on a tie); the middle level when
    ``rating`` is None or the game has no ladder ratings («Подобрать по силе»)."""
    if rating is None:
        return middle_level()
    rated = [
        (r, i, lvl) for i, lvl in enumerate(LEVEL_IDS) if (r := club_rating(game, lvl, ladder)) is not None
    ]
    if not rated:
        return middle_level()
    return min(rated, key=lambda t: (abs(t[0] - rating), t[1]))[2]


Result = tuple[str, str, float]
"""One match: (player a, player b, a's score: 1 win, 0.5 draw, 0 loss)."""


def fit(
    results: Sequence[Result], players: Sequence[str], anchor: str, iterations: int = 50
) -> dict[str, tuple[float, float]]:
    """Maximum-likelihood Bradley–Terry ratings (Elo scale) of ``players`` from ``results``, ``anchor`` fixed
    at 0, a draw counted as half a win; returns player → (rating, standard error). Newton's method on the
    log-likelihood plus the weak prior :data:`PRIOR_SD`; the standard errors come from the inverse of the
    observed Fisher information (the anchor's is 0). Raises ValueError for an unknown player or anchor.

    >>> r = fit([("a", "r", 1.0)] * 64 + [("a", "r", 0.0)] * 36, ["r", "a"], "r")
    >>> round(r["a"][0]), round(r["a"][1])
    (100, 36)
    """
    if anchor not in players:
        raise ValueError(f"anchor {anchor!r} is not a player")
    free = [p for p in players if p != anchor]
    index = {p: i for i, p in enumerate(free)}
    n = len(free)
    games: dict[tuple[str, str], list[float]] = {}  # (a, b) with a < b → [matches, a's score]
    for a, b, score in results:
        if a not in players or b not in players:
            raise ValueError(f"unknown player in {(a, b)}")
        key, s = ((a, b), score) if a < b else ((b, a), 1.0 - score)
        cell = games.setdefault(key, [0.0, 0.0])
        cell[0] += 1
        cell[1] += s
    theta = [0.0] * n
    prior = (PRIOR_SD / ELO) ** -2
    hess: list[list[float]] = []
    for _ in range(iterations):
        grad = [-prior * t for t in theta]
        hess = [[-prior if i == j else 0.0 for j in range(n)] for i in range(n)]
        for (a, b), (m, s) in games.items():
            ia, ib = index.get(a), index.get(b)
            ta = 0.0 if ia is None else theta[ia]
            tb = 0.0 if ib is None else theta[ib]
            p = 1.0 / (1.0 + math.exp(tb - ta))
            g, w = s - m * p, m * p * (1.0 - p)
            if ia is not None:
                grad[ia] += g
                hess[ia][ia] -= w
            if ib is not None:
                grad[ib] -= g
                hess[ib][ib] -= w
            if ia is not None and ib is not None:
                hess[ia][ib] += w
                hess[ib][ia] += w
        step = _solve([[-x for x in row] for row in hess], grad)
        theta = [t + d for t, d in zip(theta, step, strict=True)]
        if max((abs(d) for d in step), default=0.0) < 1e-9:
            break
    cov = _inverse([[-x for x in row] for row in hess])
    out = {anchor: (0.0, 0.0)}
    for name, i in index.items():
        out[name] = (theta[i] * ELO, math.sqrt(max(cov[i][i], 0.0)) * ELO)
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a·x = b (Gaussian elimination with partial pivoting; a is small and positive definite)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0.0:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def _inverse(a: list[list[float]]) -> list[list[float]]:
    n = len(a)
    cols = [_solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]
