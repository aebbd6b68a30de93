"""Межа's bot levels (rules/mezha.md, the ladder of bots/levels.py): ``light`` (old ``easy``) — the
rule-based heuristic of ``bots/mezha/heuristics.py``, ``novice`` the same with random mistakes; the search
levels — SO-ISMCTS (``bots/ismcts.py``) with that heuristic as its rollout policy, or the wide paired
rollouts of ``bots/mezha/wide.py`` — by their **work caps** (:data:`LEVEL_PARAMS`), the clock only a safety
ceiling (issue 27: a level thinking by the clock is as strong as the machine is idle, so no ladder could
rate it)."""

from __future__ import annotations

from functools import partial

from duelclub.bots.base import Bot, LevelFactory
from duelclub.bots.ismcts import IsmctsBot, SearchConfig
from duelclub.bots.levels import BlunderBot, Params, think_budget
from duelclub.bots.random_bot import RandomBot

SAFETY_THINK_SECONDS = 2.8
"""Wall-clock ceiling of every search level (the issue's 3 s maximum less a margin): the work caps bind
first on a machine that is not overloaded."""

MEDIUM_THINK_SECONDS = 1.5
"""Wall-clock ceiling of ``medium`` (100 ISMCTS iterations take ~0.07 s of CPU, at most ~0.2 s)."""

LEVEL_PARAMS: dict[str, Params] = {
    "novice": {"kind": "heuristic", "blunder": 0.5},
    "light": {"kind": "heuristic", "blunder": 0.15},
    "medium": {"kind": "search", "think": MEDIUM_THINK_SECONDS, "iterations": 60},
    "strong": {"kind": "wide", "think": SAFETY_THINK_SECONDS, "playouts": 100, "max_steps": 2000},
    "master": {"kind": "wide", "think": SAFETY_THINK_SECONDS, "playouts": 1600, "max_steps": 32000},
}
"""The ladder (bots/levels.py) as data: ``heuristic`` (``blunder``: share of random moves), ``search``
(SO-ISMCTS with the heuristic rollouts, ``iterations`` determinizations per decision) or ``wide``
(:class:`~duelclub.bots.mezha.wide.WideRolloutBot`: ``playouts`` rollouts and at most ``max_steps``
rollout actions per decision); ``think`` is the wall-clock safety ceiling. ``light`` is the old ``easy``,
``strong`` the old ``hard``.

**Spacing (issue 27 §2, 2026-12-07).** With 300 playouts ``strong`` was too close to ``master`` (0.604 over
163 ladder matches), and with 200 as well (0.613 over 120): the wide search flattens out above ~150
playouts. So every level below ``master`` moved down, by the duels of ``bots/mezha/trials.py`` (100 matches a
pair unless said): ``strong`` 100 playouts (0.685 against ``medium``'s 60 iterations; ``master`` against it
0.695 over 41), ``medium`` 60 iterations (0.746 over 65 against ``light``'s 15 % random moves), ``light``
15 % (0.700 against ``novice``'s 50 %), ``novice`` 50 % (0.820 against random). ``master`` against this
``strong`` over 300 ladder matches is the figure that decides (``bot_ladder.py mezha --pair master
strong``)."""


def build(level: str, params: Params, think_seconds: float | None = None, *, timed: bool = True) -> Bot:
    """The bot of one level from its ``params`` (see :data:`LEVEL_PARAMS`)."""
    from duelclub.bots.mezha.heuristics import EasyBot, heuristic_action

    if params["kind"] == "heuristic":
        easy = EasyBot(level)
        return BlunderBot(level, easy, params["blunder"]) if params.get("blunder") else easy
    budget = think_budget(params, think_seconds, timed)
    if params["kind"] == "wide":
        from duelclub.bots.mezha.wide import WideRolloutBot

        return WideRolloutBot(
            level, playouts=int(params["playouts"]), max_steps=int(params["max_steps"]), time_budget=budget
        )
    config = SearchConfig(time_budget=budget, max_iterations=int(params["iterations"]))
    return IsmctsBot(level, config, rollout=heuristic_action)


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {
    "random": _random,
    **{level: partial(build, level, params) for level, params in LEVEL_PARAMS.items()},
}
"""Level → factory; the lobby offers the game's ``bot_levels`` (bots/levels.py ``LEVEL_IDS``)."""
