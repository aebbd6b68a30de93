"""Межа's bot levels (rules/mezha.md, the ladder of bots/levels.py): ``light`` (old ``easy``) — the
rule-based heuristic of ``bots/mezha/heuristics.py``, ``novice`` the same with random mistakes; the search
levels — SO-ISMCTS (``bots/ismcts.py``) with that heuristic as its rollout policy, or the wide paired
rollouts of ``bots/mezha/wide.py`` — by their **work caps** (:data:`LEVEL_PARAMS`), the clock only a safety
ceiling (issue 27: a level thinking by the clock is as strong as the machine is idle, so no ladder could
rate it)."""

from __future__ import annotations

import tomllib
from functools import partial
from pathlib import Path

from duelclub.bots.base import Bot, LevelFactory
from duelclub.bots.ismcts import IsmctsBot, SearchConfig
from duelclub.bots.levels import BlunderBot, Params, think_budget
from duelclub.bots.random_bot import RandomBot

LEVELS_FILE = Path(__file__).with_name("levels.toml")
"""The levels' parameters, one table a level in ladder order, with the reasons for their spacing."""

LEVEL_PARAMS: dict[str, Params] = tomllib.loads(LEVELS_FILE.read_text(encoding="utf-8"))
"""The ladder (bots/levels.py) as data, read from :data:`LEVELS_FILE`: ``heuristic`` (``blunder``: share of
random moves), ``search`` (SO-ISMCTS with the heuristic rollouts, ``iterations`` determinizations per
decision) or ``wide`` (:class:`~duelclub.bots.mezha.wide.WideRolloutBot`: ``playouts`` rollouts and at most
``max_steps`` rollout actions per decision); ``think`` is the wall-clock safety ceiling in seconds. ``light``
is the old ``easy``, ``strong`` the old ``hard``. A data file, not code, so that the ladder restarts only the
pairs of a level whose parameters change (``benchmarks/bot_ladder.py`` ``fingerprint``)."""


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
