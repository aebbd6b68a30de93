"""The declared position models of all four games: committed JSON Schemas, loading the positions the bot
workers receive, and the error every ``from_position`` raises (docs/positions.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from duelclub.games.position_model import PositionError
from duelclub.games.position_schemas import main, models, schemas
from duelclub.games.registry import get_game

DOCS = Path(__file__).resolve().parents[2] / "docs" / "positions"
OPTIONS: dict[str, list[dict[str, str]]] = {
    "mezha": [{"house": "olkha"}, {"house": "gorn"}],
    "towers": [{}, {"deck": "infinite"}],
    "warchest": [{"expansions": "both", "draft": "club"}, {"expansions": "base", "draft": "random"}],
    "artania": [{"deck": "artania"}, {"deck": "kuyavia"}],
}
"""Option sets each game's playouts cover; a game not listed here plays its defaults."""


@pytest.mark.parametrize("slug", sorted(models()))
def test_committed_schema_is_the_models(slug: str) -> None:
    committed = (DOCS / f"{slug}.schema.json").read_text(encoding="utf-8")
    assert committed == schemas()[slug], "run: python -m duelclub.games.position_schemas docs/positions"
    assert json.loads(committed)["additionalProperties"] is False


def test_schema_check_command_passes_on_the_committed_files(tmp_path: Path) -> None:
    assert main(["--check", str(DOCS)]) == 0
    assert main(["--check", str(tmp_path)]) == 1  # nothing written there yet
    assert main([str(tmp_path)]) == 0 and main(["--check", str(tmp_path)]) == 0


def _playout(slug: str, options: dict[str, str], seed: int) -> list[Any]:
    game = get_game(slug)
    rng = random.Random(seed)
    s = game.new_match(rng.randbytes(32), game.parse_options(options))
    states = [game.copy(s)]
    while game.outcome(s) is None and len(states) < 400:
        seat = min(game.to_move(s))
        game.apply(s, seat, rng.choice(game.legal_actions(s, seat)))
        states.append(game.copy(s))
    return states


@pytest.mark.parametrize("slug", sorted(models()))
def test_positions_the_bot_workers_receive_load(slug: str) -> None:
    # play/bots.py sends ``to_position(determinize(state, seat))`` for the seat due to move
    game = get_game(slug)
    rng = random.Random(5)
    for i, options in enumerate(OPTIONS.get(slug, [{}])):
        for s in _playout(slug, options, i)[::2]:
            for seat in sorted(game.to_move(s)):
                pos = json.loads(json.dumps(game.to_position(game.determinize(s, seat, rng))))
                assert game.to_position(game.from_position(pos)) == pos


@pytest.mark.parametrize("slug", sorted(models()))
@pytest.mark.parametrize("bad", [None, [], {"game": "chess", "version": 1}])
def test_from_position_raises_a_value_error_naming_the_game(slug: str, bad: object) -> None:
    with pytest.raises(PositionError, match=rf"^bad {slug} position: game must be '{slug}'$"):
        get_game(slug).from_position(bad)  # type: ignore[arg-type]
    assert issubclass(PositionError, ValueError)


@pytest.mark.parametrize("slug", sorted(models()))
def test_an_unknown_version_is_rejected(slug: str) -> None:
    game = get_game(slug)
    pos = json.loads(json.dumps(game.to_position(_playout(slug, OPTIONS.get(slug, [{}])[0], 1)[0])))
    pos["version"] = 2
    with pytest.raises(ValueError, match=rf"bad {slug} position: version: Input should be 1"):
        game.from_position(pos)
