"""Сундук войны bot levels (games/warchest/bot.py): ``easy`` — one-ply greedy on a determinization;
``hard`` — information-set Monte Carlo search (determinize per iteration) over easy's best actions."""

from __future__ import annotations

from duelclub.bots.base import Bot, LevelFactory
from duelclub.bots.random_bot import RandomBot

HARD_THINK_SECONDS = 0.25
"""Default wall-clock budget of a ``hard`` decision (the issue's bound is 2 s on one core)."""


def _easy(think_seconds: float | None) -> Bot:
    from duelclub.games.warchest.bot import EasyBot

    return EasyBot("easy")


def _hard(think_seconds: float | None) -> Bot:
    from duelclub.games.warchest.bot import HardBot

    return HardBot("hard", HARD_THINK_SECONDS if think_seconds is None else think_seconds)


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {"random": _random, "easy": _easy, "hard": _hard}
