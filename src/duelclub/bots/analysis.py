"""Post-game analysis («Анализ партии», issue 17 §4): the win chance of every mover before and after each of
its actions, as the strongest bot's search judges it from the mover's own information set.

For the decision at ``seq`` (the state after ``seq - 1`` actions, the logged ``seat`` to act) the analysis
runs SO-ISMCTS (``bots/ismcts.py``) with the game's playout policy playing out both sides — the rollout
policy of its strongest level where ``benchmarks/analysis_quality.py`` shows it predicts the results better
(issue 27 §4), else its ``light`` level — optionally cut after ``playout_cut`` actions and scored there by
the game's evaluation (``cut_value``), on the budget the game's bots declare (``ANALYSIS`` in
``bots/<slug>/analysis.py``, read by ``bots.registry.analysis_settings``): a fixed
number of iterations (the game's ``iterations`` × the ``effort`` setting) and a seed fixed by the match id
and ``seq``, so the same match always gets the same analysis. Every iteration searches
``game.determinize(state, seat, rng)``: the search sees only what the mover could know at that moment, never
the deal revealed after the match.

- ``before``: the mover's win chance (0..1) with the action the search prefers (its most visited root
  action's mean reward);
- ``after``: the mean reward of the action actually played (topped up by :data:`MIN_VISITS` playouts of it
  from fresh determinizations when the tree gave it fewer visits); equal to ``before`` when the mover played
  the preferred action; 0 for a resignation;
- ``loss`` = ``before - after`` (≥ 0); ``mark`` «неточность» (``inaccuracy``) from :data:`INACCURACY`,
  «ошибка» (``mistake``) from :data:`MISTAKE`, with ``best`` the preferred action (JSON).

A decision with one legal action is *forced*: no search, ``before = after`` from :data:`FORCED_PLAYOUTS`
playouts, never marked. Example::

    entries = analyse(game, game.new_match(key, options), [(0, action_json), ...], match_id="m1")
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from duelclub.bots.base import AnalysisSettings, AnyGame, Bot
from duelclub.bots.ismcts import IsmctsBot, SearchConfig, action_key, reward_for, uniform_rollout
from duelclub.bots.levels import BlunderBot
from duelclub.bots.registry import analysis_settings, make_bot
from duelclub.games.contract import Seat

MAX_PLAYOUT_STEPS = 400
"""Playout cut (actions) of the games played out to the end; a cut playout scores 0.5."""
MIN_VISITS = 12
"""The played action's estimate rests on at least this many playouts."""
PRIOR_VISITS = 6.0
"""Every root action's mean is shrunk towards the root's mean by this many pseudo-visits
(``(reward + k·root) / (visits + k)``), so an action seen a few times cannot swing the verdict: with the small
budgets of an analysis, the raw mean of a rarely visited action is mostly noise."""
FORCED_PLAYOUTS = 12
"""Playouts that value a forced decision (one legal action)."""
INACCURACY = 0.10
"""A loss of win chance from which an action is marked «неточность»."""
MISTAKE = 0.20
"""A loss of win chance from which an action is marked «ошибка»."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One analysed action: ``seq`` (1-based) and ``seat`` of the logged action; ``before``/``after``/``loss``
    the mover's win chance in [0, 1]; ``mark`` None, ``"inaccuracy"`` or ``"mistake"``; ``best`` the
    preferred action's JSON when it differs from the played one; ``forced`` one legal action only."""

    seq: int
    seat: Seat
    before: float
    after: float
    loss: float
    mark: str | None
    best: dict[str, Any] | None
    forced: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "seat": self.seat,
            "before": round(self.before, 4),
            "after": round(self.after, 4),
            "loss": round(self.loss, 4),
            "mark": self.mark,
            "best": self.best,
            "forced": self.forced,
        }


def iterations_for(slug: str, effort: float = 1.0) -> int:
    """Search iterations per decision for game ``slug`` at ``effort`` (≥ 2)."""
    return max(2, round(analysis_settings(slug).iterations * effort))


def mark_for(loss: float) -> str | None:
    """``"mistake"`` from :data:`MISTAKE`, ``"inaccuracy"`` from :data:`INACCURACY`, else None.

    >>> mark_for(0.25), mark_for(0.1), mark_for(0.05)
    ('mistake', 'inaccuracy', None)
    """
    if loss >= MISTAKE - 1e-9:
        return "mistake"
    if loss >= INACCURACY - 1e-9:
        return "inaccuracy"
    return None


def decision_seed(match_id: str, seq: int) -> int:
    """The search's seed for decision ``seq`` of ``match_id`` (SHA-256, 64 bits): reproducible analyses."""
    digest = hashlib.sha256(f"duelclub/analysis/{match_id}/{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def heuristic_rollout(slug: str) -> Any:
    """The game's ``light`` bot as a rollout policy ``(game, state, seat, actions, rng) -> action`` — without
    its deliberate random moves where ``light`` blunders on purpose (issue 27's spacing: Межа's plays 15 % at
    random, a playout should not); the uniform policy for a game without bots (the test games)."""
    try:
        bot: Bot = make_bot(slug, "light")
    except KeyError:
        return uniform_rollout
    if isinstance(bot, BlunderBot):
        bot = bot.inner

    def rollout(game: AnyGame, state: Any, seat: Seat, actions: list[Any], rng: random.Random) -> Any:
        return bot.choose(game, state, seat, rng)

    return rollout


class Analyst:
    """Evaluates decisions of one game with a fixed budget; see the module docstring."""

    def __init__(
        self, game: AnyGame, iterations: int, rollout: Any = None, settings: AnalysisSettings | None = None
    ) -> None:
        """``settings`` default to the game's ``ANALYSIS``; ``rollout`` overrides theirs (whose default is
        :func:`heuristic_rollout`)."""
        self.game = game
        self.iterations = iterations
        settings = settings or analysis_settings(game.slug)
        self.settings = settings
        self.rollout = rollout or settings.rollout or heuristic_rollout(game.slug)
        self.steps = settings.playout_cut or MAX_PLAYOUT_STEPS
        self.evaluator = settings.cut_value if settings.playout_cut else None
        config = SearchConfig(time_budget=None, max_iterations=iterations, max_playout_steps=self.steps)
        self.search = IsmctsBot("analysis", config, rollout=self.rollout, evaluator=self.evaluator)

    def evaluate(self, state: Any, seat: Seat, action: Any, seed: int, seq: int = 0) -> Entry:
        """The entry for ``seat`` playing ``action`` in ``state`` (left unchanged), searched with ``seed``.

        Only ``game.determinize(state, seat, rng)`` and the mover's own legal actions are used: two states
        that differ only in what ``seat`` cannot see give the same entry. ValueError if ``seat`` may not act.
        """
        game = self.game
        rng = random.Random(seed)
        legal = game.legal_actions(state, seat) if seat in game.to_move(state) else []
        played = action_key(game, seat, action)
        keys = {action_key(game, seat, a): a for a in legal}
        resign = played not in keys and getattr(action, "kind", None) == "resign"
        if len(legal) < 2 and resign:  # resigned out of turn (or with nothing else to play)
            value = self._playouts(state, seat, None, FORCED_PLAYOUTS, rng) / FORCED_PLAYOUTS
            return Entry(seq, seat, value, 0.0, value, None, None, False)
        if not legal:  # cannot happen in a valid log: value the action by playouts alone
            value = self._playouts(state, seat, action, FORCED_PLAYOUTS, rng) / FORCED_PLAYOUTS
            return Entry(seq, seat, value, value, 0.0, None, None, True)
        if len(legal) == 1:
            value = self._playouts(state, seat, action, FORCED_PLAYOUTS, rng) / FORCED_PLAYOUTS
            return Entry(seq, seat, value, value, 0.0, None, None, True)
        best_action = self.search.choose(game, state, seat, rng)
        stats = self.search.last_stats
        best = action_key(game, seat, best_action)
        total = sum(stats.root_visits.values())
        root = sum(stats.root_rewards.values()) / total if total else 0.5

        def shrunk(reward: float, visits: int) -> float:
            return (reward + PRIOR_VISITS * root) / (visits + PRIOR_VISITS)

        before = shrunk(stats.root_rewards.get(best, 0.0), stats.root_visits.get(best, 0))
        if played == best:
            return Entry(seq, seat, before, before, 0.0, None, None, False)
        if resign:  # never among the legal actions: the match is lost
            return Entry(seq, seat, before, 0.0, before, None, None, False)
        visits = stats.root_visits.get(played, 0)
        reward = stats.root_rewards.get(played, 0.0)
        if visits < MIN_VISITS:
            extra = MIN_VISITS - visits
            reward += self._playouts(state, seat, action, extra, rng)
            visits += extra
        after = shrunk(reward, visits)
        loss = max(0.0, before - after)
        mark = mark_for(loss)
        best_json = game.action_to_json(best_action) if mark is not None else None
        return Entry(seq, seat, before, after, loss, mark, best_json, False)

    def _playouts(self, state: Any, seat: Seat, action: Any, count: int, rng: random.Random) -> float:
        """Summed rewards for ``seat`` of ``count`` playouts of ``action`` (None: none, just play on) from
        fresh determinizations."""
        game = self.game
        total = 0.0
        for _ in range(count):
            det = game.determinize(state, seat, rng)
            if action is not None:
                game.apply(det, seat, action)
            total += self._finish(det, seat, rng)
        return total

    def _finish(self, det: Any, seat: Seat, rng: random.Random) -> float:
        game = self.game
        for _ in range(self.steps):
            result = reward_for(game, det, seat)
            if result is not None:
                return result
            seats = sorted(game.to_move(det))
            mover = seats[0] if len(seats) == 1 else rng.choice(seats)
            actions = game.legal_actions(det, mover)
            pick = actions[0] if len(actions) == 1 else self.rollout(game, det, mover, actions, rng)
            game.apply(det, mover, pick)
        result = reward_for(game, det, seat)
        if result is None:
            return 0.5 if self.evaluator is None else float(self.evaluator(game, det, seat))
        return result


def analyse(
    game: AnyGame,
    start: Any,
    actions: Sequence[tuple[Seat, dict[str, Any]]],
    *,
    match_id: str,
    iterations: int | None = None,
    analyst: Analyst | None = None,
    between: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """One JSON entry (:meth:`Entry.to_json`) per logged action ``(seat, action JSON)`` replayed from
    ``start`` (mutated: it ends as the final state); ``between()`` is called before each decision (a bot
    worker answers its due bot jobs there). Raises the game's IllegalAction on a corrupt log."""
    analyst = analyst or Analyst(game, iterations or iterations_for(game.slug))
    state = start
    out: list[dict[str, Any]] = []
    for seq, (seat, raw) in enumerate(actions, start=1):
        action = game.parse_action(raw)
        if between is not None:
            between()
        out.append(analyst.evaluate(state, seat, action, decision_seed(match_id, seq), seq).to_json())
        game.apply(state, seat, action)
    return out
