"""Bots by game and level: ``make_bot("mezha", "strong", think_seconds=0.8)``.

Each game lists its levels in the module ``duelclub.bots.<slug>`` as ``LEVELS: dict[str, LevelFactory]``
(``random`` exists for every game, for tests and benchmarks; the lobby offers the game's ``bot_levels``).
See the module of each game for what its levels are. A game's post-game analysis budget is ``ANALYSIS`` (an
:class:`~duelclub.bots.base.AnalysisSettings`) in ``duelclub.bots.<slug>.analysis``
(:func:`analysis_settings`).
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache

from duelclub.bots.base import AnalysisSettings, Bot, LevelFactory
from duelclub.bots.levels import canonical

DEFAULT_ANALYSIS = AnalysisSettings(iterations=100)
"""The analysis budget of a game whose bots declare none (the tests' toy games)."""

UNMOVED_ANALYSIS: dict[str, AnalysisSettings] = {}
"""Budgets not yet in their game's bots package (none now; issue 30 §1). tests/test_game_units.py fails
once the module exists and the entry is still here."""


@cache
def _levels(game_slug: str) -> dict[str, LevelFactory]:
    name = f"duelclub.bots.{game_slug}"
    if not game_slug.isidentifier() or importlib.util.find_spec(name) is None:
        raise KeyError(f"no bots for game {game_slug!r}")
    levels: dict[str, LevelFactory] = importlib.import_module(name).LEVELS
    return levels


def bot_levels(game_slug: str) -> tuple[str, ...]:
    """The levels :func:`make_bot` knows for ``game_slug``; KeyError for an unknown game."""
    return tuple(_levels(game_slug))


def make_bot(game_slug: str, level: str, *, think_seconds: float | None = None) -> Bot:
    """A fresh bot for ``game_slug`` at ``level``.

    ``think_seconds`` bounds a searching bot's wall-clock time per decision (ignored by the others; None
    means the level's default). The old ids ``easy``/``hard`` name ``light``/``strong``
    (``levels.ALIASES``). Raises KeyError for an unknown game or level.
    """
    factory = _levels(game_slug).get(canonical(level))
    if factory is None:
        raise KeyError(f"no bot level {level!r} for game {game_slug!r}")
    return factory(think_seconds)


@cache
def analysis_settings(game_slug: str) -> AnalysisSettings:
    """``ANALYSIS`` of ``duelclub.bots.<game_slug>.analysis``; :data:`DEFAULT_ANALYSIS` for a game without."""
    if game_slug in UNMOVED_ANALYSIS:
        return UNMOVED_ANALYSIS[game_slug]
    if not game_slug.isidentifier() or importlib.util.find_spec(f"duelclub.bots.{game_slug}") is None:
        return DEFAULT_ANALYSIS
    name = f"duelclub.bots.{game_slug}.analysis"
    if importlib.util.find_spec(name) is None:
        return DEFAULT_ANALYSIS
    settings: AnalysisSettings = importlib.import_module(name).ANALYSIS
    return settings
