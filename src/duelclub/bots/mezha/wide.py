"""Межа's wide rollout search (issue 27): paired whole-match rollouts over *every* legal action, the
method of Артания's ``master`` (``bots/artania/wide.py``), with Межа's heuristic as the rollout policy.

A decision with more than one legal action (rules/mezha.md §Decision points: each distinct card × each field
where it may go, and pass — at most ~31) is searched in two phases (successive halving):

1. **Screen.** Every candidate plays ``screen_share · playouts / len(candidates)`` paired rounds (at least
   :data:`MIN_ROUNDS`). A round samples one determinization (``game.determinize``: the opponent's hand,
   both deck orders and the later omens re-dealt from what the seat may see), plays each candidate on its own
   copy and rolls the match out to its end with :func:`heuristic_action` for both seats (common random
   numbers: every candidate meets the same deal).
2. **Final.** The ``keep`` best by mean reward and the heuristic's own choice play the rest on fresh
   determinizations, and only these rounds decide: the heuristic's choice stands unless another survivor
   beats it by more than ``margin`` mean paired reward and ``z`` standard errors (``bots.paired``).

The reward of a rollout is the match result (1 / ½ / 0) plus :data:`MARGIN_WEIGHT` × the lead in won
seasons / 2, which separates candidates whose rollouts all win (or all lose).

**Work caps, the clock only a safety.** ``playouts`` bounds the rollouts and ``max_steps`` the actions they
may play in all (the screen ``screen_share`` of it, the final the rest): a rollout from a season's first turn
plays ~30 actions, one near the end a few, so the step cap binds in the early decisions and keeps the CPU
time per decision bounded without a clock. With ``time_budget`` None the bot is deterministic for a given
rng (the ladder plays so); with a clock the rounds stop between determinizations.
"""

from __future__ import annotations

import random
import time
from functools import partial
from typing import Any

from duelclub.bots.base import AnyGame, legal_or_raise
from duelclub.bots.paired import column_means, overruling_by, paired_rounds
from duelclub.games.contract import Seat

MARGIN_WEIGHT = 0.1
"""Weight of the final lead in won seasons (/ 2) in a rollout's reward, next to the match result."""

MIN_ROUNDS = 6
"""Fewest rounds of either phase (a decision with many candidates then costs more than ``playouts``)."""


def rollout(game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> tuple[float, int]:
    """Play ``state`` (a determinization, mutated) to the end with the heuristic for both seats (the pause's
    ``next_season`` from the lower seat); (``seat``'s reward — module docstring —, actions played)."""
    from duelclub.bots.mezha.heuristics import heuristic_action

    steps = 0
    while state.outcome is None:
        mover = min(game.to_move(state))
        actions = game.legal_actions(state, mover)
        action = actions[0] if len(actions) == 1 else heuristic_action(game, state, mover, actions, rng)
        game.apply(state, mover, action)
        steps += 1
    winner = state.outcome.winner
    result = 0.5 if winner is None else float(winner == seat)
    lead: int = state.wins[seat] - state.wins[1 - seat]
    return result + MARGIN_WEIGHT * lead / 2, steps


class WideRolloutBot:
    """Two-phase paired rollouts over every legal action (module docstring).

    ``last_playouts`` and ``last_steps`` are the last decision's counts of rollouts and of the actions they
    played.
    """

    def __init__(
        self,
        level: str,
        *,
        playouts: int,
        max_steps: int,
        keep: int = 3,
        screen_share: float = 0.5,
        margin: float = 0.02,
        z: float = 1.5,
        time_budget: float | None = None,
    ) -> None:
        self.level = level
        self.playouts = playouts
        self.max_steps = max_steps
        self.keep = keep
        self.screen_share = screen_share
        self.margin = margin
        self.z = z
        self.time_budget = time_budget
        self.last_playouts = 0
        self.last_steps = 0

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """The heuristic's choice, or a survivor that clearly beats it (module docstring); ValueError if
        ``seat`` is not to move. A single legal action (the pause's ``next_season``) is not searched."""
        from duelclub.bots.mezha.heuristics import heuristic_action

        start = time.perf_counter()
        legal = legal_or_raise(game, state, seat)
        self.last_playouts = self.last_steps = 0
        if len(legal) == 1:
            return legal[0]
        cands = list(legal)
        base = cands.index(heuristic_action(game, state, seat, legal, rng))
        play = partial(rollout, rng=rng)
        half = None if self.time_budget is None else start + self.time_budget * self.screen_share
        cap = round(self.max_steps * self.screen_share)
        rounds = max(MIN_ROUNDS, round(self.playouts * self.screen_share / len(cands)))
        screen = self._rounds(game, state, seat, cands, rounds, rng, play, half, cap)
        means = column_means(screen)
        order = sorted(range(len(cands)), key=lambda i: -means[i])
        alive = [base, *[i for i in order if i != base][: self.keep]]
        rounds = max(MIN_ROUNDS, round(self.playouts * (1 - self.screen_share) / len(alive)))
        end = None if self.time_budget is None else start + self.time_budget
        cap = self.max_steps - self.last_steps
        final = self._rounds(game, state, seat, [cands[i] for i in alive], rounds, rng, play, end, cap)
        return cands[alive[overruling_by(final, 0, self.margin, self.z)]]

    def _rounds(
        self,
        game: AnyGame,
        state: Any,
        seat: Seat,
        cands: list[Any],
        rounds: int,
        rng: random.Random,
        play: Any,
        deadline: float | None,
        max_steps: int,
    ) -> list[list[float]]:
        """``bots.paired.paired_rounds`` counted into ``last_playouts`` and ``last_steps``."""
        rows, steps = paired_rounds(
            game, state, seat, cands, rng, play, rounds=rounds, max_work=max(max_steps, 0), deadline=deadline
        )
        self.last_playouts += len(rows) * len(cands)
        self.last_steps += steps
        return rows
