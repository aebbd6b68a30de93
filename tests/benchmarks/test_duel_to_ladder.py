"""benchmarks/duel_to_ladder.py: a direct match of two ladder levels (benchmarks/level_duel.py) is the
ladder's own match of that pair, so it is carried into the ladder's log once, with the ladder's score."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))  # scripts, not a package
import bot_ladder
import duel_to_ladder
import level_duel


@pytest.fixture
def logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(bot_ladder, "LOG_DIR", tmp_path / "ladder")
    monkeypatch.setattr(level_duel, "LOG_DIR", tmp_path / "duel")
    bot_ladder.fingerprint.cache_clear()
    yield tmp_path
    bot_ladder.fingerprint.cache_clear()


def test_duel_matches_are_carried_once_as_the_ladders_own(
    logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert level_duel.main(["mezha", "light", "novice", "--matches", "4"]) == 0
    duel = [json.loads(line) for line in (logs / "duel" / "mezha-light.jsonl").read_text().splitlines()]
    assert duel_to_ladder.carry("mezha", ["light"]) == 4
    assert duel_to_ladder.carry("mezha", ["light"]) == 0  # nothing twice
    carried = bot_ladder.load_log("mezha", ["random", "novice", "light"])
    assert sorted(carried) == [("novice", "light", i) for i in range(4)]
    for row in duel:
        played = bot_ladder.play(bot_ladder.Task("mezha", "novice", "light", row["index"]))
        assert carried[("novice", "light", row["index"])].score == played.score == 1.0 - row["score"]
        assert carried[("novice", "light", row["index"])].think["light"][0] == len(row["think"]["light"])


def test_a_level_on_trial_or_a_stale_fingerprint_is_not_carried(logs: Path) -> None:
    row = {"old": "light", "new": "ismcts_300", "index": 0, "score": 1.0, "fp": ["x", "y"], "think": {}}
    assert duel_to_ladder.ladder_row("mezha", row) is None
    stale = {**row, "new": "medium"}
    assert duel_to_ladder.ladder_row("mezha", stale) is None
    fp = [bot_ladder.fingerprint("mezha", "light"), bot_ladder.fingerprint("mezha", "medium")]
    fresh = duel_to_ladder.ladder_row("mezha", {**stale, "fp": fp, "think": {"medium": [0.5, 0.25]}})
    assert fresh is not None and fresh["score"] == 0.0 and fresh["think"]["medium"] == [2, 0.75, 0.5]
    assert duel_to_ladder.ladder_row("mezha", {**stale, "old": "medium", "new": "light"}) is None
