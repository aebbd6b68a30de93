"""Дві вежі's bot levels (rules/towers.md): ``easy`` — the greedy heuristic of ``games/towers/bot.py``;
``hard`` — SO-ISMCTS (``bots/ismcts.py``) over determinizations, with that heuristic as the playout policy
for both seats and playouts cut after :data:`HARD_PLAYOUT_STEPS` actions and scored by its evaluator."""

from __future__ import annotations

from duelclub.bots.base import Bot, LevelFactory
from duelclub.bots.ismcts import IsmctsBot, SearchConfig
from duelclub.bots.random_bot import RandomBot

HARD_THINK_SECONDS = 1.0
"""Wall-clock cap of a ``hard`` decision, in seconds (the target is <= 1.5 s on one core)."""

HARD_MAX_ITERATIONS = 150
"""Iteration cap of a ``hard`` decision (determinizations searched): about 0.1 s of one core, so that the
benchmark's 200 matches per pairing stay within ~15 minutes of CPU; the time budget is the safety net."""

HARD_PLAYOUT_STEPS = 0
"""Actions played out after the tree before the evaluator scores the position: 0 — the evaluator scores the
newly expanded node at once (greedy playouts added noise and cost iterations in our trials)."""

HARD_EXPLORATION = 0.1
"""UCB1's ``c``: small, because the evaluator's rewards differ by a few hundredths between good moves."""

HARD_BIAS = 2.0
"""Progressive bias towards the heuristic's favourite moves (``bot.prior``)."""


def _easy(think_seconds: float | None) -> Bot:
    from duelclub.games.towers.bot import EasyBot

    return EasyBot("easy")


def _hard(think_seconds: float | None) -> Bot:
    from duelclub.games.towers.bot import evaluate, heuristic_action, prior

    budget = HARD_THINK_SECONDS if think_seconds is None else think_seconds
    config = SearchConfig(
        time_budget=budget,
        max_iterations=HARD_MAX_ITERATIONS,
        exploration=HARD_EXPLORATION,
        bias_weight=HARD_BIAS,
        max_playout_steps=HARD_PLAYOUT_STEPS,
    )
    return IsmctsBot("hard", config, rollout=heuristic_action, prior=prior, evaluator=evaluate)


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {"random": _random, "easy": _easy, "hard": _hard}
"""Level → factory; the lobby offers the game's ``bot_levels`` (easy, hard)."""
