"""Межа's post-game analysis budget (``bots/analysis.py``, issue 17 §4): its playouts run to the end of the
match. Not a bot level's code: the ladder's fingerprints (benchmarks/bot_ladder.py) leave this file out.

Its playout policy, the ``light`` level, is already the rollout policy of the wide levels ``strong`` and
``master`` (``heuristics.heuristic_action``, ``bots/mezha/wide.py``), so issue 27 §4 changed nothing here:
``benchmarks/analysis_quality.py`` (12 ``strong`` v ``strong`` matches, 357 decisions, load average ~7.7 on
2 cores) gives Brier 0.2357 ± 0.057 and log-loss 0.708 at 160 iterations (8.7 s of CPU per 60 actions), and
twice the iterations (``iter320``) changed them by −0.0003 ± 0.0032 and −0.005 ± 0.009 for 15.7 s."""

from __future__ import annotations

from collections.abc import Callable

from duelclub.bots.base import AnalysisSettings

CANDIDATES: dict[str, Callable[[], AnalysisSettings]] = {
    "iter320": lambda: AnalysisSettings(iterations=320),
}
"""Settings measured by ``benchmarks/analysis_quality.py``."""

ANALYSIS = AnalysisSettings(iterations=160)
"""160 iterations a decision at effort 1: a 60-action match takes ~22 s of CPU (measured under load)."""
