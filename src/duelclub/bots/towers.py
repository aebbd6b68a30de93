"""Дві вежі's bot levels (rules/towers.md): ``easy`` — the greedy heuristic of ``games/towers/bot.py``;
``hard`` — :class:`LookaheadBot`, a determinized three-ply lookahead with the same evaluation as ``easy``.

``hard`` samples determinizations of what its seat cannot see (``game.determinize``: the opponent's hand,
the pile order, future draws) and, in each, scores every legal action by

1. playing it, then finishing its own turn — an extra action of «Граємо знову» or the forced discard of
   «Візьміть карту, скиньте карту» is a decision of its own: the best of them by the same lookahead
   (:data:`HARD_OWN_DEPTH` levels deep, then greedily);
2. the opponent's reply that is worst for us among all its actions on the sampled hand (its own extra
   actions greedily);
3. our best card next turn after production (``bot.reply_value``: every card in our hand run on the
   counters), turned into a win probability by ``bot.win_chance``.

The score of an action is its mean over the determinizations (the same samples for every action, so the
comparison is paired); ties go to the ``easy`` ranking. At depth 0 this is ``easy``'s own evaluation, so
``hard`` sees everything ``easy`` sees plus the opponent's answer and its own next card.
"""

from __future__ import annotations

import random
import time
from typing import Any

from duelclub.bots.base import AnyGame, Bot, LevelFactory, legal_or_raise
from duelclub.bots.random_bot import RandomBot
from duelclub.games.contract import Seat

HARD_THINK_SECONDS = 0.6
"""Wall-clock cap of a ``hard`` decision, in seconds (the limit is 1.5 s on one core)."""

HARD_MAX_SAMPLES = 24
"""Determinizations per ``hard`` decision (the iteration cap): its strength does not depend on machine load
as long as the time cap is not reached."""

HARD_OWN_DEPTH = 1
"""Own follow-up decisions in the same turn searched by the full lookahead (then greedily)."""

HARD_GREEDY_WEIGHT = 0.0
"""Weight of the opponent's greedy reply (the ``easy`` choice on its sampled hand) against its reply worst
for us: 0 — a fully adversarial opponent."""


class LookaheadBot:
    """Determinized lookahead for Дві вежі; see the module docstring.

    Deterministic for a given rng when ``time_budget`` is None. ``last_samples`` is the number of
    determinizations the last decision searched.
    """

    def __init__(
        self,
        level: str,
        *,
        time_budget: float | None = HARD_THINK_SECONDS,
        max_samples: int = HARD_MAX_SAMPLES,
        own_depth: int = HARD_OWN_DEPTH,
        greedy_weight: float = HARD_GREEDY_WEIGHT,
    ) -> None:
        self.level = level
        self.time_budget = time_budget
        self.max_samples = max_samples
        self.own_depth = own_depth
        self.greedy_weight = greedy_weight
        self.last_samples = 0

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """The legal action with the best mean lookahead value; ValueError if ``seat`` is not to move."""
        from duelclub.games.towers.bot import ranked_actions

        start = time.perf_counter()
        legal = legal_or_raise(game, state, seat)
        self.last_samples = 0
        if len(legal) == 1:
            return legal[0]
        deadline = None if self.time_budget is None else start + self.time_budget
        totals = [0.0] * len(legal)
        n = 0
        while n < self.max_samples:
            if deadline is not None and n > 0 and time.perf_counter() >= deadline:
                break
            det = game.determinize(state, seat, rng)
            for i, action in enumerate(legal):
                s = det.copy()
                game.apply(s, seat, action)
                totals[i] += self._after_own(game, s, seat, self.own_depth)
            n += 1
        self.last_samples = n
        easy = [score for score, _ in ranked_actions(state, seat, legal)]
        best = max(range(len(legal)), key=lambda i: (round(totals[i] / n, 9), easy[i]))
        return legal[best]

    def _after_own(self, game: AnyGame, s: Any, me: Seat, depth: int) -> float:
        """Win chance for ``me`` after one of its actions in ``s`` (mutated): rest of the turn, the reply."""
        from duelclub.games.towers.bot import greedy_action, terminal_chance

        while True:
            if s.outcome is not None:
                return terminal_chance(s, me)
            if s.active != me:
                return self._reply(game, s, me)
            actions = game.legal_actions(s, me)
            if depth > 0 and len(actions) > 1:
                best = 0.0
                for a in actions:
                    t = s.copy()
                    game.apply(t, me, a)
                    best = max(best, self._after_own(game, t, me, depth - 1))
                return best
            game.apply(s, me, greedy_action(s, me, actions))

    def _reply(self, game: AnyGame, s: Any, me: Seat) -> float:
        """The opponent's answer worst for ``me`` (``bot.reply_chance``), then our best next card."""
        from duelclub.games.towers.bot import reply_chance

        return reply_chance(s, me, self.greedy_weight)


def _easy(think_seconds: float | None) -> Bot:
    from duelclub.games.towers.bot import EasyBot

    return EasyBot("easy")


def _hard(think_seconds: float | None) -> Bot:
    budget = HARD_THINK_SECONDS if think_seconds is None else think_seconds
    return LookaheadBot("hard", time_budget=budget)


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {"random": _random, "easy": _easy, "hard": _hard}
"""Level → factory; the lobby offers the game's ``bot_levels`` (easy, hard)."""
