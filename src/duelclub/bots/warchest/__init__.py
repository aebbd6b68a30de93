"""Сундук войны bot levels (rules/warchest.md, bots/warchest/heuristics.py; the ladder of bots/levels.py,
:data:`LEVEL_PARAMS`: ``easy`` is now ``light`` — ``novice`` adds random mistakes —, ``hard`` is ``strong`` —
``medium`` searches with a smaller budget —, and ``master`` is the wide search of ``bots/warchest/wide.py``,
issue 27).

- ``easy`` — one-ply greedy on one determinization (``bots/warchest/heuristics.py``);
- ``hard`` — SO-ISMCTS (``bots/ismcts.py``) over ``determinize``, cut ``HORIZON`` plies below the root
  and scored by the static evaluation (a logistic of ``evaluate``); a won or lost match inside the horizon
  scores 1 or 0. Every node considers only the easy ranking's best actions (``ROOT_WIDTH`` at the root,
  ``WIDTH`` below it, ranked on that iteration's determinization), the ranking's scores give the progressive
  bias, and playouts below the tree follow easy's policy for both sides. See :class:`Horizon`.
  The draft is not searched: ``hard`` picks by unit values fitted on 3000 self-play matches
  (``DRAFT_LOGIT`` in bots/warchest/heuristics.py, reproduced by ``benchmarks/warchest_bots.py --fit-draft``).
  Rolling a draft out to the end of a match costs ~0.04 s per match, and telling two picks apart needs
  hundreds of matches (the fitted unit effects are a few percent of win rate each), so a search inside a
  2-second decision measures noise; the fitted values are the same estimate made once, offline, from
  thousands of matches. With additive values shared by both sides, greedy picking is optimal for both in any
  pick order, so a look-ahead over the opponent's remaining picks would choose the same type.
"""

from __future__ import annotations

import math
import random
import tomllib
from functools import partial
from pathlib import Path
from typing import Any

from duelclub.bots.base import AnyGame, Bot, LevelFactory
from duelclub.bots.ismcts import IsmctsBot, SearchConfig
from duelclub.bots.levels import BlunderBot, Params, think_budget
from duelclub.bots.random_bot import RandomBot
from duelclub.games.contract import Outcome, Seat
from duelclub.games.warchest.game import WarchestGame

HARD_THINK_SECONDS = 1.0
"""Wall-clock cap of a ``hard`` decision (the issue's bound is 2 s on one core)."""

HARD_MAX_ITERATIONS = 100
"""Iteration cap of a ``hard`` decision (determinizations searched): the real budget on an idle machine,
so strength barely depends on the load; the wall-clock cap only binds on a busy one."""

HORIZON = 6
"""Plies (actions of either side, pending decisions included) below the root before a simulation is scored."""

ROOT_WIDTH = 6
"""Actions searched at the root: the easy ranking's best ones on each determinization."""

WIDTH = 3
"""Actions searched at deeper nodes (the ranking's best ones; the first is the playout policy's choice)."""

BIAS_WEIGHT = 0.5
"""Progressive bias towards the easy ranking (``w * prior / (visits + 1)``, prior in (0, 1])."""

PRIOR_SCALE = 4.0
"""Evaluation points per e-fold of the prior: prior = exp((score - best score) / PRIOR_SCALE)."""

EVAL_SCALE = 8.0
"""Evaluation points per unit of the logistic reward (one control marker is worth 12 points)."""

HORIZON_OUTCOME = Outcome(None, "horizon")


class Horizon(WarchestGame):
    """The game as ``hard`` searches it: over after ``horizon`` plies, actions cut to the easy ranking.

    ``legal_actions`` returns the best ``root_width`` / ``width`` actions of easy's one-ply ranking on the
    (determinized) state, best first, and remembers their scores for the prior; ``apply`` skips the
    engine's legality check (the actions come from ``legal_actions``). The ply counter is reset by
    ``determinize``, which starts every iteration.
    """

    def __init__(self, horizon: int, root_width: int, width: int, rng: random.Random) -> None:
        self.horizon = horizon
        self.root_width = root_width
        self.width = width
        self.rng = rng
        self.ply = 0
        self.scores: list[float] = []

    def determinize(self, state: Any, seat: Seat, rng: random.Random) -> Any:
        self.ply = 0
        return super().determinize(state, seat, rng)

    def legal_actions(self, state: Any, seat: Seat) -> list[Any]:
        from duelclub.bots.warchest.heuristics import ranked
        from duelclub.games.warchest import engine

        side = state.side_of(seat)
        actions = engine.legal(state, side)
        if len(actions) <= 1:
            self.scores = [0.0] * len(actions)
            return list(actions)
        best = ranked(state, side, actions, self.rng)
        best = best[: self.root_width if self.ply == 0 else self.width]
        self.scores = [score for score, _ in best]
        return [a for _, a in best]

    def apply(self, state: Any, seat: Seat, action: Any) -> list[Any]:  # the search reads no events
        from duelclub.bots.warchest.heuristics import play

        play(state, state.side_of(seat), action)
        self.ply += 1
        return []

    def outcome(self, state: Any) -> Outcome[Any] | None:  # the horizon's reason is no Warchest Reason
        result: Outcome[Any] | None = state.outcome
        if result is None and self.ply >= self.horizon:
            return HORIZON_OUTCOME
        return result


def ranking_prior(
    game: AnyGame, state: Any, seat: Seat, actions: list[Any], rng: random.Random
) -> list[float]:
    """Progressive bias: the easy ranking's scores of ``actions`` (just listed by ``Horizon``), scaled."""
    scores = game.scores if isinstance(game, Horizon) else []
    if len(scores) != len(actions):
        return [1.0] * len(actions)
    top = max(scores)
    return [math.exp(max(-20.0, (s - top) / PRIOR_SCALE)) for s in scores]


def first_action(game: AnyGame, state: Any, seat: Seat, actions: list[Any], rng: random.Random) -> Any:
    """Playout policy: easy's choice, which ``Horizon.legal_actions`` lists first."""
    return actions[0]


class _HorizonSearch(IsmctsBot):
    """SO-ISMCTS whose simulations stop at the horizon and are scored by the static evaluation."""

    def _playout(self, game: AnyGame, det: Any, rng: random.Random) -> dict[Seat, float]:
        scores = super()._playout(game, det, rng)
        if det.outcome is not None:
            return scores
        from duelclub.bots.warchest.heuristics import evaluate

        value = evaluate(det, det.side_of(0)) / EVAL_SCALE
        r0 = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, value))))
        return {0: r0, 1: 1.0 - r0}


class HardBot:
    """``hard``: drafts by ``fitted_draft_pick`` (heuristics.py), plays by SO-ISMCTS on a Horizon.

    The search is handed a determinization, never the real state, so even its root ranking sees only what
    the seat may know. An action that wins at once (easy's ranking scores it as a won match) is taken
    without searching.
    """

    def __init__(
        self,
        level: str = "hard",
        config: SearchConfig | None = None,
        *,
        horizon: int = HORIZON,
        root_width: int = ROOT_WIDTH,
        width: int = WIDTH,
    ) -> None:
        self.level = level
        self.config = config or SearchConfig(
            time_budget=HARD_THINK_SECONDS, max_iterations=HARD_MAX_ITERATIONS, bias_weight=BIAS_WEIGHT
        )
        self.horizon = horizon
        self.root_width = root_width
        self.width = width
        self.search = _HorizonSearch(level, self.config, rollout=first_action, prior=ranking_prior)

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """The searched action; ValueError if ``seat`` is not to move."""
        from duelclub.bots.warchest.heuristics import fitted_draft_pick, ranked
        from duelclub.games.warchest.state import DRAFT

        actions = game.legal_actions(state, seat)
        if not actions:
            raise ValueError(f"seat {seat} is not to move")
        if len(actions) == 1:
            return actions[0]
        if state.phase == DRAFT:
            return fitted_draft_pick(state, actions, rng)
        horizon = Horizon(self.horizon, self.root_width, self.width, random.Random(rng.random()))
        det = horizon.determinize(state, seat, rng)
        first = ranked(det, det.side_of(seat), actions, rng)
        if first[0][0] >= 900.0:  # a win now
            return first[0][1]
        return self.search.choose(horizon, det, seat, rng)


LEVELS_FILE = Path(__file__).with_name("levels.toml")
"""The levels' parameters, one table a level in ladder order (data, not code: the ladder restarts only the
pairs of a level whose table changes; ``benchmarks/bot_ladder.py`` ``fingerprint``)."""

LEVEL_PARAMS: dict[str, Params] = tomllib.loads(LEVELS_FILE.read_text(encoding="utf-8"))
"""The ladder (bots/levels.py) as data: easy's one-ply greedy (``blunder``: share of random moves),
:class:`HardBot` (``think`` seconds, ``iterations`` cap, ``root_width``) or
:class:`~duelclub.bots.warchest.wide.WideHorizonBot` (``wide``, below). ``light`` is the old ``easy``,
``strong`` the old ``hard``.

``master`` was the level on trial ``wide`` (issue 27): the old master (240 iterations of :class:`HardBot`,
now ``search_master``) was no stronger than ``strong`` (0.50 of 100 ladder matches). Against both
(``benchmarks/results/duel/warchest-wide.jsonl``, code of commit 549f928, the same choices as now; load
10–20): 39 matches, 0.821 (Wilson 95 % 0.673–0.910), 0.800 of 20 against the old master, 0.842 of 19 against
``strong`` (0.624–0.945); CPU per searched decision median 1.23 s, p90 1.54 s, max 2.24 s over 1,408
decisions. The issue's 300 matches against ``strong`` are still to play."""


EXPERIMENTAL_PARAMS: dict[str, Params] = {
    "wide": {"kind": "wide", "think": 2.5, "playouts": 600, "max_steps": 5000, "horizon": 12, "keep": 3},
    "search_master": {"kind": "search", "think": 1.3, "iterations": 240, "root_width": 8},
}
"""Levels on trial, built by :func:`build` but offered nowhere (not in :data:`LEVELS`): ``wide`` is
:class:`~duelclub.bots.warchest.wide.WideHorizonBot` (issue 27; now ``master``, kept under its trial name for
its log), paired rollouts over every legal action cut at ``horizon`` plies, at most ``playouts`` rollouts and
``max_steps`` rollout plies per decision (``think``: its wall-clock ceiling), measured by
``benchmarks/level_duel.py warchest wide search_master strong``; ``search_master`` is the ``master`` before
issue 27."""


def build(level: str, params: Params, think_seconds: float | None = None, *, timed: bool = True) -> Bot:
    """The bot of one level from its ``params`` (see :data:`LEVEL_PARAMS`)."""
    from duelclub.bots.warchest.heuristics import EasyBot

    if params["kind"] == "heuristic":
        easy = EasyBot(level)
        return BlunderBot(level, easy, params["blunder"]) if params.get("blunder") else easy
    if params["kind"] == "wide":
        from duelclub.bots.warchest.wide import WideHorizonBot

        return WideHorizonBot(
            level,
            playouts=int(params["playouts"]),
            max_steps=int(params["max_steps"]),
            horizon=int(params["horizon"]),
            keep=int(params["keep"]),
            time_budget=think_budget(params, think_seconds, timed),
        )
    config = SearchConfig(
        time_budget=think_budget(params, think_seconds, timed),
        max_iterations=int(params["iterations"]),
        bias_weight=BIAS_WEIGHT,
    )
    return HardBot(level, config, root_width=int(params.get("root_width", ROOT_WIDTH)))


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {
    "random": _random,
    **{level: partial(build, level, params) for level, params in LEVEL_PARAMS.items()},
}
"""Level → factory; the lobby offers the game's ``bot_levels`` (bots/levels.py ``LEVEL_IDS``)."""
