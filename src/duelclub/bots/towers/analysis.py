"""Дві вежі's post-game analysis (``bots/analysis.py``, issue 17 §4; issue 27 §4): its playouts run to the end
of the match with the ``light`` level. Not a bot level's code: the ladder's fingerprints
(benchmarks/bot_ladder.py) leave this file out.

Issue 27 §4 measured the evaluators of the top levels in their place with ``benchmarks/analysis_quality.py``
(12 ``strong`` v ``strong`` matches, every third decision: 336 decisions; load average 6–8 on 2 cores):
``easy``'s greedy policy (``heuristics.greedy_action``, the rollout policy of ``master`` and ``expert``) and
playouts cut after a few actions and scored by the learned value (``value.py``, the leaf of the ``valued``
levels): :func:`value_cut`. The ``light`` playouts to the end at 120 iterations score Brier 0.1434 and
log-loss 0.438 (22–23 s of CPU per 60 actions); paired differences of the candidates (:data:`CANDIDATES`):

- ``greedy`` (to the end, 120 iterations): Brier +0.0008 ± 0.0027, log-loss +0.001 ± 0.006, 25.3 s;
- ``value_cut24`` (greedy, cut at 24 actions, 240 iterations): +0.0007 ± 0.0077, +0.007 ± 0.018, 18.3 s;
- ``value_cut12``: +0.0041 ± 0.0082, +0.016 ± 0.019, 13.0 s; ``value_cut12_light`` (the light playouts
  cut): +0.0044 ± 0.0082, +0.017 ± 0.020, 10.9 s;
- ``value_cut8``: +0.0046 ± 0.0081, +0.018 ± 0.019, 10.0 s.

None predicts the results better (the cut ones are cheaper, and a little worse), so the analysis keeps the
``light`` playouts (:data:`ANALYSIS`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from duelclub.bots.base import AnalysisSettings, AnyGame
from duelclub.games.contract import Seat

PLAYOUT_CUT = 12
"""Actions after which a candidate's playout stops and :func:`value_cut` scores it."""


def greedy_rollout(game: AnyGame, state: Any, seat: Seat, actions: list[Any], rng: random.Random) -> Any:
    """``easy``'s greedy choice among ``actions`` (first on ties, no noise): ``heuristics.greedy_action``."""
    from duelclub.bots.towers.heuristics import greedy_action

    return greedy_action(state, seat, actions)


def value_cut(game: AnyGame, state: Any, seat: Seat) -> float:
    """``seat``'s win chance at a cut playout: the learned value (``value.chance``) of the player to move,
    read at the next turn's action (phase ``main``; the rest of a turn, an extra action or a forced discard,
    is played greedily on a copy first); 1 / ½ / 0 once the match has ended."""
    from duelclub.bots.towers.heuristics import greedy_action, terminal_chance
    from duelclub.bots.towers.value import chance
    from duelclub.games.towers.state import MAIN

    if state.outcome is None and state.phase != MAIN:
        state = state.copy()
        while state.outcome is None and state.phase != MAIN:
            mover = state.active
            game.apply(state, mover, greedy_action(state, mover, game.legal_actions(state, mover)))
    if state.outcome is not None:
        return terminal_chance(state, seat)
    p = chance(state, state.active)
    return p if state.active == seat else 1.0 - p


def _settings(iterations: int, cut: int | None, value: bool, greedy: bool) -> Callable[[], AnalysisSettings]:
    return lambda: AnalysisSettings(
        iterations=iterations,
        playout_cut=cut,
        cut_value=value_cut if value else None,
        rollout=greedy_rollout if greedy else None,
    )


CANDIDATES: dict[str, Callable[[], AnalysisSettings]] = {
    "greedy": _settings(120, None, False, True),
    "value_cut8": _settings(240, 8, True, True),
    "value_cut12": _settings(240, 12, True, True),
    "value_cut12_light": _settings(240, 12, True, False),
    "value_cut4": _settings(360, 4, True, True),
    "value_cut24": _settings(240, 24, True, True),
    "light240": _settings(240, None, False, False),
}
"""Settings measured by ``benchmarks/analysis_quality.py`` (the shipped one among them)."""


def heuristic_rollout(game: AnyGame, state: Any, seat: Seat, actions: list[Any], rng: random.Random) -> Any:
    """``heuristics.EasyBot``'s choice (its ranking, ties broken by ``rng``): what the ``light`` level played
    before it began to blunder on purpose (issue 27 §2), so the analysis stays the one measured."""
    from duelclub.bots.towers.heuristics import heuristic_action

    return heuristic_action(game, state, seat, actions, rng)


ANALYSIS = AnalysisSettings(iterations=120, rollout=heuristic_rollout)
"""120 iterations a decision at effort 1: a 60-action match takes ~23 s of CPU (``analysis_quality``, 2026-12;
~28 s when first measured, under load). Its playouts go to the end of the match with the ``light`` level's
heuristic without its blunders (:func:`heuristic_rollout`)."""
