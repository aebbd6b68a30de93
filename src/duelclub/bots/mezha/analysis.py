"""Межа's post-game analysis budget (``bots/analysis.py``, issue 17 §4): its playouts run to the end of the
match. Not a bot level's code: the ladder's fingerprints (benchmarks/bot_ladder.py) leave this file out."""

from __future__ import annotations

from collections.abc import Callable

from duelclub.bots.base import AnalysisSettings

CANDIDATES: dict[str, Callable[[], AnalysisSettings]] = {
    "iter320": lambda: AnalysisSettings(iterations=320),
}
"""Settings measured by ``benchmarks/analysis_quality.py``."""

ANALYSIS = AnalysisSettings(iterations=160)
"""160 iterations a decision at effort 1: a 60-action match takes ~22 s of CPU (measured under load)."""
