"""The Glicko-2 rating system, exactly as Mark Glickman's "Example of the Glicko-2 system" (2013).

Pure functions over small immutable values: no I/O, no clock, no settings. Ratings are on the Glicko scale
(a new player 1500, RD 350); the update converts to the Glicko-2 scale (μ, φ) with the paper's constant
:data:`SCALE` = 173.7178, runs steps 3–8, and converts back. The new volatility is found with the paper's
"Illinois algorithm" (step 5.1–5.5, the 2013 version: ``f(C)·f(B) ≤ 0``) to the tolerance ``epsilon``.

Example — the paper's worked example (a 1500 / RD 200 / σ 0.06 player; τ = 0.5)::

    >>> me = Rating(1500, 200, 0.06)
    >>> new = update(me, [Game(Rating(1400, 30, 0.06), 1), Game(Rating(1550, 100, 0.06), 0),
    ...                   Game(Rating(1700, 300, 0.06), 0)], tau=0.5)
    >>> round(new.rating, 2), round(new.rd, 2), round(new.volatility, 5)
    (1464.06, 151.52, 0.05999)

A rating period with no games only widens the deviation (step 6 alone: φ* = √(φ² + σ²)); :func:`idle`
applies it ``periods`` times at once, which is how the platform lets the deviation grow with time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko ↔ Glicko-2 scale factor (paper, step 2)."""
CENTRE = 1500.0
"""The Glicko rating that is 0 on the Glicko-2 scale."""
EPSILON = 0.000001
"""Convergence tolerance of the volatility iteration (paper, step 5)."""
MAX_ITERATIONS = 100
"""A bound on the Illinois iteration (it converges in well under ten steps for any sane input)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating`` (e.g. 1500), ``rd`` (rating deviation, e.g. 350)
    and ``volatility`` σ (Glicko-2 scale, e.g. 0.06)."""

    rating: float
    rd: float
    volatility: float


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the rating period: the opponent's rating before the period, and the score (1 win,
    0.5 draw, 0 loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    """Step 3: g(φ) = 1 / √(1 + 3φ²/π²)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3: E(μ, μj, φj) = 1 / (1 + exp(−g(φj)(μ − μj)))."""
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0..1), from the Glicko-2 model."""
    return _expected(
        (player.rating - CENTRE) / SCALE, (opponent.rating - CENTRE) / SCALE, opponent.rd / SCALE
    )


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float, epsilon: float) -> float:
    """Step 5: the new volatility σ′ by the Illinois algorithm on f(x)."""
    a = math.log(sigma * sigma)
    phi2, delta2 = phi * phi, delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(MAX_ITERATIONS):
        if abs(big_b - big_a) <= epsilon:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, games: Sequence[Game], *, tau: float = 0.5, epsilon: float = EPSILON) -> Rating:
    """The player's rating after one rating period with ``games`` (paper, steps 2–8).

    ``tau`` (τ) constrains the change in volatility (0.3–1.2 in the paper). With no games only the
    deviation grows (step 6: φ′ = √(φ² + σ²)). Raises ValueError for a non-positive RD or volatility or a
    score outside 0..1. The result does not depend on the order of ``games``."""
    if player.rd <= 0 or player.volatility <= 0:
        raise ValueError("RD and volatility must be positive")
    if not games:
        return idle(player, 1.0)
    mu, phi, sigma = (player.rating - CENTRE) / SCALE, player.rd / SCALE, player.volatility
    inv_v = 0.0
    improvement = 0.0
    # Sorted so that the float sums do not depend on the order the games were given in.
    for game in sorted(games, key=lambda g: (g.opponent.rating, g.opponent.rd, g.score)):
        if not 0.0 <= game.score <= 1.0:
            raise ValueError(f"a score is 0..1, not {game.score}")
        mu_j, phi_j = (game.opponent.rating - CENTRE) / SCALE, game.opponent.rd / SCALE
        g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)  # step 3
        improvement += g * (game.score - e)  # step 4 (without v)
    v = 1.0 / inv_v
    delta = v * improvement
    new_sigma = _new_volatility(sigma, phi, v, delta, tau, epsilon)  # step 5
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(SCALE * new_mu + CENTRE, SCALE * new_phi, new_sigma)  # step 8


def idle(player: Rating, periods: float) -> Rating:
    """The rating after ``periods`` rating periods without games (step 6 repeated): the deviation grows to
    √(RD² + periods·(SCALE·σ)²); rating and volatility stay. ``periods`` may be fractional, never negative."""
    if periods < 0:
        raise ValueError("periods cannot be negative")
    rd = math.sqrt(player.rd * player.rd + periods * (SCALE * player.volatility) ** 2)
    return Rating(player.rating, rd, player.volatility)
