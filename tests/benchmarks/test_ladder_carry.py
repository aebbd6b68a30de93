"""benchmarks/ladder_carry.py: a change of bot code that does not change play keeps the ladder's logged
matches (after replaying a sample of them exactly); one that changes play keeps nothing; and Межа's levels
are data, so that one level's new parameters restart only its own pairs."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bot_ladder
import ladder_carry
import pytest


def ladder(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert bot_ladder.main(["artania", "--jobs", "1", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def refactor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change of the bot code that changes no move: one more (empty) source file in every fingerprint."""
    extra = tmp_path / "moved.py"
    extra.write_text("# code moved here\n", encoding="utf-8")
    sources = bot_ladder.bot_sources
    monkeypatch.setattr(bot_ladder, "bot_sources", lambda module: [*sources(module), extra])
    bot_ladder.fingerprint.cache_clear()


def rows_of(log_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (log_dir / "artania.jsonl").read_text().splitlines()]


def test_a_change_that_keeps_play_is_carried_by_aliases(
    log_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ladder(capsys, "--pair", "random", "novice", "--matches-per-pair", "2")
    old = bot_ladder.fingerprint("artania", "novice")
    refactor(tmp_path, monkeypatch)
    new = bot_ladder.fingerprint("artania", "novice")
    assert new != old
    assert ladder(capsys, "--pair", "random", "novice", "--matches-per-pair", "0")["matches"] == 0  # lost

    assert ladder_carry.carry("artania", check=2, jobs=1) == 0
    assert "all 2 replays agree; aliases logged for novice" in capsys.readouterr().out
    alias = rows_of(log_dir)[-1]
    assert (alias["alias"], alias["from"], alias["to"]) == ("novice", old, new)
    assert sorted(alias["checked"]) == [["random", "novice", 0], ["random", "novice", 1]]
    # the two logged matches count again; a third is played under the new fingerprint
    assert ladder(capsys, "--pair", "random", "novice", "--matches-per-pair", "3")["matches"] == 3
    assert len(rows_of(log_dir)) == 4  # two matches, the alias, the third match
    assert ladder_carry.carry("artania", check=2, jobs=1) == 0  # nothing changed since: nothing to do
    assert len(rows_of(log_dir)) == 4
    assert "nothing to carry" in capsys.readouterr().out


def test_a_change_of_play_is_not_carried(
    log_dir: Path, capsys: pytest.CaptureFixture[str], novice_blunders: Callable[[float], None]
) -> None:
    ladder(capsys, "--pair", "random", "novice", "--matches-per-pair", "2")
    novice_blunders(1.0)

    assert ladder_carry.carry("artania", check=2, jobs=1) == 1
    out = capsys.readouterr().out
    assert "replays differ; nothing carried" in out and "random vs novice #" in out
    assert not any("alias" in row for row in rows_of(log_dir))
    assert ladder(capsys, "--pair", "random", "novice", "--matches-per-pair", "0")["matches"] == 0


def test_aliases_chain_and_a_cycle_ends() -> None:
    aliases = {("medium", "a"): "b", ("medium", "b"): "c", ("light", "x"): "a"}
    assert bot_ladder.resolve(aliases, "medium", "a") == "c"
    assert bot_ladder.resolve(aliases, "light", "a") == "a"  # aliases are per level
    assert bot_ladder.resolve({("m", "a"): "b", ("m", "b"): "a"}, "m", "a") in {"a", "b"}


@pytest.mark.parametrize("game", ["mezha", "towers", "warchest", "artania"])
def test_levels_are_data_outside_the_hashed_code(game: str) -> None:
    """A change to one level's table in ``levels.toml`` changes that level's fingerprint only."""
    bots = importlib.import_module(f"duelclub.bots.{game}")
    sources = [p.name for p in bot_ladder.bot_sources(bots)]
    assert "levels.toml" not in sources and "__init__.py" in sources
    assert bots.LEVELS_FILE.name == "levels.toml" and bots.LEVELS_FILE.parent == Path(bots.__file__).parent
    assert list(bots.LEVEL_PARAMS) == ["novice", "light", "medium", "strong", "master"]
    assert list(bots.LEVEL_PARAMS) == [lv for lv in bots.LEVELS if lv != "random"]
    assert all(p["think"] <= 3 for p in bots.LEVEL_PARAMS.values() if "think" in p)
