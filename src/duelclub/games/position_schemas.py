"""The JSON Schemas of the games' position models (each game declares its own: ``Game.position_model``), as
committed under ``docs/positions/<slug>.schema.json``.

``python -m duelclub.games.position_schemas DIR`` writes ``DIR/<slug>.schema.json`` for every game;
``--check DIR`` exits 1 and names the files that differ from the models instead of writing them. The test
``tests/games/test_position_models.py`` runs the same comparison.
"""

from __future__ import annotations

import sys
from pathlib import Path

from pydantic import BaseModel

from duelclub.games.position_model import schema_text
from duelclub.games.registry import all_games


def models() -> dict[str, type[BaseModel]]:
    """Slug → the position model each game declares (``Game.position_model``), in lobby order; ValueError
    naming a game that declares none."""
    out: dict[str, type[BaseModel]] = {}
    for slug, game in all_games().items():
        if game.position_model is None:
            raise ValueError(f"game {slug!r} declares no position_model")
        out[slug] = game.position_model
    return out


def schemas() -> dict[str, str]:
    """Slug → the text of its ``<slug>.schema.json`` (:func:`position_model.schema_text`)."""
    return {slug: schema_text(model) for slug, model in models().items()}


def main(argv: list[str]) -> int:
    """Write (or with ``--check``, compare) the schema files in the directory ``argv[-1]``."""
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) != 1:
        print("usage: python -m duelclub.games.position_schemas [--check] DIR", file=sys.stderr)
        return 2
    out = Path(args[0])
    stale: list[Path] = []
    for slug, text in schemas().items():
        path = out / f"{slug}.schema.json"
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
        else:
            path.write_text(text, encoding="utf-8")
            print(path)
    for path in stale:
        print(f"out of date: {path}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
