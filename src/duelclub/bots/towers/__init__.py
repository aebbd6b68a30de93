"""Дві вежі's bot levels (rules/towers.md; the ladder of bots/levels.py, :data:`LEVEL_PARAMS`): ``novice``,
``light``, ``medium`` and ``strong`` — the greedy heuristic of ``bots/towers/heuristics.py`` that plays a
random legal move 80, 55, 25 and 0 times in a hundred (spaced so, see :data:`LEVEL_PARAMS`); ``master`` —
:class:`LookaheadBot`, a determinized lookahead followed by rollouts, scored by the fitted evaluation of
``bots/towers/fitted.py``. (``hard``, the old ``strong``, was that lookahead with fewer samples; it is
``old_strong`` of :data:`EXPERIMENTAL_PARAMS` now, and the wording below keeps its name.)

``hard`` samples determinizations of what its seat cannot see (``game.determinize``: the opponent's hand,
the pile order, future draws) and, in each, scores every legal action by

1. playing it, then finishing its own turn — an extra action of «Граємо знову» or the forced discard of
   «Візьміть карту, скиньте карту» is a decision of its own: the best of them by the same lookahead
   (:data:`HARD_OWN_DEPTH` levels deep, then by ``easy``'s greedy ranking);
2. the opponent's reply worst for us among all its cards on the sampled hand (``fitted.reply_chance``);
3. our best card next turn after production, as the fitted win chance.

The score of an action is its mean over the determinizations (the same samples for every action, so the
comparison is paired); ties go to the ``easy`` ranking.

Then the :data:`HARD_CANDIDATES` best actions are compared by rollouts on the same determinizations: both
seats play ``easy``'s greedy policy (the opponent on its sampled hand) for :data:`HARD_ROLLOUT_TURNS` turns
each, and the position is scored by the fitted chance of our best card (``fitted.reply_value``). The
rollouts only *overrule* the lookahead (:func:`overrule`): its first choice is played unless another
candidate's mean paired gain over it is more than :data:`HARD_OVERRULE_Z` standard errors above zero. The
lookahead may use half of the wall-clock budget, the rollouts the rest; both stop between samples, so every
candidate is always scored on the same samples.

Trials against ``easy`` (no time cap; paired: the same match keys for every variant, none of them the
benchmark's; ± is one standard error of the paired difference): the lookahead alone with 8 samples wins
59.4 % of 480 matches with ``easy``'s hand-made score as its leaf and 61.9 % with the fitted one
(+2.5 ± 2.5 %); rollouts that simply take the best mean of the 4 candidates (24 samples, 4 turns) won 68.5 %
of 200 matches, and the overrule rule 73.0 % of the same 200 (+4.5 ± 3.6). Measured no better, on the same
keys: 64 rollouts per candidate instead of 24 (66.5 %, at 1.7× the CPU time), 8 candidates (63.3 % of 147 —
rollouts alone pick moves the lookahead rightly ranks low), 2 candidates (66.4 % of 140), the lookahead's
mean added to the rollouts' (70.0 %), rollouts where our side plays the fitted greedy policy (+0.0 ± 4.2
over 135), a threshold of 0.5 standard errors (64.2 % of 67, stopped), determinizations weighted by how
likely ``easy`` was to keep the sampled cards at its last decision (64.5 %) — although knowing the
opponent's true hand (an oracle) would give 72.5 %; earlier: 12-turn rollouts, the hand-made leaf at the
rollouts' end. The overrule rule was the best of these nine variants on these keys, so its 73.0 % there is
an optimistic figure; ``benchmarks/towers_bots.py`` measures it afresh on its own keys, and
``benchmarks/towers_paired.py`` reruns any of the parameter comparisons (e.g. ``--a '{"overrule_z": 0}'``
for the plain best mean). The fitted leaf is kept because it is the better evaluation where that could be
measured: as a one-ply player it beats ``easy`` in 56 % of 2,000 matches, and its held-out log-loss is lower
on every field.
"""

from __future__ import annotations

import random
import time
import tomllib
from functools import partial
from pathlib import Path
from typing import Any

from duelclub.bots.base import AnyGame, Bot, LevelFactory, legal_or_raise
from duelclub.bots.levels import BlunderBot, Params, think_budget
from duelclub.bots.random_bot import RandomBot
from duelclub.games.contract import Seat
from duelclub.games.towers.state import MAIN

HARD_THINK_SECONDS = 1.0
"""Wall-clock cap of a ``hard`` decision, in seconds (the limit is 1.5 s on one core). Its CPU time is
about 0.15 s at the median, so on a machine that is not overloaded the sample cap binds first."""

HARD_MAX_SAMPLES = 24
"""Determinizations per ``hard`` decision (the iteration cap): its strength does not depend on machine load
as long as the time cap is not reached."""

HARD_OWN_DEPTH = 1
"""Own follow-up decisions in the same turn searched by the full lookahead (then greedily)."""

HARD_CANDIDATES = 4
"""The best actions by the lookahead that are then compared by greedy rollouts (0: no rollouts)."""

HARD_ROLLOUT_TURNS = 4
"""Turns of each seat a rollout plays with the ``easy`` policy before it is scored."""

HARD_OVERRULE_Z = 1.0
"""A rollout candidate replaces the lookahead's first choice only if its paired mean gain is above this many
standard errors (:func:`overrule`)."""

MIN_CAPPED_SAMPLES = 8
"""Determinizations the lookahead searches before its work cap (``max_replies``) may stop it."""

HARD_LOOKAHEAD_SHARE = 0.5
"""Share of the wall-clock budget the lookahead may use before the rollouts start."""


class LookaheadBot:
    """Determinized lookahead for Дві вежі; see the module docstring.

    Deterministic for a given rng when ``time_budget`` is None. ``last_samples`` is the number of
    determinizations the last decision searched: ``max_samples``, fewer past the clock or once the lookahead
    has scored ``max_replies`` replies of the opponent (after :data:`MIN_CAPPED_SAMPLES`).
    """

    def __init__(
        self,
        level: str,
        *,
        time_budget: float | None = HARD_THINK_SECONDS,
        max_samples: int = HARD_MAX_SAMPLES,
        own_depth: int = HARD_OWN_DEPTH,
        candidates: int = HARD_CANDIDATES,
        rollout_turns: int = HARD_ROLLOUT_TURNS,
        overrule_z: float = HARD_OVERRULE_Z,
        leaf: str = "fitted",
        look_leaf: str = "fitted",
        max_replies: int | None = None,
    ) -> None:
        if leaf not in ("fitted", "net"):
            raise ValueError(f"unknown rollout leaf {leaf!r}")
        if look_leaf not in ("fitted", "net"):
            raise ValueError(f"unknown lookahead leaf {look_leaf!r}")
        self.level = level
        self.time_budget = time_budget
        self.max_samples = max_samples
        self.own_depth = own_depth
        self.candidates = candidates
        self.rollout_turns = rollout_turns
        self.overrule_z = overrule_z
        self.leaf = leaf
        self.look_leaf = look_leaf
        self.max_replies = max_replies
        self.last_samples = 0
        self._replies = 0

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """The legal action with the best mean lookahead value; ValueError if ``seat`` is not to move."""
        from duelclub.bots.towers.heuristics import ranked_actions

        start = time.perf_counter()
        legal = legal_or_raise(game, state, seat)
        self.last_samples = 0
        self._replies = 0
        if len(legal) == 1:
            return legal[0]
        budget = self.time_budget
        # the lookahead may use a share of the budget, the rollouts the rest
        share = HARD_LOOKAHEAD_SHARE if self.candidates > 1 else 1.0
        deadline = None if budget is None else start + budget * share
        totals = [0.0] * len(legal)
        dets = []
        n = 0
        while n < self.max_samples:
            if deadline is not None and n > 0 and time.perf_counter() >= deadline:
                break
            if self.max_replies is not None and n >= MIN_CAPPED_SAMPLES and self._replies >= self.max_replies:
                break
            det = game.determinize(state, seat, rng)
            dets.append(det)
            for i, action in enumerate(legal):
                s = det.copy()
                game.apply(s, seat, action)
                totals[i] += self._after_own(game, s, seat, self.own_depth)
            n += 1
        self.last_samples = n
        easy = [score for score, _ in ranked_actions(state, seat, legal)]
        order = sorted(range(len(legal)), key=lambda i: (round(totals[i] / n, 9), easy[i]), reverse=True)
        if self.candidates > 1:
            top = order[: self.candidates]
            rolled: list[list[float]] = [[] for _ in top]
            for k, det in enumerate(dets):
                if budget is not None and k > 0 and time.perf_counter() >= start + budget:
                    break
                for j, i in enumerate(top):
                    s = det.copy()
                    game.apply(s, seat, legal[i])
                    rolled[j].append(self._rollout(game, s, seat))
            return legal[top[overrule(rolled, self.overrule_z)]]
        return legal[order[0]]

    def _rollout(self, game: AnyGame, s: Any, me: Seat) -> float:
        """Win chance for ``me`` after both seats play ``easy``'s greedy policy for ``rollout_turns`` turns
        each from ``s`` (mutated), scored at the start of ``me``'s turn: by ``fitted.reply_value`` (``leaf``
        "fitted") or by the learned value of ``value.py`` (``leaf`` "net")."""
        from duelclub.bots.towers.fitted import reply_value
        from duelclub.bots.towers.heuristics import greedy_action, terminal_chance
        from duelclub.bots.towers.value import chance

        leaf = chance if self.leaf == "net" else reply_value

        end = s.turn + 2 * self.rollout_turns - 1
        while s.outcome is None:
            mover = s.active
            if mover == me and s.turn >= end and s.phase == MAIN:
                return leaf(s, me)
            game.apply(s, mover, greedy_action(s, mover, game.legal_actions(s, mover)))
        return terminal_chance(s, me)

    def _after_own(self, game: AnyGame, s: Any, me: Seat, depth: int) -> float:
        """Win chance for ``me`` after one of its actions in ``s`` (mutated): rest of the turn, the reply."""
        from duelclub.bots.towers.heuristics import greedy_action, terminal_chance

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
        """The opponent's answer worst for ``me``, then our best next card (``fitted.reply_chance``,
        ``look_leaf`` "fitted"), or the learned value at the start of our next turn (``value.reply_chance``,
        ``look_leaf`` "net"). Counted against ``max_replies``."""
        self._replies += 1
        if self.look_leaf == "net":
            from duelclub.bots.towers import value

            return value.reply_chance(s, me)
        from duelclub.bots.towers.fitted import reply_chance

        return reply_chance(s, me)


def overrule(values: list[list[float]], z: float) -> int:
    """The index of the candidate to play among rollout values ``values[j][k]`` (candidate ``j`` in the
    lookahead's order, determinization ``k``; every row as long as the first): 0, the lookahead's first
    choice, unless another candidate's mean paired gain over it, less ``z`` standard errors of that gain, is
    positive — then the candidate where that lower bound is highest. With fewer than two determinizations
    nothing is overruled.

        >>> overrule([[0.5, 0.5, 0.5], [0.6, 0.6, 0.6]], 1.0)
        1
        >>> overrule([[0.5, 0.5, 0.5], [0.9, 0.2, 0.7]], 1.0)
        0
    """
    n = len(values[0])
    if n < 2:
        return 0
    first = values[0]
    best, best_bound = 0, 0.0
    for j in range(1, len(values)):
        gains = [a - b for a, b in zip(values[j], first, strict=True)]
        mean = sum(gains) / n
        var = sum((g - mean) ** 2 for g in gains) / (n - 1)
        bound = mean - z * (var / n) ** 0.5
        if bound > best_bound:
            best, best_bound = j, bound
    return best


LEVELS_FILE = Path(__file__).with_name("levels.toml")
"""The levels' parameters, one table a level in ladder order (data, not code: the ladder restarts only the
pairs of a level whose table changes; ``benchmarks/bot_ladder.py`` ``fingerprint``)."""

LEVEL_PARAMS: dict[str, Params] = tomllib.loads(LEVELS_FILE.read_text(encoding="utf-8"))
"""The ladder (bots/levels.py) as data: the greedy heuristic (``blunder``: share of random moves) or
:class:`LookaheadBot` (``think`` seconds, ``samples`` determinizations, ``candidates`` compared by rollouts of
``rollout_turns`` turns; 0 candidates: the lookahead alone; optional ``own_depth``, ``overrule_z``, ``leaf``
and ``look_leaf`` — "fitted" or "net" — and ``replies``, the lookahead's work cap).
``{"kind": "search", "iterations": N, ...}`` builds the tree search of ``bots/towers/search.py`` (no level
uses it: it loses to the lookahead, see there).

**Spacing (issue 27 §2, 2026-12-07).** Every search of this module plays about equally well: ``master``
scored 0.517 against the old ``strong`` (24 determinizations) over 58 ladder matches, and **0.529 over 34**
(0.527 over 55 on an earlier ladder) against the lookahead on *one* determinization (``look1``, the old
``medium``), while all of them beat the greedy heuristic clearly (``master`` 0.714 over 35, ``look1`` 0.630
over 100). Nine ideas for a stronger top (module docstring, :data:`EXPERIMENTAL_PARAMS`) levelled off at
+4–7 points against ``master``. So the levels below ``master`` are spaced by the one knob that moves
strength in clear steps — how often the greedy heuristic plays a random legal move instead — and ``master``
stays the search. ``benchmarks/level_duel.py towers`` (100 matches a pair, untimed; ``greedyN`` blunders N %
of its moves):

| pair | score (Wilson 95 %) |
|---|---|
| master vs greedy0 (``strong``) | 0.714 over 35 (0.549–0.837) |
| greedy0 vs greedy25 (``medium``) | 0.720 (0.625–0.799) |
| greedy25 vs greedy55 (``light``) | 0.710 (0.615–0.790) |
| greedy55 vs greedy80 (``novice``) | 0.810 (0.722–0.875) |
| greedy80 vs random | 0.860 (0.779–0.915) |

Rejected neighbours: greedy0 vs greedy15 0.630, vs greedy20 0.680; greedy20 vs greedy40 0.670; greedy25 vs
greedy45 0.655 — steps too close for ≥ 62 % with a Wilson bound ≥ 55 % at 100 matches. The old ladder
(``novice`` 45 %, ``light`` 10 %, ``medium`` ``look1``, ``strong`` 24 samples) had the top two steps at 0.627
and 0.517. ``benchmarks/bot_ladder.py towers`` measures the round robin of these levels."""


EXPERIMENTAL_PARAMS: dict[str, Params] = {
    "valued": {"kind": "lookahead", "think": 1.3, "samples": 48,
               "candidates": HARD_CANDIDATES, "rollout_turns": 6, "leaf": "net"},
    "expert": {"kind": "wide", "think": 1.4, "playouts": 640, "turns": 6, "samples": 48, "keep": 3,
               "margin": 0.01, "z": 1.5},
    "deep": {"kind": "lookahead", "think": 1.4, "samples": 96, "candidates": 4, "rollout_turns": 6,
             "leaf": "net", "look_leaf": "net", "replies": 1600},
    "widenet": {"kind": "wide", "think": 1.4, "playouts": 1000, "turns": 6, "samples": 48, "keep": 3,
                "margin": 0.01, "z": 1.5, "leaf": "net", "look_leaf": "net"},
    "old_strong": {"kind": "lookahead", "think": HARD_THINK_SECONDS, "samples": HARD_MAX_SAMPLES,
                   "candidates": HARD_CANDIDATES, "rollout_turns": HARD_ROLLOUT_TURNS},
    "look1": {"kind": "lookahead", "think": 0.6, "samples": 1, "candidates": 0},
    **{f"greedy{b}": {"kind": "heuristic", "blunder": b / 100}
       for b in (0, 3, 5, 8, 15, 20, 25, 30, 35, 40, 50, 55, 60, 70, 80)},
}  # fmt: skip
"""Levels on trial, built by :func:`build` but offered nowhere (not in :data:`LEVELS`, so neither the lobby
nor ``make_bot`` knows them): ``expert`` is :class:`~duelclub.bots.towers.wide.WideRolloutBot` (issue 27),
measured against ``master`` by ``benchmarks/level_duel.py towers expert master``: 36 wins of 67
matches (53.7 %, Wilson 95 % 42–65 %; code of commit 0d484ce, the same choices as now), CPU per searched
decision median 0.51 s, max 1.58 s — not the clear step issue 27 asks for (≥ 62 %).

``valued`` is ``master`` whose rollouts end on the learned value of ``bots/towers/value.py`` (both counters
and both hands, the enemy's sampled) instead of the fitted best card: by ``level_duel.py towers valued
master`` (code of commit 9854d82, the same choices as now) 33 wins of 59 matches (55.9 %, Wilson 95 %
43–68 %; stopped at the session's end, load average 10–19 on 2 cores), CPU per searched decision median
0.22 s, p90 0.34 s, max 1.02 s (``master`` 0.23 s mean) — no clear step either.

``deep`` and ``widenet`` (issue 27, second sitting) put the learned value into the lookahead as well:
``look_leaf="net"`` scores every reply of the opponent on its sampled hand by ``value.reply_chance`` (the
model at the start of our next turn, our production done) instead of our best card's fitted chance, and the
rollouts end on the model too. ``deep`` is ``valued`` with that lookahead and twice the determinizations
(96), capped at 1600 scored replies (``replies``, the work cap ``max_replies``: a position whose own turn
branches — «Граємо знову», a forced discard — searches fewer determinizations; without the cap one decision
took 3.2 s of CPU in the duel). ``widenet`` is ``expert`` with the model as both leaves and 1000 playouts
(stopped after 3 matches for ``deep``, which costs less). Their duels against ``master`` are logged in
``benchmarks/results/duel/towers-deep.jsonl`` and ``towers-widenet.jsonl``."""


def build(level: str, params: Params, think_seconds: float | None = None, *, timed: bool = True) -> Bot:
    """The bot of one level from its ``params`` (see :data:`LEVEL_PARAMS` and :data:`EXPERIMENTAL_PARAMS`)."""
    from duelclub.bots.towers.heuristics import EasyBot

    if params["kind"] == "heuristic":
        easy = EasyBot(level)
        return BlunderBot(level, easy, params["blunder"]) if params.get("blunder") else easy
    if params["kind"] == "wide":
        from duelclub.bots.towers.wide import WideRolloutBot

        return WideRolloutBot(
            level,
            playouts=int(params["playouts"]),
            turns=int(params["turns"]),
            lookahead_samples=int(params["samples"]),
            keep=int(params["keep"]),
            margin=float(params["margin"]),
            z=float(params["z"]),
            time_budget=think_budget(params, think_seconds, timed),
            lookahead=LookaheadBot,
            leaf=str(params.get("leaf", "fitted")),
            look_leaf=str(params.get("look_leaf", "fitted")),
        )
    if params["kind"] == "search":
        from duelclub.bots.towers.search import SearchBot

        return SearchBot(
            level,
            time_budget=think_budget(params, think_seconds, timed),
            iterations=int(params["iterations"]),
            exploration=float(params.get("exploration", 0.5)),
            bias=float(params.get("bias", 1.0)),
            turns=int(params.get("turns", 1)),
            policy=str(params.get("policy", "easy")),
            leaf=str(params.get("leaf", "reply")),
        )
    return LookaheadBot(
        level,
        time_budget=think_budget(params, think_seconds, timed),
        max_samples=int(params["samples"]),
        candidates=int(params["candidates"]),
        rollout_turns=int(params.get("rollout_turns", HARD_ROLLOUT_TURNS)),
        own_depth=int(params.get("own_depth", HARD_OWN_DEPTH)),
        overrule_z=float(params.get("overrule_z", HARD_OVERRULE_Z)),
        leaf=str(params.get("leaf", "fitted")),
        look_leaf=str(params.get("look_leaf", "fitted")),
        max_replies=int(params["replies"]) if "replies" in params else None,
    )


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {
    "random": _random,
    **{level: partial(build, level, params) for level, params in LEVEL_PARAMS.items()},
}
"""Level → factory; the lobby offers the game's ``bot_levels`` (bots/levels.py ``LEVEL_IDS``)."""
