"""One package per game holds its bot heuristics (issue 15 §3): ``bots/<slug>/`` (levels in ``__init__``,
heuristics in ``heuristics.py``); the ``games/`` tree holds only rules and imports no bot code."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import duelclub

ROOT = Path(duelclub.__file__).parent
GAMES = ("mezha", "towers", "artania", "warchest")


@pytest.mark.parametrize("slug", GAMES)
def test_each_game_has_one_bot_package_with_its_levels_and_heuristics(slug: str) -> None:
    package = importlib.import_module(f"duelclub.bots.{slug}")
    assert package.LEVELS, slug
    assert importlib.import_module(f"duelclub.bots.{slug}.heuristics").EasyBot
    assert not (ROOT / "bots" / f"{slug}.py").exists()


def test_the_games_tree_holds_no_bot_code() -> None:
    assert sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "games").rglob("bot.py")) == []
    assert not (ROOT / "games" / "towers" / "fitted.py").exists()
    importers = [
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "games").rglob("*.py")
        if "duelclub.bots" in p.read_text("utf-8")
    ]
    assert importers == []
