"""Дві вежі's post-game analysis (``bots/analysis.py``, issue 17 §4; issue 27 §4). Not a bot level's code:
the ladder's fingerprints (benchmarks/bot_ladder.py) leave this file out.

Before issue 27 the playouts ran to the end of the match with the ``light`` level (``easy``'s ranking plus
random tie noise). The candidates below play ``easy``'s greedy policy (``heuristics.greedy_action``, the
rollout policy of ``master`` and ``expert``) for :data:`PLAYOUT_CUT` actions and score the cut by the learned
value (``value.py``, the leaf of the ``valued`` levels): :func:`value_cut`. ``benchmarks/analysis_quality.py``
measures them (Brier score and log-loss of the ``before`` win chance against the match results).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from duelclub.bots.base import AnalysisSettings, AnyGame
from duelclub.games.contract import Seat

PLAYOUT_CUT = 12
"""Actions after which an analysis playout stops and :func:`value_cut` scores it."""


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
}
"""Settings measured by ``benchmarks/analysis_quality.py`` (the shipped one among them)."""

ANALYSIS = AnalysisSettings(iterations=120)
"""120 iterations a decision at effort 1: a 60-action match takes ~28 s of CPU (measured under load)."""
