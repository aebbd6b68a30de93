"""The benchmark scripts' tests: ``benchmarks/`` on the import path (scripts, not a package) and the bot
ladder's results log in a temporary directory."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bot_ladder


@pytest.fixture
def log_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``bot_ladder``'s results log in ``tmp_path`` (the fingerprints' cache cleared around the test)."""
    monkeypatch.setattr(bot_ladder, "LOG_DIR", tmp_path)
    bot_ladder.fingerprint.cache_clear()
    yield tmp_path
    bot_ladder.fingerprint.cache_clear()


@pytest.fixture
def novice_blunders(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """A setter of Артания's ``novice`` blunder rate for the test (new parameters: a new fingerprint)."""
    import duelclub.bots.artania as artania_bots

    def set_rate(rate: float) -> None:
        novice = {**artania_bots.LEVEL_PARAMS["novice"], "blunder": rate}
        monkeypatch.setattr(artania_bots, "LEVEL_PARAMS", {**artania_bots.LEVEL_PARAMS, "novice": novice})
        bot_ladder.fingerprint.cache_clear()

    return set_rate
