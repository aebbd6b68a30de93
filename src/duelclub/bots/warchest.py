"""Сундук войны bot levels (games/warchest/bot.py): ``easy`` — one-ply greedy on a determinization;
``hard`` — information-set Monte Carlo search (determinize per iteration) over easy's best actions."""

from __future__ import annotations

from duelclub.bots.base import Bot, LevelFactory
from duelclub.bots.random_bot import RandomBot

HARD_THINK_SECONDS = 1.5
"""Wall-clock cap of a ``hard`` decision (the issue's bound is 2 s on one core)."""

HARD_ITERATIONS = 48
"""Determinized playouts per ``hard`` decision (each plays 4 plies with the easy policy for both sides):
the real budget, so strength does not depend on the machine load."""


def _easy(think_seconds: float | None) -> Bot:
    from duelclub.games.warchest.bot import EasyBot

    return EasyBot("easy")


def _hard(think_seconds: float | None) -> Bot:
    from duelclub.games.warchest.bot import HardBot

    budget = HARD_THINK_SECONDS if think_seconds is None else think_seconds
    return HardBot("hard", budget, max_iterations=HARD_ITERATIONS, horizon=4, greedy=True)


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {"random": _random, "easy": _easy, "hard": _hard}
