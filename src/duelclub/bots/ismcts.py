"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS) over the game contract.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search" (2012), algorithm 2. One tree is
grown for the searching seat; every iteration

1. samples a determinization ``game.determinize(state, seat, rng)`` — a full state consistent with what the
   searching seat can see;
2. descends the tree through the actions legal *in that determinization*, choosing by UCB1 where the
   exploration term counts how often a child was *available* (not how often its parent was visited), plus an
   optional progressive bias from a prior policy;
3. expands one untried action, then plays out to the end of the match with the rollout policy;
4. backs up the reward from ``game.outcome``: 1 for a win, 0.5 for a draw, 0 for a loss, each node scored for
   the seat that made the move leading to it.

Only public :class:`~duelclub.games.contract.Game` methods are used (``determinize``, ``to_move``,
``legal_actions``, ``apply``, ``outcome``, ``action_to_json``), so the search never sees what the searching
seat could not. Where several seats may act (a pause between seasons), one of them is drawn with the search's
own rng. The tree is rebuilt for every decision (no reuse).

Example::

    bot = IsmctsBot("hard", SearchConfig(time_budget=1.0, max_iterations=20_000))
    action = bot.choose(game, state, seat, random.Random(1))
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from duelclub.bots.base import AnyGame, legal_or_raise
from duelclub.games.contract import Seat

RolloutPolicy = Callable[[AnyGame, Any, Seat, list[Any], random.Random], Any]
"""``(game, state, seat, legal actions, rng) -> one of those actions``; must not mutate ``state``."""

PriorPolicy = Callable[[AnyGame, Any, Seat, list[Any], random.Random], Sequence[float]]
"""``(game, state, seat, legal actions, rng) -> one weight in [0, 1] per action`` (progressive bias)."""

Evaluator = Callable[[AnyGame, Any, Seat], float]
"""``(game, state, seat) -> expected reward in [0, 1]`` for a playout cut at ``max_playout_steps``."""


def uniform_rollout(game: AnyGame, state: Any, seat: Seat, actions: list[Any], rng: random.Random) -> Any:
    """The default rollout policy: a uniformly random legal action."""
    return rng.choice(actions)


def reward_for(game: AnyGame, state: Any, seat: Seat) -> float | None:
    """1.0 if ``seat`` won, 0.5 for a draw, 0.0 for a loss; None while the match goes on."""
    result = game.outcome(state)
    if result is None:
        return None
    if result.winner is None:
        return 0.5
    return 1.0 if result.winner == seat else 0.0


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """Search limits and constants.

    ``time_budget`` is wall-clock seconds per decision (None: only the iteration cap counts);
    ``max_iterations`` caps the determinizations per decision; ``exploration`` is UCB1's ``c`` for rewards
    in [0, 1]; ``bias_weight`` scales the prior's progressive bias ``w * prior / (visits + 1)``;
    ``max_playout_steps`` cuts a playout (then ``evaluator`` or 0.5 scores it).
    """

    time_budget: float | None = 1.0
    max_iterations: int = 20_000
    exploration: float = 0.7
    bias_weight: float = 0.0
    max_playout_steps: int = 1_000


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What the last search did: iterations run, wall-clock seconds spent, root visits per action key and the
    summed rewards (for the searching seat, each in [0, 1]) of those visits — the post-game analysis
    (bots/analysis.py) reads a root action's win chance as ``root_rewards[k] / root_visits[k]``."""

    iterations: int
    seconds: float
    root_visits: dict[Hashable, int] = field(default_factory=dict)
    root_rewards: dict[Hashable, float] = field(default_factory=dict)


class _Node:
    """A tree node: the position after ``mover`` played the action that keys it in its parent."""

    __slots__ = ("avail", "bias", "children", "mover", "reward", "visits")

    def __init__(self, mover: Seat | None, bias: float = 0.0) -> None:
        self.mover = mover
        self.bias = bias
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0

    def ucb(self, c: float, w: float) -> float:
        mean = self.reward / self.visits
        explore = c * math.sqrt(math.log(max(self.avail, 1)) / self.visits)
        return mean + explore + w * self.bias / (self.visits + 1)


def action_key(game: AnyGame, seat: Seat, action: Any) -> Hashable:
    """A hashable identity for ``seat`` playing ``action``: the model's fields, else its JSON form."""
    try:
        key: Hashable = (seat, type(action).__name__, tuple(vars(action).items()))
        hash(key)
        return key
    except TypeError:
        return (seat, json.dumps(game.action_to_json(action), sort_keys=True, default=str))


class IsmctsBot:
    """SO-ISMCTS player; see the module docstring. Deterministic for a given rng when ``time_budget`` is None.

    ``rollout`` picks playout moves (default uniform); ``prior`` gives a progressive bias per action at
    expansion (default none); ``evaluator`` scores cut playouts. ``last_stats`` describes the last search.
    """

    def __init__(
        self,
        level: str,
        config: SearchConfig | None = None,
        *,
        rollout: RolloutPolicy = uniform_rollout,
        prior: PriorPolicy | None = None,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.level = level
        self.config = config or SearchConfig()
        self.rollout = rollout
        self.prior = prior
        self.evaluator = evaluator
        self.last_stats = SearchStats(0, 0.0)

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """The most visited root action legal in ``state``; ValueError if ``seat`` is not to move.

        A single legal action (e.g. ``next_season`` in a pause) is returned without searching.
        """
        start = time.perf_counter()
        legal = legal_or_raise(game, state, seat)
        if len(legal) == 1:
            self.last_stats = SearchStats(0, time.perf_counter() - start)
            return legal[0]
        root = _Node(None)
        iterations = self._search(game, state, seat, root, rng, start)
        visits = {key: child.visits for key, child in root.children.items()}
        rewards = {key: child.reward for key, child in root.children.items()}
        self.last_stats = SearchStats(iterations, time.perf_counter() - start, visits, rewards)
        return max(legal, key=lambda a: _rank(root, action_key(game, seat, a)))

    def _search(
        self, game: AnyGame, state: Any, seat: Seat, root: _Node, rng: random.Random, start: float
    ) -> int:
        cfg = self.config
        deadline = None if cfg.time_budget is None else start + cfg.time_budget
        done = 0
        while done < cfg.max_iterations:
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(game, game.determinize(state, seat, rng), seat, root, rng)
            done += 1
        return done

    def _iterate(self, game: AnyGame, det: Any, seat: Seat, root: _Node, rng: random.Random) -> None:
        path = [root]
        node = root
        while game.outcome(det) is None:
            mover, actions = _turn(game, det, rng)
            keyed = {action_key(game, mover, a): a for a in actions}
            untried = [k for k in keyed if k not in node.children]
            for k in keyed:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            if untried:
                node = self._expand(game, det, mover, node, keyed, untried, rng)
                path.append(node)
                break
            key = _select(node, keyed, self.config)
            game.apply(det, mover, keyed[key])
            node = node.children[key]
            path.append(node)
        scores = self._playout(game, det, rng)
        for n in path[1:]:
            n.visits += 1
            n.reward += scores[n.mover] if n.mover is not None else 0.0

    def _expand(
        self,
        game: AnyGame,
        det: Any,
        mover: Seat,
        node: _Node,
        keyed: dict[Hashable, Any],
        untried: list[Hashable],
        rng: random.Random,
    ) -> _Node:
        """Add one untried child (the prior's favourite, ties at random), play it in ``det``, return it."""
        bias = {k: 0.0 for k in untried}
        if self.prior is not None:
            actions = list(keyed.values())
            weights = self.prior(game, det, mover, actions, rng)
            for k, w in zip(keyed, weights, strict=True):
                if k in bias:
                    bias[k] = w
        best = max(bias.values())
        key = rng.choice([k for k in untried if bias[k] == best])
        child = _Node(mover, bias[key])
        child.avail = 1
        node.children[key] = child
        game.apply(det, mover, keyed[key])
        return child

    def _playout(self, game: AnyGame, det: Any, rng: random.Random) -> dict[Seat, float]:
        """Play ``det`` out with the rollout policy; reward per seat (both seats of a two-player game)."""
        for _ in range(self.config.max_playout_steps):
            result = reward_for(game, det, 0)
            if result is not None:
                return {0: result, 1: 1.0 - result}
            mover, actions = _turn(game, det, rng)
            action = actions[0] if len(actions) == 1 else self.rollout(game, det, mover, actions, rng)
            game.apply(det, mover, action)
        result = reward_for(game, det, 0)
        if result is None:
            result = 0.5 if self.evaluator is None else self.evaluator(game, det, 0)
        return {0: result, 1: 1.0 - result}


def _turn(game: AnyGame, state: Any, rng: random.Random) -> tuple[Seat, list[Any]]:
    """The seat that acts next in a simulation (drawn with ``rng`` if several may) and its legal actions."""
    seats = sorted(game.to_move(state))
    mover = seats[0] if len(seats) == 1 else rng.choice(seats)
    return mover, game.legal_actions(state, mover)


def _select(node: _Node, keyed: dict[Hashable, Any], cfg: SearchConfig) -> Hashable:
    """The child key with the highest UCB1 (+ progressive bias) among the actions available now."""
    children = node.children
    return max(keyed, key=lambda k: children[k].ucb(cfg.exploration, cfg.bias_weight))


def _rank(root: _Node, key: Hashable) -> tuple[int, float]:
    """Sort key for the final choice: most visits, then best mean reward; unexplored actions last."""
    child = root.children.get(key)
    if child is None or child.visits == 0:
        return (0, 0.0)
    return (child.visits, child.reward / child.visits)
