"""benchmarks/analysis_quality.py (issue 27 §4): the scores of the analysis' win chances — Brier and log-loss
against the results, their standard errors clustered by match, paired differences between variants — and
the seeded, cached set of matches it analyses."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))  # scripts, not a package
import analysis_quality as aq


def test_brier_and_log_loss_of_single_predictions() -> None:
    assert aq.brier(0.5, 1.0) == 0.25 and aq.brier(0.8, 0.0) == pytest.approx(0.64)
    assert aq.logloss(0.5, 0.0) == pytest.approx(math.log(2))
    assert aq.logloss(1.0, 0.0) == pytest.approx(-math.log(aq.EPS)), "a certainty is clipped, not infinite"
    assert aq.logloss(0.7, 0.5) == pytest.approx(-(0.5 * math.log(0.7) + 0.5 * math.log(0.3)))


def test_the_standard_error_is_clustered_by_match() -> None:
    # two matches: one all 0.1, one all 0.3 — many decisions each, but only two independent results
    rows = [(0, 0.1)] * 50 + [(1, 0.3)] * 50
    mean, se = aq.clustered(rows)
    assert mean == pytest.approx(0.2)
    assert se == pytest.approx(0.1), "the spread of the two match means, not of 100 decisions"


def test_figures_pair_each_variant_with_the_first() -> None:
    rows = [(0, 0.5, 1.0), (1, 0.5, 0.0)]
    base = {"variant": "old", "iterations": 8, "rows": rows, "cpu_match": [1.0, 3.0], "cpu_60": [2.0, 2.0]}
    better = {**base, "variant": "new", "rows": [(0, 0.7, 1.0), (1, 0.3, 0.0)]}
    first, second = aq.figures(base, base), aq.figures(better, base)
    assert first["brier"] == 0.25 and "brier_vs_old" not in first
    assert second["brier"] == pytest.approx(0.09)
    assert second["brier_vs_old"] == pytest.approx(-0.16) and second["brier_vs_old_se"] == pytest.approx(0.0)
    assert second["cpu_per_match"] == 2.0


def test_the_match_set_is_seeded_and_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aq, "CACHE_DIR", tmp_path)
    played = aq.matches_for("mezha", 1, "novice", "light", quiet=True)
    assert (tmp_path / "mezha.matches.jsonl").exists()
    again = aq.matches_for("mezha", 1, "novice", "light", quiet=True)
    assert [aq._as_json(m) for m in again] == [aq._as_json(m) for m in played]
    assert aq._as_json(aq.play_match("mezha", 0, "novice", "light")) == aq._as_json(played[0])
    result = aq.analyse_set("mezha", played, "shipped", stride=4, effort=0.05)
    assert len(result["rows"]) == (len(played[0].log) + 3) // 4
    assert all(0.0 <= p <= 1.0 and y in (0.0, 0.5, 1.0) for _, p, y in result["rows"])
