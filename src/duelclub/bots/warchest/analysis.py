"""Сундук войны's post-game analysis budget (``bots/analysis.py``, issue 17 §4). Its heuristic playouts to the
end cost ~40 ms each, twenty times the other games', so they stop after :data:`PLAYOUT_CUT` actions and are
scored as the «Мастер» level scores its horizon. Not a bot level's code: the ladder's fingerprints
(benchmarks/bot_ladder.py) leave this file out."""

from __future__ import annotations

import math
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


ANALYSIS = AnalysisSettings(iterations=32, playout_cut=PLAYOUT_CUT, cut_value=horizon_value)
"""32 iterations a decision at effort 1: a 60-action match took ~41 s of CPU at 48 (measured under load)."""
