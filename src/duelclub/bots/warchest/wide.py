"""Сундук войны's wide level on trial (issue 27): :class:`WideHorizonBot`, paired rollouts over *every* legal
action, cut at a horizon and scored by the static evaluation, in two phases (successive halving).

``strong`` (``hard``, bots/warchest/__init__.py) grows an SO-ISMCTS tree over the easy ranking's 6 best
actions, 6 plies deep; more iterations (the old ``master``: 240 instead of 100, root width 8) bought nothing
on the ladder (1617 against 1619 Elo). Its leaves are the static evaluation 6 plies on, a round of coins
is 6 plays or more, and the easy ranking (one ply) prunes the root before the search sees it. This level
searches differently, as Артания's ``master`` does (bots/artania/wide.py):

1. **Screen.** Every legal action plays ``screen_rounds`` paired rounds (bots/paired.py): each round one
   determinization of what the seat cannot see (``game.determinize``), every candidate applied to its own
   copy and rolled out :data:`HORIZON` plies with easy's one-ply policy for both sides (common random
   numbers: the candidates meet the same deal and the same bag draws).
2. **Final.** The ``keep`` best by mean reward and easy's own choice play the rest of the budget on *fresh*
   determinizations; only these rounds decide. Easy's choice stands unless a survivor beats it by ``margin``
   mean paired reward and ``z`` standard errors (:func:`~duelclub.bots.paired.overruling_by`).

Reward of a rollout: 1 / ½ / 0 when the match ends inside the horizon, else the logistic of the static
evaluation (``evaluate / EVAL_SCALE``, as ``strong`` scores its leaves). A rollout ply costs ~0.3 ms of
CPU (easy's policy evaluates every legal action), so a decision affords a few thousand plies.

**Work cap.** ``max_steps`` caps the rollout plies of a decision (the screen ``screen_share`` of it, the
final the rest), checked between rounds (bots/paired.py): it bounds CPU time without a clock, so a seeded
bot without a clock (the ladder, ``timed=False``) is deterministic; ``time_budget`` is a wall-clock ceiling
on top for a loaded machine. The draft is not searched (``fitted_draft_pick``, as ``strong``).
"""

from __future__ import annotations

import math
import random
import time
from functools import partial
from typing import Any

from duelclub.bots.base import AnyGame, legal_or_raise
from duelclub.bots.paired import column_means, overruling_by, paired_rounds
from duelclub.games.contract import Seat

HORIZON = 12
"""Rollout plies (actions of either side, pending decisions included) after the candidate."""

EVAL_SCALE = 8.0
"""Evaluation points per unit of the logistic reward (as ``strong``'s leaves)."""

MIN_ROUNDS = 3
"""Fewest paired rounds of either phase."""

WIN_NOW = 900.0
"""Easy's one-ply score of an action that wins the match at once (a won match evaluates to 1000)."""


def greedy_action(s: Any, side: int, actions: list[Any], rng: random.Random) -> Any:
    """Easy's one-ply choice on the full (determinized) state ``s``: the best ``evaluate`` after the action,
    ties broken by noise of 0.05 points."""
    from duelclub.bots.warchest.heuristics import evaluate, play

    best, best_score = actions[0], -math.inf
    for a in actions:
        c = s.copy()
        play(c, side, a)
        score = evaluate(c, side) + rng.random() * 0.05
        if score > best_score:
            best, best_score = a, score
    return best


def horizon_rollout(
    game: AnyGame, s: Any, seat: Seat, *, horizon: int, scale: float, rng: random.Random
) -> tuple[float, int]:
    """(``seat``'s reward, plies played): ``s`` (a determinization, mutated) rolled out ``horizon`` plies by
    :func:`greedy_action` for both sides; reward 1 / ½ / 0 if the match ended, else
    σ(evaluate(s, seat's side) / scale)."""
    from duelclub.bots.warchest.heuristics import evaluate, play
    from duelclub.games.warchest import engine

    steps = 0
    while s.outcome is None and steps < horizon:
        side = engine.to_move_side(s)
        assert side is not None  # the match goes on
        actions = engine.legal(s, side)
        action = actions[0] if len(actions) == 1 else greedy_action(s, side, actions, rng)
        play(s, side, action)
        steps += 1
    if s.outcome is not None:
        winner = s.outcome.winner
        return (0.5 if winner is None else float(winner == seat)), steps
    value = evaluate(s, s.side_of(seat)) / scale
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, value)))), steps


class WideHorizonBot:
    """The wide level (module docstring). ``last_playouts`` / ``last_steps``: the last decision's rollouts
    and the plies they played."""

    def __init__(
        self,
        level: str,
        *,
        playouts: int,
        max_steps: int,
        horizon: int = HORIZON,
        keep: int = 3,
        screen_share: float = 0.5,
        margin: float = 0.005,
        z: float = 1.0,
        time_budget: float | None = None,
    ) -> None:
        self.level = level
        self.playouts = playouts
        self.max_steps = max_steps
        self.horizon = horizon
        self.keep = keep
        self.screen_share = screen_share
        self.margin = margin
        self.z = z
        self.time_budget = time_budget
        self.last_playouts = 0
        self.last_steps = 0

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """Easy's choice, or a survivor that beats it in the final rounds; a won match at once is taken
        unsearched; ValueError if ``seat`` is not to move."""
        from duelclub.bots.warchest.heuristics import fitted_draft_pick, ranked
        from duelclub.games.warchest.state import DRAFT

        start = time.perf_counter()
        legal = legal_or_raise(game, state, seat)
        self.last_playouts = self.last_steps = 0
        if len(legal) == 1:
            return legal[0]
        if state.phase == DRAFT:
            return fitted_draft_pick(state, legal, rng)
        det = game.determinize(state, seat, rng)
        first = ranked(det, det.side_of(seat), legal, rng)
        if first[0][0] >= WIN_NOW:
            return first[0][1]
        cands = [a for _, a in first]  # easy's choice first: index 0 is the base
        rollout = partial(
            horizon_rollout, horizon=self.horizon, scale=EVAL_SCALE, rng=random.Random(rng.random())
        )
        half = None if self.time_budget is None else start + self.time_budget * self.screen_share
        cap = round(self.max_steps * self.screen_share)
        rounds = max(MIN_ROUNDS, round(self.playouts * self.screen_share / len(cands)))
        screen = self._rounds(game, state, seat, cands, rounds, rng, rollout, half, cap)
        means = column_means(screen)
        order = sorted(range(1, len(cands)), key=lambda i: -means[i])
        alive = [0, *order[: self.keep]]
        rounds = max(MIN_ROUNDS, round(self.playouts * (1 - self.screen_share) / len(alive)))
        end = None if self.time_budget is None else start + self.time_budget
        final = self._rounds(
            game,
            state,
            seat,
            [cands[i] for i in alive],
            rounds,
            rng,
            rollout,
            end,
            self.max_steps - self.last_steps,
        )
        return cands[alive[overruling_by(final, 0, self.margin, self.z)]]

    def _rounds(
        self,
        game: AnyGame,
        state: Any,
        seat: Seat,
        cands: list[Any],
        rounds: int,
        rng: random.Random,
        rollout: Any,
        deadline: float | None,
        max_steps: int,
    ) -> list[list[float]]:
        """``paired_rounds`` counted into ``last_playouts`` / ``last_steps``."""
        rows, steps = paired_rounds(
            game, state, seat, cands, rng, rollout, rounds=rounds, max_work=max_steps, deadline=deadline
        )
        self.last_playouts += len(rows) * len(cands)
        self.last_steps += steps
        return rows
