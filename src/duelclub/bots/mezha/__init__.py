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

HARD_THINK_SECONDS = 1.2
"""Wall-clock cap of a ``hard`` decision, in seconds: a safety net that binds only on an overloaded server."""

HARD_MAX_ITERATIONS = 900
"""Iterations of a ``hard`` decision (determinizations searched): its strength. ``hard`` used to search for
0.8 s of wall clock, ~900 iterations on one idle core of the club's machine (1,100 a CPU-second); a count,
unlike a clock, plays the same on a busy or a quiet machine (the ladder, benchmarks/bot_ladder.py, measures
levels by their counts)."""


LEVEL_PARAMS: dict[str, Params] = {
    "novice": {"kind": "heuristic", "blunder": 0.35},
    "light": {"kind": "heuristic"},
    "medium": {"kind": "search", "think": 0.8, "iterations": 250},
    "strong": {"kind": "search", "think": HARD_THINK_SECONDS, "iterations": HARD_MAX_ITERATIONS},
    "master": {"kind": "search", "think": 1.5, "iterations": 2000},
}
"""The ladder (bots/levels.py) as data: ``heuristic`` (``blunder``: share of random moves) or SO-ISMCTS with
the heuristic rollouts (``iterations`` per decision: the level's strength; ``think`` seconds: the wall-clock
cap, which binds only on a busy machine). ``light`` is the old ``easy``, ``strong`` the old ``hard``."""


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
