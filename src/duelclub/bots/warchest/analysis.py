"""Сундук войны's post-game analysis (``bots/analysis.py``, issue 17 §4; issue 27 §4). Its heuristic playouts
to the end cost ~40 ms each, twenty times the other games', so they stop after :data:`PLAYOUT_CUT` actions
and are scored as the «Мастер» level scores its horizon. Not a bot level's code: the ladder's fingerprints
(benchmarks/bot_ladder.py) leave this file out.

Before issue 27 the playouts were the ``light`` level's (``EasyBot``: one-ply greedy on a fresh
determinization of the playout's own state, the draft by the table with noise). The candidate ``greedy``
plays ``master``'s rollout policy (``wide.greedy_action``: the same one-ply ranking on the playout's state
itself, no second determinization; the draft by ``fitted_draft_pick``, as ``strong`` and ``master`` draft).
``benchmarks/analysis_quality.py`` measures them.
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
}
"""Settings measured by ``benchmarks/analysis_quality.py``."""

ANALYSIS = AnalysisSettings(iterations=32, playout_cut=PLAYOUT_CUT, cut_value=horizon_value)
"""32 iterations a decision at effort 1: a 60-action match took ~41 s of CPU at 48 (measured under load)."""
