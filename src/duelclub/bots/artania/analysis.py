"""Артания и Куявия's post-game analysis (``bots/analysis.py``, issue 17 §4; issue 27 §4): its playouts run
to the end of the match. Not a bot level's code: the ladder's fingerprints (benchmarks/bot_ladder.py) leave
this file out.

Before issue 27 the playouts were the ``light`` level's (the heuristic with 12 % blunders); they now play the
economical policy (``heuristics.economical_move``), the playouts of ``master`` (``bots/artania/wide.py``) and
``strong``, which predict the match results better (:data:`ANALYSIS`; measured by
``benchmarks/analysis_quality.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from duelclub.bots.base import AnalysisSettings, AnyGame
from duelclub.games.contract import Seat


def economical_rollout(game: AnyGame, state: Any, seat: Seat, actions: list[Any], rng: random.Random) -> Any:
    """The economical policy's action for ``seat`` (``heuristics.economical_move``; deterministic)."""
    from duelclub.bots.artania.heuristics import economical_move

    return economical_move(state, seat)


CANDIDATES: dict[str, Callable[[], AnalysisSettings]] = {
    "economical": lambda: AnalysisSettings(iterations=160, rollout=economical_rollout),
    "economical320": lambda: AnalysisSettings(iterations=320, rollout=economical_rollout),
}
"""Settings measured by ``benchmarks/analysis_quality.py``."""

ANALYSIS = AnalysisSettings(iterations=320, rollout=economical_rollout)
"""The economical playouts, 320 iterations a decision at effort 1. ``benchmarks/analysis_quality.py``
(12 ``strong`` v ``strong`` matches, every other decision, 706 decisions; load average 7–9 on 2 cores):
Brier 0.2037 → 0.1691 (paired −0.035 ± 0.011), log-loss 0.717 → 0.628 (−0.088 ± 0.031) against the
``light`` playouts at 160 iterations; ~6.8 s of CPU per 60 actions (before 2.1 s; 160 economical
iterations: 3.6 s, Brier 0.1711)."""
