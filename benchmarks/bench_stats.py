"""Figures shared by the bot benchmarks (``benchmarks/<slug>_bots.py``, run as scripts from this folder)."""

from __future__ import annotations

import math
import statistics


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate ``wins / n`` (``(nan, nan)`` for n = 0)."""
    if n == 0:
        return float("nan"), float("nan")
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def spread(label: str, seconds: list[float], limit: float) -> str:
    """One line: median, p99 and max of sorted ``seconds`` and the verdict against ``limit`` seconds."""
    verdict = "PASS" if seconds[-1] <= limit else "FAIL"
    p99 = seconds[int(0.99 * (len(seconds) - 1))]
    return (
        f"  {label:<15} median {statistics.median(seconds):.3f} s, p99 {p99:.3f} s,"
        f" max {seconds[-1]:.3f} s  {verdict} (<= {limit} s)"
    )
