"""Сундук войны's post-game analysis (``bots/analysis.py``, issue 17 §4; issue 27 §4). Its heuristic playouts
to the end cost ~40 ms each, twenty times the other games', so they stop after :data:`PLAYOUT_CUT` actions
and are scored as the «Мастер» level scores its horizon. Not a bot level's code: the ladder's fingerprints
(benchmarks/bot_ladder.py) leave this file out.

The playouts are the ``light`` level's (``EasyBot``: one-ply greedy on a fresh determinization of the
playout's own state, the draft by the table with noise), cut and scored as ``master`` scores its horizon
(the same static evaluation over the same scale). Issue 27 §4 measured ``master``'s rollout policy in their
place (candidate ``greedy``: ``wide.greedy_action``, the same one-ply ranking on the playout's state itself,
no second determinization; the draft by ``fitted_draft_pick``) and more work, with
``benchmarks/analysis_quality.py`` (12 ``strong`` v ``strong`` matches, every third decision: 272 decisions;
load average 6–12 on 2 cores). None predicted the results better than the ``light`` playouts at 32
iterations (Brier 0.1708, log-loss 0.506, 10.3–10.7 s of CPU per 60 actions); paired differences:

- ``greedy`` (32 iterations): Brier +0.0025 ± 0.0019, log-loss +0.007 ± 0.004, 10.3 s;
- ``greedy48``: +0.0010 ± 0.0021, +0.003 ± 0.005, 13.7 s;
- ``light64`` (64 iterations): +0.0023 ± 0.0021, +0.005 ± 0.006, 17.8 s;
- ``light_cut24`` (cut at 24 actions): +0.0021 ± 0.0070, +0.007 ± 0.017, 17.2 s.

So the analysis keeps them (:data:`ANALYSIS`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from duelclub.bots.base import AnalysisSettings, AnyGame
from duelclub.bots.warchest import EVAL_SCALE
from duelclub.games.contract import Seat

PLAYOUT_CUT = 12
"""Actions after which an analysis playout stops."""


def horizon_value(game: AnyGame, state: Any, seat: Seat) -> float:
    """``seat``'s win chance at the cut: the logistic of its static evaluation (``heuristics.evaluate``) over
    :data:`~duelclub.bots.warchest.EVAL_SCALE`."""
    from duelclub.bots.warchest.heuristics import evaluate

    x = evaluate(state, state.side_of(seat)) / EVAL_SCALE
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def greedy_rollout(game: AnyGame, state: Any, seat: Seat, actions: list[Any], rng: random.Random) -> Any:
    """``master``'s rollout choice (``wide.greedy_action`` on ``state``, a determinization); in the draft
    ``heuristics.fitted_draft_pick``."""
    from duelclub.bots.warchest.heuristics import fitted_draft_pick
    from duelclub.bots.warchest.wide import greedy_action
    from duelclub.games.warchest.state import DRAFT

    if state.phase == DRAFT:
        return fitted_draft_pick(state, actions, rng)
    return greedy_action(state, state.side_of(seat), actions, rng)


CANDIDATES: dict[str, Callable[[], AnalysisSettings]] = {
    "greedy": lambda: AnalysisSettings(
        iterations=32, playout_cut=PLAYOUT_CUT, cut_value=horizon_value, rollout=greedy_rollout
    ),
    "greedy48": lambda: AnalysisSettings(
        iterations=48, playout_cut=PLAYOUT_CUT, cut_value=horizon_value, rollout=greedy_rollout
    ),
    "light64": lambda: AnalysisSettings(iterations=64, playout_cut=PLAYOUT_CUT, cut_value=horizon_value),
    "light_cut24": lambda: AnalysisSettings(iterations=32, playout_cut=24, cut_value=horizon_value),
}
"""Settings measured by ``benchmarks/analysis_quality.py``."""

ANALYSIS = AnalysisSettings(iterations=32, playout_cut=PLAYOUT_CUT, cut_value=horizon_value)
"""32 iterations a decision at effort 1: a 60-action match takes ~10 s of CPU (``analysis_quality``, 2026-12;
~41 s at 48 iterations when first measured, under load)."""
