"""benchmarks/bot_ladder.py: the results log a round robin accumulates over several sittings — matches are
logged as they end, a rerun plays only what is missing, and a level whose parameters change loses its
logged matches (they measured another bot)."""

from __future__ import annotations

import importlib
import json
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bot_ladder
import pytest


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert bot_ladder.main(["artania", "--jobs", "1", "--json", *args]) == 0
    captured = capsys.readouterr()
    assert "to play" in captured.err  # the progress line: matches logged, matches to play
    return json.loads(captured.out)


def test_a_rerun_plays_only_the_missing_matches(log_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "--pair", "random", "novice", "--matches-per-pair", "2")
    assert first["matches"] == 2 and first["matches_per_pair"] == 2
    assert first["provisional"] and first["pairs"] == "some (14 pairs unplayed)"
    lines = (log_dir / "artania.jsonl").read_text().splitlines()
    assert len(lines) == 2
    row = json.loads(lines[0])
    assert row["fp"][0] == "random" and len(row["fp"][1]) == 12
    decisions, cpu, worst = row["think"]["novice"]
    assert decisions > 0 and 0 <= worst <= cpu

    again = run(capsys, "--pair", "novice", "random", "--matches-per-pair", "3")  # either order: the pair
    assert again["matches"] == 3
    assert len((log_dir / "artania.jsonl").read_text().splitlines()) == 3  # one new match, not three


def test_changed_parameters_drop_the_levels_logged_matches(
    log_dir: Path, capsys: pytest.CaptureFixture[str], novice_blunders: Callable[[float], None]
) -> None:
    run(capsys, "--pair", "random", "novice", "--matches-per-pair", "2")
    novice_blunders(0.9)
    rep = run(capsys, "--pair", "random", "novice", "--matches-per-pair", "1")
    assert rep["matches"] == 1  # the two old matches measured another novice
    assert len((log_dir / "artania.jsonl").read_text().splitlines()) == 3  # the log keeps them all


def test_fresh_runs_write_no_log_and_the_same_key_replays_the_same_match(
    log_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = bot_ladder.Task("artania", "novice", "light", 3)
    one, two = bot_ladder.play(task), bot_ladder.play(task)
    assert (one.score, one.think["novice"][0]) == (two.score, two.think["novice"][0])
    run(capsys, "--pair", "random", "light", "--matches-per-pair", "1", "--fresh")
    assert not (log_dir / "artania.jsonl").exists()


def test_timed_and_untimed_results_are_logged_apart(
    log_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "--pair", "light", "medium", "--matches-per-pair", "1")
    assert run(capsys, "--pair", "light", "medium", "--matches-per-pair", "1", "--timed")["matches"] == 1
    rows = [json.loads(line) for line in (log_dir / "artania.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and rows[0]["fp"][1] != rows[1]["fp"][1]  # medium by its caps / by its clock
    assert rows[0]["fp"][0] != rows[1]["fp"][0]  # light too, though its heuristic has no clock


def test_the_shared_paired_rollouts_count_only_for_the_games_that_import_them(tmp_path: Path) -> None:
    names = {g: [p.name for p in bot_ladder.bot_sources(importlib.import_module(f"duelclub.bots.{g}"))]
             for g in ("artania", "warchest", "mezha", "towers")}  # fmt: skip
    # every game's top level is a paired wide search now (issue 27)
    assert all("paired.py" in n and "wide.py" in n for n in names.values())
    assert all({"ismcts.py", "levels.py", "__init__.py"} <= set(n) for n in names.values())
    # a package that does not import it does not count it
    package = tmp_path / "plainbots"
    package.mkdir()
    (package / "__init__.py").write_text("from duelclub.bots import levels\n", encoding="utf-8")
    plain = types.SimpleNamespace(__file__=str(package / "__init__.py"))
    assert [p.name for p in bot_ladder.bot_sources(plain)] == ["__init__.py", "ismcts.py", "levels.py"]
    assert "analysis.py" not in names["artania"]


def test_levels_on_trial_kept_in_trials_py_leave_the_fingerprint_alone(tmp_path: Path) -> None:
    """A new trial level (``bots/<game>/trials.py``) must not restart the game's ladder: the file is not
    hashed, while any other module of the package is; ``level_duel.py`` still finds the trial's parameters."""
    import level_duel

    assert "trials.py" not in [
        p.name for p in bot_ladder.bot_sources(importlib.import_module("duelclub.bots.mezha"))
    ]
    package = tmp_path / "trialbots"
    package.mkdir()
    (package / "__init__.py").write_text("LEVEL_PARAMS = {}\n", encoding="utf-8")
    (package / "trials.py").write_text("EXPERIMENTAL_PARAMS = {}\n", encoding="utf-8")
    (package / "wide.py").write_text("X = 1\n", encoding="utf-8")
    plain = types.SimpleNamespace(__file__=str(package / "__init__.py"))
    assert [p.name for p in bot_ladder.bot_sources(plain)][:2] == ["__init__.py", "wide.py"]
    assert "trials.py" not in [p.name for p in bot_ladder.bot_sources(plain)]
    assert level_duel.params_of("mezha", "wide200")["playouts"] == 200
    assert (
        level_duel.params_of("mezha", "master")
        == importlib.import_module("duelclub.bots.mezha").LEVEL_PARAMS["master"]
    )
    assert level_duel.params_of("towers", "deep")["kind"] == "lookahead"  # a game that keeps them in __init__
    with pytest.raises(KeyError):
        level_duel.params_of("mezha", "grandmaster")
