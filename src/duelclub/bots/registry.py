"""Bots by game and level: ``make_bot("mezha", "hard", think_seconds=0.8)``.

Levels per game (``random`` exists for every game listed here, for tests and benchmarks; the lobby offers
the game's ``bot_levels``):

- ``mezha``: ``random``; ``easy`` — the rule-based heuristic of ``games/mezha/bot.py``; ``hard`` —
  SO-ISMCTS (``bots/ismcts.py``) with that heuristic as its rollout policy for both seats.
"""

from __future__ import annotations

from collections.abc import Callable

from duelclub.bots.base import Bot
from duelclub.bots.ismcts import IsmctsBot, SearchConfig
from duelclub.bots.random_bot import RandomBot

HARD_THINK_SECONDS = 0.8
"""Default wall-clock budget of a ``hard`` decision, in seconds (the target is <= 1.5 s on one core)."""

HARD_MAX_ITERATIONS = 4000
"""Iteration cap of a ``hard`` decision (determinizations searched)."""

BotFactory = Callable[[float | None], Bot]
"""``think_seconds -> Bot``; None means the level's default budget."""


def _mezha_easy(think_seconds: float | None) -> Bot:
    from duelclub.games.mezha.bot import EasyBot

    return EasyBot("easy")


def _mezha_hard(think_seconds: float | None) -> Bot:
    from duelclub.games.mezha.bot import heuristic_action

    budget = HARD_THINK_SECONDS if think_seconds is None else think_seconds
    config = SearchConfig(time_budget=budget, max_iterations=HARD_MAX_ITERATIONS)
    return IsmctsBot("hard", config, rollout=heuristic_action)


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


_FACTORIES: dict[str, dict[str, BotFactory]] = {
    "mezha": {"random": _random, "easy": _mezha_easy, "hard": _mezha_hard},
}


def bot_levels(game_slug: str) -> tuple[str, ...]:
    """The levels :func:`make_bot` knows for ``game_slug``; KeyError for an unknown game."""
    return tuple(_FACTORIES[game_slug])


def make_bot(game_slug: str, level: str, *, think_seconds: float | None = None) -> Bot:
    """A fresh bot for ``game_slug`` at ``level``.

    ``think_seconds`` bounds a searching bot's wall-clock time per decision (ignored by the others; None
    means the level's default). Raises KeyError for an unknown game or level.
    """
    levels = _FACTORIES.get(game_slug)
    if levels is None:
        raise KeyError(f"no bots for game {game_slug!r}")
    factory = levels.get(level)
    if factory is None:
        raise KeyError(f"no bot level {level!r} for game {game_slug!r}")
    return factory(think_seconds)
