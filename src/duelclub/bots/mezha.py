"""Межа's bot levels (rules/mezha.md): ``easy`` — the rule-based heuristic of ``games/mezha/bot.py``;
``hard`` — SO-ISMCTS (``bots/ismcts.py``) with that heuristic as its rollout policy for both seats."""

from __future__ import annotations

from duelclub.bots.base import Bot, LevelFactory
from duelclub.bots.ismcts import IsmctsBot, SearchConfig
from duelclub.bots.random_bot import RandomBot

HARD_THINK_SECONDS = 0.8
"""Default wall-clock budget of a ``hard`` decision, in seconds (the target is <= 1.5 s on one core)."""

HARD_MAX_ITERATIONS = 4000
"""Iteration cap of a ``hard`` decision (determinizations searched)."""


def _easy(think_seconds: float | None) -> Bot:
    from duelclub.games.mezha.bot import EasyBot

    return EasyBot("easy")


def _hard(think_seconds: float | None) -> Bot:
    from duelclub.games.mezha.bot import heuristic_action

    budget = HARD_THINK_SECONDS if think_seconds is None else think_seconds
    config = SearchConfig(time_budget=budget, max_iterations=HARD_MAX_ITERATIONS)
    return IsmctsBot("hard", config, rollout=heuristic_action)


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {"random": _random, "easy": _easy, "hard": _hard}
"""Level → factory; the lobby offers the game's ``bot_levels`` (easy, hard)."""
