"""Issue 15 §1 for Межа and Дві вежі: the rules emit data only — every event of random legal playouts has the
shape its ``events.py`` declares (the engine's and every seat's view of it), every outcome reason is one of
the game's ``Reason`` codes, and nothing under the two packages imports duelclub outside ``games/``."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from duelclub.games.mezha import GAME as MEZHA
from duelclub.games.mezha.events import EVENT_ADAPTER as MEZHA_EVENTS
from duelclub.games.towers import GAME as TOWERS
from duelclub.games.towers.events import EVENT_ADAPTER as TOWERS_EVENTS

GAMES_DIR = Path(__file__).resolve().parents[2] / "src/duelclub/games"
CASES = [(MEZHA, MEZHA_EVENTS, {"house": "gorn"}), (TOWERS, TOWERS_EVENTS, {"deck": "normal"})]
# what the engine always emits, though another seat's view may lack it (games/<slug>/events.py)
PRIVATE = {"mezha": {"play": ("card", "strength"), "draw": ("card",)}, "towers": {"draw": ("card",)}}


def _playout(game: Any, adapter: TypeAdapter[Any], options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    state = game.new_match(rng.randbytes(32), game.parse_options(options))
    for _ in range(300):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_move(state))
        events = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        assert adapter.validate_python(events) == events
        for ev in events:
            for key in PRIVATE[game.slug].get(ev["kind"], ()):
                assert key in ev, ev
        for viewer in (0, 1, None):
            seen = [v for ev in events if (v := game.event_view(state, ev, viewer)) is not None]
            adapter.validate_python(seen)
    outcome = game.outcome(state)
    if outcome is not None:
        assert outcome.reason in game.reason_codes


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(("game", "adapter", "options"), CASES, ids=["mezha", "towers"])
def test_every_event_of_random_playouts_is_typed(
    game: Any, adapter: TypeAdapter[Any], options: dict[str, Any], seed: int
) -> None:
    _playout(game, adapter, options, seed)


def test_a_resignation_ends_with_a_declared_reason() -> None:
    for game, adapter, options in CASES:
        state = game.new_match(bytes(32), game.parse_options(options))
        seat = min(game.to_move(state))
        events = game.apply(state, seat, game.parse_action({"kind": "resign"}))
        assert adapter.validate_python(events)[-1]["reason"] == "resign" == game.outcome(state).reason


def test_an_undeclared_key_or_kind_is_rejected() -> None:
    with pytest.raises(ValueError):
        MEZHA_EVENTS.validate_python([{"kind": "pass", "seat": 0, "automatic": False, "extra": 1}])
    with pytest.raises(ValueError):
        TOWERS_EVENTS.validate_python([{"kind": "match_end", "winner": 0, "reason": "", "battlefield": "x"}])


@pytest.mark.parametrize("slug", ["mezha", "towers"])
def test_the_rules_import_nothing_of_duelclub_outside_games(slug: str) -> None:
    for path in (GAMES_DIR / slug).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                if name.startswith("duelclub"):
                    assert name.startswith("duelclub.games"), (path.name, name)
