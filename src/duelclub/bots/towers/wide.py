"""Дві вежі's experimental level ``expert`` (issue 27): :class:`WideRolloutBot`, the idea of Артания's
``expert`` (``bots/artania/wide.py``) ported to towers — paired rollouts over *every* legal action with
common random numbers, in two phases, on top of ``master``'s determinized lookahead.

``master`` (:class:`~duelclub.bots.towers.LookaheadBot`, 48 samples) compares only the lookahead's 4 best
actions by 6-turn greedy rollouts, on the lookahead's own 48 determinizations, and uses about 0.25 s of CPU
per decision — a sixth of the budget.

1. **Lookahead.** ``master``'s lookahead (own turn, the opponent's worst reply on its sampled hand, our best
   card next turn; ``lookahead_samples`` determinizations) ranks the actions; its first choice is the *base*.
2. **Screen.** Every legal action plays ``screen_share · playouts / len(actions)`` paired rounds (at least
   :data:`MIN_ROUNDS`): each round is one fresh determinization and every action is played on it, then both
   seats follow ``easy``'s greedy policy (``heuristics.greedy_action``; the opponent on its sampled hand, the
   draws from the sampled pile) for ``turns`` turns each, and the position is scored by the fitted chance of
   our best card (``fitted.reply_value``; 1 / ½ / 0 once the match has ended). Same determinization and the
   same draws for every action: the differences between actions are paired.
3. **Final.** The ``keep`` best actions by screen mean and the base play the rest of the playouts on *fresh*
   determinizations, and only these rounds decide (the screen's winners are biased upwards by the
   selection). The base stands unless another survivor's mean paired gain over it is above ``margin`` and
   ``z`` standard errors (``bots.paired.overruling_by``). The rounds of both phases are
   ``bots.paired.paired_rounds``, the loop Артания's ``expert`` shares.

Deterministic for a given rng when ``time_budget`` is None (duels and the ladder play by the work caps);
with a clock, the lookahead may use :data:`LOOKAHEAD_SHARE` of it, the screen half of the rest, and each phase
stops between determinizations after at least one round. The bot reads only the state it is given: in play
that is its seat's determinized view (``level_duel.py`` and the bot worker pass ``game.determinize``'s).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from duelclub.bots.base import AnyGame, Bot, legal_or_raise
from duelclub.bots.paired import column_means, overruling_by, paired_rounds
from duelclub.bots.towers.fitted import reply_value
from duelclub.bots.towers.heuristics import greedy_action, terminal_chance
from duelclub.bots.towers.value import chance as value_chance
from duelclub.games.contract import Seat
from duelclub.games.towers.state import MAIN

EXPERT_PLAYOUTS = 640
"""Rollouts per searched decision over both phases (about 0.5 s of CPU at the median on one core of the
loaded benchmark machine, a third of the budget: the duel against ``master`` must fit in the session)."""

EXPERT_TURNS = 6
"""Turns of each seat a rollout plays before the fitted leaf scores it (``master``'s horizon)."""

EXPERT_LOOKAHEAD_SAMPLES = 48
"""Determinizations of the lookahead that picks the base (``master``'s)."""

EXPERT_KEEP = 3
EXPERT_SCREEN_SHARE = 0.5
EXPERT_MARGIN = 0.01
EXPERT_Z = 1.5

MIN_ROUNDS = 8
"""Fewest rounds of either phase."""

LOOKAHEAD_SHARE = 0.25
"""Share of the wall-clock budget the lookahead may use (when there is a clock)."""


class WideRolloutBot:
    """``expert`` for Дві вежі (module docstring). ``last_playouts`` counts the last decision's rollouts."""

    def __init__(
        self,
        level: str,
        *,
        playouts: int = EXPERT_PLAYOUTS,
        turns: int = EXPERT_TURNS,
        lookahead_samples: int = EXPERT_LOOKAHEAD_SAMPLES,
        keep: int = EXPERT_KEEP,
        screen_share: float = EXPERT_SCREEN_SHARE,
        margin: float = EXPERT_MARGIN,
        z: float = EXPERT_Z,
        time_budget: float | None = None,
        lookahead: Callable[..., Bot],
        leaf: str = "fitted",
        look_leaf: str = "fitted",
    ) -> None:
        if leaf not in ("fitted", "net"):
            raise ValueError(f"unknown rollout leaf {leaf!r}")
        self.leaf = leaf
        self.look_leaf = look_leaf
        self.level = level
        self._lookahead = lookahead
        """``LookaheadBot`` (bots/towers ``__init__``), passed in: no import back into the package."""
        self.playouts = playouts
        self.turns = turns
        self.lookahead_samples = lookahead_samples
        self.keep = keep
        self.screen_share = screen_share
        self.margin = margin
        self.z = z
        self.time_budget = time_budget
        self.last_playouts = 0

    def base_choice(
        self, game: AnyGame, state: Any, seat: Seat, rng: random.Random, budget: float | None
    ) -> Any:
        """The lookahead's first choice (``master``'s lookahead alone, ``budget`` seconds or untimed)."""
        samples = self.lookahead_samples
        look = self._lookahead(
            self.level, time_budget=budget, max_samples=samples, candidates=0, look_leaf=self.look_leaf
        )
        return look.choose(game, state, seat, rng)

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """The lookahead's choice, or a survivor of the screen that clearly beats it in the final phase;
        ValueError if ``seat`` is not to move."""
        start = time.perf_counter()
        legal = legal_or_raise(game, state, seat)
        self.last_playouts = 0
        if len(legal) == 1:
            return legal[0]
        clock = self.time_budget
        look = None if clock is None else clock * LOOKAHEAD_SHARE
        base = legal.index(self.base_choice(game, state, seat, rng, look))
        rest = None if clock is None else start + clock * (LOOKAHEAD_SHARE + (1 - LOOKAHEAD_SHARE) / 2)
        screen_rounds = max(MIN_ROUNDS, round(self.playouts * self.screen_share / len(legal)))
        screen = self._rounds(game, state, seat, legal, screen_rounds, rng, rest)
        means = column_means(screen)
        order = sorted(range(len(legal)), key=lambda i: -means[i])
        alive = [base, *[i for i in order if i != base][: self.keep]]
        final_rounds = max(MIN_ROUNDS, round(self.playouts * (1 - self.screen_share) / len(alive)))
        end = None if clock is None else start + clock
        final = self._rounds(game, state, seat, [legal[i] for i in alive], final_rounds, rng, end)
        return legal[alive[overruling_by(final, 0, self.margin, self.z)]]

    def _rounds(
        self,
        game: AnyGame,
        state: Any,
        seat: Seat,
        cands: list[Any],
        rounds: int,
        rng: random.Random,
        deadline: float | None,
    ) -> list[list[float]]:
        """``bots.paired.paired_rounds`` with :meth:`playout`: ``rounds`` rows of paired rollout values, one
        column per candidate (fewer past ``deadline``), counted into ``last_playouts``."""
        rows, _ = paired_rounds(game, state, seat, cands, rng, self.playout, rounds=rounds, deadline=deadline)
        self.last_playouts += len(rows) * len(cands)
        return rows

    def rollout(self, game: AnyGame, s: Any, me: Seat) -> float:
        """Win chance for ``me`` after both seats play ``easy``'s greedy policy from ``s`` (mutated) until
        ``me``'s turn ``turns`` turns on, scored there by ``fitted.reply_value`` (0 turns: to the end)."""
        return self.playout(game, s, me)[0]

    def playout(self, game: AnyGame, s: Any, me: Seat) -> tuple[float, int]:
        """(:meth:`rollout`'s value, the actions it played): a ``bots.paired.Rollout``."""
        end = s.turn + 2 * self.turns - 1
        legal_actions, apply = game.legal_actions, game.apply
        steps = 0
        while s.outcome is None:
            mover = s.active
            if self.turns and mover == me and s.turn >= end and s.phase == MAIN:
                return (value_chance(s, me) if self.leaf == "net" else reply_value(s, me)), steps
            apply(s, mover, greedy_action(s, mover, legal_actions(s, mover)))
            steps += 1
        return terminal_chance(s, me), steps
