"""Issue 30 §1: a game is one unit. Walking the game registry, every game has each of its parts — its words
(with its rules page's sections), its bots (levels and analysis budget), its renderer, its rules page (one
template, its prose in the catalog) and its declared position model with the committed schema — and no part
exists for a game the registry does not know. docs/adding-a-game.md lists the same parts.

The second half proves the walk can fail: a fake fifth game with every part passes, and the same game
missing any one part is reported for exactly that part."""

from __future__ import annotations

import importlib.util
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

import duelclub
from duelclub.bots.registry import UNMOVED_ANALYSIS, bot_levels
from duelclub.games.modular import ModularGame
from duelclub.games.registry import all_games, game_packages
from duelclub.words import GameWords, RulesPage, all_words

PACKAGE = Path(duelclub.__file__).parent
ROOT = PACKAGE.parent.parent
PARTS = ("words", "rules sections", "bots", "analysis", "renderer", "rules page", "position model")


@dataclass(frozen=True)
class Club:
    """Where the parts of a game are looked up (the real registries and folders, or a test's fakes)."""

    games: Mapping[str, Any]
    words: Callable[[str], GameWords | None]
    bot_levels: Callable[[str], tuple[str, ...]]
    has_analysis: Callable[[str], bool]
    renderers: Path
    rules_pages: Path
    schemas: Path


def _has_analysis_module(slug: str) -> bool:
    return importlib.util.find_spec(f"duelclub.bots.{slug}.analysis") is not None


REAL = Club(
    games=all_games(),
    words=lambda slug: all_words().get(slug),
    bot_levels=bot_levels,
    has_analysis=lambda slug: _has_analysis_module(slug) or slug in UNMOVED_ANALYSIS,
    renderers=PACKAGE / "static" / "js",
    rules_pages=PACKAGE / "templates" / "rules",
    schemas=ROOT / "docs" / "positions",
)


def missing_parts(slug: str, club: Club) -> list[str]:
    """The parts (:data:`PARTS`) game ``slug`` of ``club`` lacks, in that order; [] for a whole game."""
    game = club.games[slug]
    missing: list[str] = []
    words = club.words(slug)
    rules: RulesPage | None = words.rules if words is not None else None
    if words is None:
        missing.append("words")
    elif rules is None or not rules.parts or rules.panel_default not in rules.parts:
        missing.append("rules sections")
    try:
        levels = club.bot_levels(slug)
    except KeyError:
        levels = ()
    if "random" not in levels or not set(game.bot_levels) <= set(levels):
        missing.append("bots")
    if not club.has_analysis(slug):
        missing.append("analysis")
    renderer = club.renderers / f"{slug}.js"
    if not renderer.is_file() or "export function createRenderer(" not in renderer.read_text("utf-8"):
        missing.append("renderer")
    page = club.rules_pages / f"{slug}.html"  # one template, its prose in the catalog (issue 30 §4)
    sections = rules.parts if rules is not None else ()
    if not page.is_file() or not all(f'<section id="{s}"' in page.read_text("utf-8") for s in sections):
        missing.append("rules page")
    if game.position_model is None or not (club.schemas / f"{slug}.schema.json").is_file():
        missing.append("position model")
    return missing


# -- the club as it is --------------------------------------------------------------------------------


def test_the_registry_walks_every_game_package() -> None:
    assert list(all_games()) == ["mezha", "towers", "warchest", "artania"]
    assert sorted(all_games()) == game_packages()


@pytest.mark.parametrize("slug", list(all_games()))
def test_every_game_has_every_part(slug: str) -> None:
    assert missing_parts(slug, REAL) == []


def test_no_part_belongs_to_a_game_the_registry_does_not_know() -> None:
    games = set(all_games())
    words = {p.stem for p in (PACKAGE / "words").glob("*.py") if "\nWORDS = " in p.read_text("utf-8")}
    bots = {p.parent.name for p in (PACKAGE / "bots").glob("*/__init__.py")}
    renderers = {
        p.stem
        for p in REAL.renderers.glob("*.js")
        if "export function createRenderer(" in p.read_text("utf-8")
    }
    pages = {p.stem for p in REAL.rules_pages.glob("[!_]*.html")} - {"page"}
    schemas = {p.name.split(".")[0] for p in REAL.schemas.glob("*.schema.json")}
    for kind, found in [("words", words), ("bots", bots), ("renderers", renderers), ("rules pages", pages)]:
        assert found == games, (kind, found ^ games)
    assert schemas == games, schemas ^ games


def test_a_budget_waiting_outside_its_bots_package_has_no_module_there_yet() -> None:
    """Once ``bots/<slug>/analysis.py`` exists, its entry in ``UNMOVED_ANALYSIS`` must go."""
    for slug in UNMOVED_ANALYSIS:
        assert slug in all_games() and not _has_analysis_module(slug), slug


# -- a fake fifth game ---------------------------------------------------------------------------------


class QuintaPosition(BaseModel):
    game: str


class QuintaWords(GameWords):
    slug = "quinta"
    title = "Квинта"
    rules = RulesPage(("goal", "turn", "end"))

    def event_lines(self, events: list[Any], seat: Any, names: Any = (None, None)) -> list[Any]:
        return [None] * len(events)


QUINTA = types.SimpleNamespace(slug="quinta", bot_levels=("light",), position_model=QuintaPosition)


def _fifth_game(tmp_path: Path, without: str | None) -> Club:
    """The real club plus «quinta», which has every part but ``without``."""
    renderers, pages, schemas = tmp_path / "js", tmp_path / "rules", tmp_path / "positions"
    for folder in (renderers, pages, schemas):
        folder.mkdir()
    if without != "renderer":
        (renderers / "quinta.js").write_text("export function createRenderer(ctx) {}\n", "utf-8")
    sections = ["goal", "turn"] if without == "rules page" else ["goal", "turn", "end"]
    body = "".join(f'<section id="{s}" class="rules-part"></section>\n' for s in sections)
    (pages / "quinta.html").write_text(body, "utf-8")
    if without != "position model":
        (schemas / "quinta.schema.json").write_text("{}\n", "utf-8")
    words: GameWords = QuintaWords()
    if without == "rules sections":
        words = type("NoRules", (QuintaWords,), {"rules": None})()
    return replace(
        REAL,
        games={**REAL.games, "quinta": QUINTA},
        words=lambda slug: (None if without == "words" else words) if slug == "quinta" else REAL.words(slug),
        bot_levels=lambda slug: (
            (("random",) if without == "bots" else ("random", "light"))
            if slug == "quinta"
            else bot_levels(slug)
        ),
        has_analysis=lambda slug: without != "analysis" if slug == "quinta" else REAL.has_analysis(slug),
        renderers=renderers,
        rules_pages=pages,
        schemas=schemas,
    )


def test_a_whole_fifth_game_passes(tmp_path: Path) -> None:
    assert missing_parts("quinta", _fifth_game(tmp_path, None)) == []


@pytest.mark.parametrize("part", PARTS)
def test_a_fifth_game_missing_one_part_is_named(tmp_path: Path, part: str) -> None:
    assert missing_parts("quinta", _fifth_game(tmp_path, part)) == [part]


# -- the shared wiring of game.py ----------------------------------------------------------------------


def test_a_modular_game_needs_all_its_modules() -> None:
    from duelclub.games.mezha import determinize, position, rules, view

    with pytest.raises(TypeError, match="give all of"):
        type("Half", (ModularGame,), {}, rules=rules, view=view)
    with pytest.raises(TypeError, match="name the game's modules"):
        type("Bare", (ModularGame,), {})
    with pytest.raises(TypeError, match="has no function to_position"):
        type("Wrong", (ModularGame,), {}, rules=rules, view=view, determinize=determinize, position=view)
    whole = type(
        "Whole", (ModularGame,), {}, rules=rules, view=view, determinize=determinize, position=position
    )
    assert whole.apply is rules.apply and whole.to_position is position.to_position
    assert type("Child", (whole,), {}).view is view.view  # a variant (a bot's) inherits the wiring
