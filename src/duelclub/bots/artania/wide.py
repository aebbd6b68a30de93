"""Артания и Куявия's experimental level ``expert`` (issue 27): :class:`WideRolloutBot`, ``hard``'s paired
whole-match rollouts (``bots/artania/__init__.py``) spread over *every* candidate and a playout budget sized
to the think budget, in two phases (successive halving).

The old ``master`` (now ``rollout_master``; ``master`` is this bot since issue 27) runs 48 rounds over the
heuristic's 5 best placements and keeps the economical choice unless another candidate beats it by 2 standard
errors: 0.07 s of CPU per decision on average, a twentieth of the budget (median ≤ 1.5 s). A playout costs
about 0.3 ms, so a decision may afford ~3,000 of them.

1. **Screen.** Every candidate — all legal placements of the step (at most ~20), or every window action —
   plays ``screen_share · playouts / len(candidates)`` paired rounds (at least :data:`MIN_ROUNDS`; each round
   one determinization, every candidate on it, as ``hard`` does).
2. **Final.** The ``keep`` best by mean reward and the economical choice play the rest of the playouts on
   *fresh* determinizations, and only these rounds decide (the screen's winners are biased upwards by the
   selection). The economical choice stands unless another survivor beats it by more than ``margin`` mean
   paired reward and ``z`` standard errors (:func:`overruling_by`).

The reward of a playout is ``hard``'s: result (1 / ½ / 0) + 0.1 × final token lead / 5.

**Work cap.** A playout from the first turns plays ~110 actions, one near the end a few, so a fixed count
of playouts costs ~3 s of CPU in the first decisions and a fraction of that later. ``max_steps`` caps the
actions all playouts of a decision may play (the screen ``screen_share`` of it, the final the rest): it
bounds the CPU time per decision without a clock and binds only in the long early decisions. The rounds
(``bots/paired.py``) stop between determinizations.

Deterministic for a given rng when ``time_budget`` is None (the ladder plays by the work caps); with a clock
the rounds stop between determinizations and a phase always runs at least one round.
"""

from __future__ import annotations

import random
import time
from typing import Any

from duelclub.bots.base import AnyGame, legal_or_raise
from duelclub.bots.paired import Rollout, column_means, overruling_by, paired_rounds
from duelclub.games.contract import Seat

EXPERT_PLAYOUTS = 1200
"""Playouts per searched decision (both phases): ~0.5 s of CPU at the median on one core of the (loaded)
benchmark machine."""

EXPERT_KEEP = 3
"""Candidates (besides the economical choice) that go on from the screen to the final phase."""

EXPERT_SCREEN_SHARE = 0.5
"""Share of the playouts the screen uses."""

EXPERT_MARGIN = 0.02
"""Least mean paired reward advantage over the economical choice in the final phase."""

EXPERT_Z = 1.5
"""... and the least advantage in standard errors of the paired differences."""

MIN_ROUNDS = 12
"""Fewest rounds of either phase (a decision with many candidates then costs more than ``playouts``)."""

__all__ = ["WideRolloutBot", "overruling_by"]


class WideRolloutBot:
    """``expert``: two-phase paired rollouts over every candidate (module docstring).

    ``last_playouts`` and ``last_steps`` are the last decision's counts of playouts and of the actions they
    played.
    """

    def __init__(
        self,
        level: str,
        *,
        playouts: int = EXPERT_PLAYOUTS,
        keep: int = EXPERT_KEEP,
        screen_share: float = EXPERT_SCREEN_SHARE,
        margin: float = EXPERT_MARGIN,
        z: float = EXPERT_Z,
        max_steps: int | None = None,
        time_budget: float | None = None,
        playout: Rollout,
    ) -> None:
        self.level = level
        self._playout = playout
        """The rollout to the end of the match (bots/artania ``counted_playout``), passed in: no import
        back."""
        self.playouts = playouts
        self.keep = keep
        self.screen_share = screen_share
        self.margin = margin
        self.z = z
        self.max_steps = max_steps
        self.time_budget = time_budget
        self.last_playouts = 0
        self.last_steps = 0

    def candidates(self, state: Any, seat: Seat, legal: list[Any]) -> tuple[list[Any], int]:
        """(every action searched, the index of the economical policy's choice among them)."""
        from duelclub.bots.artania.heuristics import economical_move, ranked_placements
        from duelclub.games.artania.actions import place_action

        base = economical_move(state, seat)
        if state.step % 2 == 0:
            cands = list(legal)
        else:
            cands = [place_action(cards) for _, cards in ranked_placements(state, seat)]
        if base not in cands:
            cands.append(base)
        return cands, cands.index(base)

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """The economical choice, or a survivor that clearly beats it (module docstring); ValueError if
        ``seat`` is not to move."""
        start = time.perf_counter()
        legal = legal_or_raise(game, state, seat)
        self.last_playouts = self.last_steps = 0
        if len(legal) == 1:
            return legal[0]
        cands, base = self.candidates(state, seat, legal)
        if len(cands) == 1:
            return cands[0]
        half = None if self.time_budget is None else start + self.time_budget * self.screen_share
        cap = None if self.max_steps is None else round(self.max_steps * self.screen_share)
        screen_rounds = max(MIN_ROUNDS, round(self.playouts * self.screen_share / len(cands)))
        screen = self._rounds(game, state, seat, cands, screen_rounds, rng, half, cap)
        means = column_means(screen)
        order = sorted(range(len(cands)), key=lambda i: -means[i])
        alive = [base, *[i for i in order if i != base][: self.keep]]
        final_rounds = max(MIN_ROUNDS, round(self.playouts * (1 - self.screen_share) / len(alive)))
        end = None if self.time_budget is None else start + self.time_budget
        cap = None if self.max_steps is None else self.max_steps - self.last_steps
        final = self._rounds(game, state, seat, [cands[i] for i in alive], final_rounds, rng, end, cap)
        return cands[alive[overruling_by(final, 0, self.margin, self.z)]]

    def _rounds(
        self,
        game: AnyGame,
        state: Any,
        seat: Seat,
        cands: list[Any],
        rounds: int,
        rng: random.Random,
        deadline: float | None,
        max_steps: int | None,
    ) -> list[list[float]]:
        """``bots.paired.paired_rounds`` with this bot's playout, counted into ``last_playouts`` and
        ``last_steps``."""
        rows, steps = paired_rounds(
            game, state, seat, cands, rng, self._playout, rounds=rounds, max_work=max_steps, deadline=deadline
        )
        self.last_playouts += len(rows) * len(cands)
        self.last_steps += steps
        return rows
