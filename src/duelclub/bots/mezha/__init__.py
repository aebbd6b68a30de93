"""Межа's bot levels (rules/mezha.md, the ladder of bots/levels.py): ``light`` (old ``easy``) — the
rule-based heuristic of ``bots/mezha/heuristics.py``, ``novice`` the same with random mistakes; ``medium``,
``strong`` (old ``hard``) and ``master`` — SO-ISMCTS (``bots/ismcts.py``) with that heuristic as its rollout
policy for both seats, with growing budgets (:data:`LEVEL_PARAMS`)."""

from __future__ import annotations

from functools import partial

from duelclub.bots.base import Bot, LevelFactory
from duelclub.bots.ismcts import IsmctsBot, SearchConfig
from duelclub.bots.levels import BlunderBot, Params, think_budget
from duelclub.bots.random_bot import RandomBot

HARD_THINK_SECONDS = 0.8
"""Default wall-clock budget of a ``hard`` decision, in seconds (the target is <= 1.5 s on one core)."""

HARD_MAX_ITERATIONS = 4000
"""Iteration cap of a ``hard`` decision (determinizations searched)."""


LEVEL_PARAMS: dict[str, Params] = {
    "novice": {"kind": "heuristic", "blunder": 0.35},
    "light": {"kind": "heuristic"},
    "medium": {"kind": "search", "think": 0.4, "iterations": 400},
    "strong": {"kind": "search", "think": HARD_THINK_SECONDS, "iterations": HARD_MAX_ITERATIONS},
    "master": {"kind": "search", "think": 1.3, "iterations": 8000},
}
"""The ladder (bots/levels.py) as data: ``heuristic`` (``blunder``: share of random moves) or SO-ISMCTS with
the heuristic rollouts (``think`` seconds, ``iterations`` cap). ``light`` is the old ``easy``, ``strong``
the old ``hard``."""


def build(level: str, params: Params, think_seconds: float | None = None, *, timed: bool = True) -> Bot:
    """The bot of one level from its ``params`` (see :data:`LEVEL_PARAMS`)."""
    from duelclub.bots.mezha.heuristics import EasyBot, heuristic_action

    if params["kind"] == "heuristic":
        easy = EasyBot(level)
        return BlunderBot(level, easy, params["blunder"]) if params.get("blunder") else easy
    budget = think_budget(params, think_seconds, timed)
    config = SearchConfig(time_budget=budget, max_iterations=int(params["iterations"]))
    return IsmctsBot(level, config, rollout=heuristic_action)


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {
    "random": _random,
    **{level: partial(build, level, params) for level, params in LEVEL_PARAMS.items()},
}
"""Level → factory; the lobby offers the game's ``bot_levels`` (bots/levels.py ``LEVEL_IDS``)."""
