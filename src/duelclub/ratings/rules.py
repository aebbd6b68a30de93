"""The club's rating rules on top of Glicko-2 (README §Ratings; issue 14 §1): pure, no I/O.

- Every member starts each rated game at :attr:`RatingRules.start` (1500 / RD 350 / σ 0.06).
- Each rated match is its own rating period: both players are rated from the ratings they held when the match
  ended (:func:`rate_pair`), against each other, with τ = :attr:`RatingRules.tau` (0.5).
- Before that, a player's deviation grows with the time since their last rated match: φ² + n·σ² with
  n = days × :attr:`RatingRules.periods_per_day` idle rating periods (Lichess's 0.21436 a day: a typical
  RD of 60 becomes 110 after a year without rated matches). :func:`aged` applies the same growth up to
  "now" for display, so an idle member's rating turns provisional again.
- The deviation is kept within [:attr:`RatingRules.rd_min`, :attr:`RatingRules.rd_max`] = [45, 350].
- A rating whose deviation exceeds :attr:`RatingRules.provisional_rd` (110) is provisional, shown «1500?».
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from duelclub.ratings.glicko2 import Game, Rating, idle, update

SECONDS_PER_DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class RatingRules:
    """The parameters of the club's ratings (the ``RATING_*`` settings)."""

    start: Rating = field(default_factory=lambda: Rating(1500.0, 350.0, 0.06))
    tau: float = 0.5
    rd_min: float = 45.0
    rd_max: float = 350.0
    periods_per_day: float = 0.21436
    """Idle rating periods per day without a rated match (the RD growth with time)."""
    provisional_rd: float = 110.0

    def clamp(self, r: Rating) -> Rating:
        """``r`` with its deviation kept within [rd_min, rd_max]."""
        rd = min(self.rd_max, max(self.rd_min, r.rd))
        return r if rd == r.rd else Rating(r.rating, rd, r.volatility)

    def provisional(self, rd: float) -> bool:
        """Whether a rating with deviation ``rd`` is provisional (shown with «?»)."""
        return rd > self.provisional_rd


def aged(rules: RatingRules, r: Rating, last: datetime | None, now: datetime) -> Rating:
    """``r`` with its deviation grown for the time from ``last`` (its last rated match; None: never) to
    ``now``, within the bounds. Time running backwards counts as none."""
    if last is None:
        return rules.clamp(r)
    days = max(0.0, (now - last).total_seconds() / SECONDS_PER_DAY)
    return rules.clamp(idle(r, days * rules.periods_per_day)) if days > 0 else rules.clamp(r)


@dataclass(frozen=True, slots=True)
class Side:
    """One player of a rated match: the stored rating and when their last rated match ended (None: never)."""

    rating: Rating
    last: datetime | None


def rate_pair(rules: RatingRules, a: Side, b: Side, score_a: float, at: datetime) -> tuple[Rating, Rating]:
    """Both players' new ratings after a match that ended at ``at`` with ``score_a`` for ``a`` (1, 0.5, 0).

    Each player's deviation first grows with their idle time (:func:`aged`); each is then updated against
    the other's aged rating in one Glicko-2 rating period, and the deviation clamped. Symmetric: swapping
    ``a`` and ``b`` (and the score) swaps the answer."""
    pre_a, pre_b = aged(rules, a.rating, a.last, at), aged(rules, b.rating, b.last, at)
    new_a = update(pre_a, [Game(pre_b, score_a)], tau=rules.tau)
    new_b = update(pre_b, [Game(pre_a, 1.0 - score_a)], tau=rules.tau)
    return rules.clamp(new_a), rules.clamp(new_b)
