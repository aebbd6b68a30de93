"""Дві вежі's post-game analysis budget (``bots/analysis.py``, issue 17 §4): its playouts run to the end of
the match. Not a bot level's code: the ladder's fingerprints (benchmarks/bot_ladder.py) leave this file
out."""

from __future__ import annotations

from duelclub.bots.base import AnalysisSettings

ANALYSIS = AnalysisSettings(iterations=120)
"""120 iterations a decision at effort 1: a 60-action match takes ~28 s of CPU (measured under load)."""
