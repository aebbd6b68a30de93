"""Bots by game and level: ``make_bot("mezha", "strong", think_seconds=0.8)``.

Each game lists its levels in the module ``duelclub.bots.<slug>`` as ``LEVELS: dict[str, LevelFactory]``
(``random`` exists for every game, for tests and benchmarks; the lobby offers the game's ``bot_levels``).
See the module of each game for what its levels are.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache

from duelclub.bots.base import Bot, LevelFactory
from duelclub.bots.levels import canonical


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
