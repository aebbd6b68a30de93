"""Артания и Куявия's bot levels (rules/artania.md; the ladder of bots/levels.py, :data:`LEVEL_PARAMS`,
re-spaced by issue 27: ``novice`` and ``light`` are ``easy`` with random mistakes, ``medium`` is ``easy``,
``strong`` is ``hard``, ``master`` is the wide rollout search of ``bots/artania/wide.py``).

- ``easy`` — the heuristic of ``bots/artania/heuristics.py``;
- ``hard`` — a *rollout* search over determinizations (:class:`RolloutBot`): it improves on the economical
  policy of ``bots/artania/heuristics.py`` by looking one decision ahead. Each round samples a determinization
  (``game.determinize``: the opponent's hand and both deck orders re-dealt from what the seat may see) and,
  for every candidate action, plays the *whole match* out from it with the economical policy for both seats
  (common random numbers: every candidate meets the same deal, so their differences are not drowned by the
  deal's luck). The economical policy's own choice stands unless another candidate beats it clearly: by a
  mean paired reward difference above :data:`OVERRULE_MARGIN` and :data:`OVERRULE_Z` standard errors (taking
  the best of several noisy means would otherwise pick noise).

A whole-match playout is what the game asks for: it is about spending warriors across turns (a card spent now
is gone, the decks run out, five tokens win), which a turn-level reward misjudges. The reward is the match
result (1 / 0.5 / 0) plus :data:`MARGIN_WEIGHT` × the final token difference / 5, which separates candidates
whose playouts all win (or all lose).

Candidates: in a placement step the heuristic's best :data:`PLACE_WIDTH` placements plus the economical
choice; in an equipment window every legal action (pass, each Нектар / Идол target, each Часы discard).
A decision with one legal action is not searched.
"""

from __future__ import annotations

import math
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

HARD_THINK_SECONDS = 0.6
"""Default wall-clock budget of a ``hard`` decision (the target is <= 1.5 s; the benchmark machine is shared,
so wall time runs up to ~3x CPU time — hence a budget well below the target)."""

HARD_ROUNDS = 16
"""Determinizations per ``hard`` decision (each plays every candidate out once); the clock may stop sooner."""

PLACE_WIDTH = 5
"""Placements a ``hard`` decision searches per step: the heuristic's best ones and the economical choice."""

MARGIN_WEIGHT = 0.1
"""Weight of the final token difference (/ 5) in a playout's reward, next to the match result."""

OVERRULE_MARGIN = 0.05
"""Least mean paired reward advantage over the economical choice for another candidate to replace it."""

OVERRULE_Z = 2.0
"""... and the least advantage in standard errors of the paired differences."""


class RolloutBot:
    """``hard``: one-step rollout search over determinizations (see the module docstring).

    ``time_budget`` is wall-clock seconds per decision (None: only ``rounds`` counts, and the bot is then
    deterministic for a given rng). At least one round always runs. ``last_rounds`` is the last decision's
    count of rounds.
    """

    def __init__(self, level: str, rounds: int = HARD_ROUNDS, time_budget: float | None = HARD_THINK_SECONDS):
        self.level = level
        self.rounds = rounds
        self.time_budget = time_budget
        self.last_rounds = 0

    def candidates(self, state: Any, seat: Seat, legal: list[Any]) -> tuple[list[Any], Any]:
        """(the actions searched, the economical policy's choice among them)."""
        from duelclub.bots.artania.heuristics import economical_move, ranked_placements
        from duelclub.games.artania.actions import place_action

        base = economical_move(state, seat)
        if state.step % 2 == 0:
            return legal, base
        cands: list[Any] = [place_action(cards) for _, cards in ranked_placements(state, seat)[:PLACE_WIDTH]]
        if base not in cands:
            cands.append(base)
        return cands, base

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """The economical choice, or a candidate that clearly beats it in paired playouts (module docstring);
        ValueError if ``seat`` is not to move."""
        start = time.perf_counter()
        legal = legal_or_raise(game, state, seat)
        self.last_rounds = 0
        if len(legal) == 1:
            return legal[0]
        cands, base = self.candidates(state, seat, legal)
        rewards: list[list[float]] = []  # one row per determinization, one column per candidate
        for _ in range(self.rounds):
            det = game.determinize(state, seat, rng)
            row = []
            for action in cands:
                sim = det.copy()
                game.apply(sim, seat, action)
                row.append(playout(game, sim, seat))
            rewards.append(row)
            self.last_rounds += 1
            if self.time_budget is not None and time.perf_counter() - start >= self.time_budget:
                break
        return cands[overruling(rewards, cands.index(base))]


def overruling(rewards: list[list[float]], base: int) -> int:
    """The column that beats column ``base`` clearly (OVERRULE_MARGIN, OVERRULE_Z; the largest mean paired
    advantage among those), else ``base``.

    >>> overruling([[0.0, 1.0], [0.0, 1.0], [1.0, 1.0]], 0), overruling([[0.0, 1.0], [1.0, 0.0]], 0)
    (1, 0)
    """
    n = len(rewards)
    best, best_gain = base, 0.0
    for i in range(len(rewards[0])):
        diffs = [row[i] - row[base] for row in rewards]
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / n) if n > 1 else math.inf
        if mean > OVERRULE_MARGIN and mean > OVERRULE_Z * spread / math.sqrt(n) and mean > best_gain:
            best, best_gain = i, mean
    return best


def playout(game: AnyGame, state: Any, seat: Seat) -> float:
    """Play ``state`` (a determinization, mutated) to the end with the economical policy for both seats;
    ``seat``'s reward: the result (1 / 0.5 / 0) + MARGIN_WEIGHT × its final token lead / 5."""
    return counted_playout(game, state, seat)[0]


def counted_playout(game: AnyGame, state: Any, seat: Seat) -> tuple[float, int]:
    """(:func:`playout`'s reward, the actions the playout played) — the work count of ``expert``'s cap."""
    from duelclub.bots.artania.heuristics import economical_move

    steps = 0
    while state.outcome is None:
        mover = state.to_act()
        game.apply(state, mover, economical_move(state, mover))
        steps += 1
    winner = state.outcome.winner
    result = 0.5 if winner is None else float(winner == seat)
    lead: int = state.tokens[seat] - state.tokens[1 - seat]
    return result + MARGIN_WEIGHT * lead / 5, steps


LEVELS_FILE = Path(__file__).with_name("levels.toml")
"""The levels' parameters, one table a level in ladder order (data, not code: the ladder restarts only the
pairs of a level whose table changes; ``benchmarks/bot_ladder.py`` ``fingerprint``)."""

LEVEL_PARAMS: dict[str, Params] = tomllib.loads(LEVELS_FILE.read_text(encoding="utf-8"))
"""The ladder (bots/levels.py) as data: the heuristic (``blunder``: share of random moves),
:class:`RolloutBot` (``think`` seconds, ``rounds`` determinizations) or
:class:`~duelclub.bots.artania.wide.WideRolloutBot` (``playouts`` per decision, at most ``max_steps``
playout actions; ``think`` is its wall-clock ceiling, the issue's 3 s maximum less a margin: the work caps
bind first on a machine that is not overloaded).

Issue 27 asks every level to score at least 62 % against the one below (Wilson 95 % lower bound 55 %). The
ladder before it was flat at the top (medium 859, strong 882, the old master 917, Elo over random), so the
levels were re-spaced: ``medium`` is the plain heuristic (the old ``light``), ``strong`` stays the rollout
search (it scored 73 % of 100 ladder matches against the heuristic), the two rollout levels between them
are gone (``rollout_medium``, ``rollout_master`` below), and two blunder rates were chosen below the
heuristic by direct matches (``benchmarks/level_duel.py``, 200 matches a pair):
blunder 0.12 scores 0.775 against 0.4 (Wilson 0.712–0.827) and the heuristic 0.708 against 0.12 (0.644–0.768).
Measured and not taken (100 matches a pair): 0.05 and 0.10 against the heuristic 0.305 and 0.405 (the
heuristic not 62 % clear of 0.10), 0.15 and 0.20 against the old novice's 0.3 only 0.640 and 0.715.
``master`` was the level on trial ``expert_capped``. Against ``rollout_master``
(``benchmarks/results/duel/artania-expert_capped.jsonl``, code of commit 1ccadd1, the same choices as now):
36 matches, score 0.722 (Wilson 95 % 0.560–0.842), decided 24 of 32; CPU per searched decision median
1.68 s, max 3.13 s on the loaded machine, where ``rollout_master`` took 1.5× its quiet CPU time (quiet:
about 1.1 s and 2.1 s). Uncapped (``expert_2400``): 0.703 of 59, max 4.9 s under load."""

EXPERIMENTAL_PARAMS: dict[str, Params] = {
    "rollout_medium": {"kind": "rollout", "think": 0.4, "rounds": 4},
    "rollout_master": {"kind": "rollout", "think": 1.2, "rounds": 48},
    "expert": {"kind": "wide", "think": 1.4, "playouts": 1200, "keep": 3, "margin": 0.02, "z": 1.5},
    "expert_2400": {"kind": "wide", "think": 2.8, "playouts": 2400, "keep": 3, "margin": 0.02, "z": 1.5},
    "expert_capped": {
        **{"kind": "wide", "think": 2.8, "playouts": 2400, "keep": 3, "margin": 0.02, "z": 1.5},
        "max_steps": 180_000,
    },
}
"""Levels on trial, built by :func:`build` but offered nowhere (not in :data:`LEVELS`, so neither the lobby
nor ``make_bot`` knows them): ``expert`` is :class:`~duelclub.bots.artania.wide.WideRolloutBot` (issue 27),
measured against ``master`` and ``strong`` by ``benchmarks/level_duel.py artania expert master strong``;
``rollout_master`` is the ``master`` before issue 27 (48 rounds of :class:`RolloutBot`), ``rollout_medium``
the ``medium`` before it (4 rounds);
``expert_2400`` is the same with twice the playouts (does more samples still buy strength?);
``expert_capped`` is ``expert_2400`` whose playouts may play at most ``max_steps`` actions per decision
(bots/artania/wide.py §Work cap: it trims only the long first decisions, whose CPU time passed 3 s)."""


def build(level: str, params: Params, think_seconds: float | None = None, *, timed: bool = True) -> Bot:
    """The bot of one level from its ``params`` (see :data:`LEVEL_PARAMS`)."""
    from duelclub.bots.artania.heuristics import EasyBot

    if params["kind"] == "heuristic":
        easy = EasyBot(level)
        return BlunderBot(level, easy, params["blunder"]) if params.get("blunder") else easy
    if params["kind"] == "wide":
        from duelclub.bots.artania.wide import WideRolloutBot

        return WideRolloutBot(
            level,
            playouts=int(params["playouts"]),
            keep=int(params["keep"]),
            margin=float(params["margin"]),
            z=float(params["z"]),
            max_steps=params.get("max_steps"),
            playout=counted_playout,
            time_budget=think_budget(params, think_seconds, timed),
        )
    return RolloutBot(level, int(params["rounds"]), think_budget(params, think_seconds, timed))


def _random(think_seconds: float | None) -> Bot:
    return RandomBot("random")


LEVELS: dict[str, LevelFactory] = {
    "random": _random,
    **{level: partial(build, level, params) for level, params in LEVEL_PARAMS.items()},
}
"""Level → factory; the lobby offers the game's ``bot_levels`` (bots/levels.py ``LEVEL_IDS``)."""
