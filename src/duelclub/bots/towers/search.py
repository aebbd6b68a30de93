"""Дві вежі's information-set tree search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012, as in
``bots/ismcts.py``), specialised for speed and with this game's knowledge: the fitted one-ply chance
(``fitted.py``) as the prior of progressive bias, a greedy policy for the playouts and the fitted evaluation
where a playout is cut.

Every iteration samples a determinization of what the searching seat cannot see (``game.determinize``),
descends the one tree through the actions legal in it (UCB1 with availability counts, plus
``bias · prior / (visits + 1)``), adds one untried action (the prior's favourite), then plays both seats'
greedy policy until ``turns`` turns have started after the expansion, and scores the position at the start
of the mover's turn by ``fitted.reply_value`` (1, ½, 0 once the match has ended). The action played is the
root's most visited one. ``leaf="reply"`` scores the cut position as ``strong`` scores its leaves: the
mover's answer worst for the seat that just ended its turn, then that seat's best card
(``fitted.reply_chance``); ``leaf="value"`` takes the mover's best card only (``fitted.reply_value``).

Deterministic for a given rng when ``time_budget`` is None. Built by ``build`` for ``{"kind": "search"}``
params; no level uses it: against ``strong`` (``benchmarks/towers_master.py``, keys ``master/0…``, untimed,
load average ~6 on 2 cores) it lost clearly —

- 3000 iterations, ``leaf="value"``: 3 wins of 8 decided (Wilson 95 % 14–69 %), stopped;
- 2000 iterations, ``leaf="reply"``: 5 of 16 (31 %, 14–56 %), stopped; CPU per decision median 1.03 s,
  max 1.77 s (on the loaded machine; about 2 iterations per millisecond).

With ~2000 playouts over ~12 root actions and determinized opponent hands the tree's statistics are
noisier than ``strong``'s exhaustive paired lookahead (every action on the same 24 samples).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from duelclub.bots.base import AnyGame, legal_or_raise
from duelclub.bots.towers import fitted, heuristics
from duelclub.games.contract import Seat
from duelclub.games.towers.actions import Discard
from duelclub.games.towers.battlefields import BATTLEFIELDS
from duelclub.games.towers.state import MAIN

Key = tuple[int, bool, int]


class _Node:
    __slots__ = ("avail", "children", "mover", "prior", "reward", "visits")

    def __init__(self, mover: int, prior: float) -> None:
        self.mover = mover
        self.prior = prior
        self.children: dict[Key, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1


def _key(mover: int, action: Any) -> Key:
    return (mover, type(action) is Discard, action.card)


def prior_chances(state: Any, seat: Seat, actions: list[Any]) -> list[float]:
    """One-ply fitted win chance of each action for ``seat`` (a discard: the unchanged position's chance,
    lowered a little for a card worth keeping)."""
    field = state.field
    me, en = state.p[seat], state.p[1 - seat]
    base = fitted.chance_after(me, en, field)
    bf = BATTLEFIELDS[field]
    out = []
    for a in actions:
        if type(a) is Discard:
            out.append(base - 1e-3 * heuristics.keep_value(a.card, me, en, bf))
        else:
            out.append(fitted.play_chance(me, en, a.card, field))
    return out


class SearchBot:
    """SO-ISMCTS for Дві вежі; see the module docstring. ``last_iterations`` counts the last search."""

    def __init__(
        self,
        level: str,
        *,
        time_budget: float | None = 1.0,
        iterations: int = 2000,
        exploration: float = 0.5,
        bias: float = 1.0,
        turns: int = 1,
        policy: str = "easy",
        leaf: str = "reply",
    ) -> None:
        self.level = level
        self.time_budget = time_budget
        self.iterations = iterations
        self.exploration = exploration
        self.bias = bias
        self.turns = turns
        self.policy = heuristics.greedy_action if policy == "easy" else fitted.greedy_action
        self.leaf = leaf
        self.last_iterations = 0

    def choose(self, game: AnyGame, state: Any, seat: Seat, rng: random.Random) -> Any:
        """The root's most visited legal action; ValueError if ``seat`` is not to move."""
        start = time.perf_counter()
        legal = legal_or_raise(game, state, seat)
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        root = _Node(-1, 0.0)
        deadline = None if self.time_budget is None else start + self.time_budget
        n = 0
        while n < self.iterations:
            if deadline is not None and n > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(game, game.determinize(state, seat, rng), root)
            n += 1
        self.last_iterations = n

        def rank(a: Any) -> tuple[int, float]:
            child = root.children.get(_key(seat, a))
            if child is None or child.visits == 0:
                return (0, 0.0)
            return (child.visits, child.reward / child.visits)

        return max(legal, key=rank)

    def _iterate(self, game: AnyGame, det: Any, root: _Node) -> None:
        path = [root]
        node = root
        legal_actions, apply = game.legal_actions, game.apply
        c, w = self.exploration, self.bias
        while det.outcome is None:
            mover = det.active
            actions = legal_actions(det, mover)
            children = node.children
            untried = []
            best, best_v = None, -math.inf
            for a in actions:
                k = _key(mover, a)
                child = children.get(k)
                if child is None:
                    untried.append(a)
                    continue
                child.avail += 1
            if untried:
                priors = prior_chances(det, mover, untried)
                i = max(range(len(untried)), key=priors.__getitem__)
                a = untried[i]
                child = _Node(mover, priors[i])
                children[_key(mover, a)] = child
                apply(det, mover, a)
                path.append(child)
                break
            for a in actions:
                child = children[_key(mover, a)]
                v = (
                    child.reward / child.visits
                    + c * math.sqrt(math.log(child.avail) / child.visits)
                    + w * child.prior / (child.visits + 1)
                )
                if v > best_v:
                    best, best_v = a, v
            assert best is not None
            apply(det, mover, best)
            node = children[_key(mover, best)]
            path.append(node)
        r0 = self._playout(game, det)
        for n in path[1:]:
            n.visits += 1
            n.reward += r0 if n.mover == 0 else 1.0 - r0

    def _playout(self, game: AnyGame, s: Any) -> float:
        """Seat 0's reward: greedy play until ``turns`` turns have started, then the fitted chance."""
        policy, legal_actions, apply = self.policy, game.legal_actions, game.apply
        end = s.turn + self.turns
        while s.outcome is None:
            mover = s.active
            if s.turn >= end and s.phase == MAIN:
                if self.leaf == "reply":
                    # the other seat just ended its turn: the mover's answer worst for it, then its best card
                    v = 1.0 - fitted.reply_chance(s, 1 - mover)
                else:
                    v = fitted.reply_value(s, mover)
                return v if mover == 0 else 1.0 - v
            apply(s, mover, policy(s, mover, legal_actions(s, mover)))
        return heuristics.terminal_chance(s, 0)
