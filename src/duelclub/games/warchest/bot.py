"""Сундук войны bots: a static evaluation, the ``easy`` one-ply player and the ``hard`` searcher.

Both read only what their seat may know: every look-ahead runs on ``determinize(state, seat, rng)``.

- ``evaluate(s, side)``: markers on the board (the goal), coins on the board and alive, units standing
  on or close to locations the side does not control, the initiative.
- ``EasyBot``: drafts by a fixed unit value table; in play it applies each legal action to one
  determinization and keeps the best evaluation (small random noise breaks ties).
- ``HardBot``: drafts like easy (the same table; no search in the draft). In play it is an
  information-set Monte Carlo search whose tree is cut at the root: the easy ranking keeps the
  ``width`` best actions; every iteration draws a fresh determinization, plays one candidate
  (chosen by UCB1), then up to ``horizon`` more plies of the current round with the easy policy
  (``greedy``) or a cheap kind-weighted one for both sides, and scores the evaluation.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from duelclub.games.warchest import engine
from duelclub.games.warchest.actions import Action
from duelclub.games.warchest.board import DIST, IS_LOCATION, LOCATIONS
from duelclub.games.warchest.determinize import determinize
from duelclub.games.warchest.state import DRAFT, State

DRAFT_VALUE: dict[str, float] = {
    "archer": 6, "berserker": 5, "cavalry": 6.5, "crossbowman": 6, "ensign": 5.5, "footman": 6.5,
    "knight": 7, "lancer": 5, "light_cavalry": 6.5, "marshal": 5.5, "mercenary": 5.5, "pikeman": 6,
    "royal_guard": 5.5, "scout": 6.5, "swordsman": 6.5, "warrior_priest": 7, "bannerman": 5.5,
    "bishop": 5, "earl": 6.5, "herald": 5.5, "infiltrator": 6.5, "skirmisher": 5.5, "assassin": 5,
    "saboteur": 5,
}  # fmt: skip
LOCS = tuple(sorted(LOCATIONS))


def evaluate(s: State, side: int) -> float:
    """Static value of ``s`` for ``side`` (higher is better); a won match is ±1000."""
    if s.outcome is not None:
        if s.outcome.winner is None:
            return 0.0
        return 1000.0 if s.outcome.winner == s.seat_of(side) else -1000.0
    score = 0.0
    for x, sign in ((side, 1.0), (1 - side, -1.0)):
        p = s.sides[x]
        v = 12.0 * (6 - p.reserve) - 0.6 * sum(p.elim.values())
        targets = [loc for loc in LOCS if s.control[loc] != x]
        for h, u in s.units.items():
            if u.owner != x:
                continue
            v += 1.2 * u.height + 2.0
            if IS_LOCATION[h] and s.control[h] != x:
                v += 3.5  # about to take it
                continue
            if IS_LOCATION[h]:
                v -= 0.5  # blocks its own deploy hex
            if targets:
                v += max(0.0, 3.0 - 0.8 * min(DIST[h][loc] for loc in targets))
        for zone in (p.bag, p.hand, p.up, p.down):
            v += 0.2 * sum(n for c, n in zone.items() if not c.startswith("decoy"))
        score += sign * v
    return score + (0.4 if s.initiative == side else -0.4)


def draft_pick(s: State, actions: list[Action], rng: random.Random) -> Action:
    """The pick with the best table value (+ a little noise)."""
    return max(actions, key=lambda a: DRAFT_VALUE[str(a.type)] + rng.random() * 0.8)


def ranked(s: State, side: int, actions: list[Action], rng: random.Random) -> list[tuple[float, Action]]:
    """Actions sorted by one-ply evaluation on the (already determinized) state ``s``."""
    out = []
    for a in actions:
        c = s.copy()
        engine.apply(c, side, a)
        out.append((evaluate(c, side) + rng.random() * 0.05, a))
    out.sort(key=lambda t: -t[0])
    return out


_WEIGHT = {
    "control": 8.0, "attack": 4.0, "tactic": 3.0, "deploy": 3.0, "proclaim": 2.0, "move": 1.5,
    "bolster": 1.0, "recruit": 0.8, "initiative": 0.6, "pass": 0.3, "cure": 1.0, "purge": 1.0,
    "decline": 0.5, "push": 1.0, "poison": 1.0, "use_supply": 3.0, "plant_decoy": 3.0,
}  # fmt: skip


def cheap_action(s: State, side: int, actions: list[Action], rng: random.Random) -> Action:
    """Playout policy: weighted by action kind (control, attack, deploy first)."""
    if s.phase == DRAFT:
        return draft_pick(s, actions, rng)
    weights = [_WEIGHT.get(a.kind, 1.0) for a in actions]
    return rng.choices(actions, weights)[0]


class EasyBot:
    """One-ply greedy on one determinization."""

    def __init__(self, level: str = "easy") -> None:
        self.level = level

    def choose(self, game: Any, state: State, seat: int, rng: random.Random) -> Action:
        side = state.side_of(seat)
        actions = engine.legal(state, side)
        if not actions:
            raise ValueError(f"seat {seat} is not to move")
        if len(actions) == 1:
            return actions[0]
        if state.phase == DRAFT:
            return draft_pick(state, actions, rng)
        det = determinize(state, seat, rng)
        return ranked(det, side, actions, rng)[0][1]


class HardBot:
    """Root-cut ISMCTS over the easy ranking's best ``width`` actions (see the module docstring)."""

    def __init__(self, level: str = "hard", think_seconds: float = 0.5, width: int = 6,
                 max_iterations: int = 400, horizon: int = 10, greedy: bool = False) -> None:  # fmt: skip
        self.level = level
        self.think_seconds = think_seconds
        self.width = width
        self.max_iterations = max_iterations
        self.horizon = horizon
        self.greedy = greedy
        self.last_iterations = 0

    def choose(self, game: Any, state: State, seat: int, rng: random.Random) -> Action:
        start = time.perf_counter()
        side = state.side_of(seat)
        actions = engine.legal(state, side)
        if not actions:
            raise ValueError(f"seat {seat} is not to move")
        if len(actions) == 1:
            return actions[0]
        if state.phase == DRAFT:
            return draft_pick(state, actions, rng)
        first = ranked(determinize(state, seat, rng), side, actions, rng)
        cands = [a for _, a in first[: self.width]]
        if len(cands) == 1 or first[0][0] >= 900:
            return cands[0]
        n = [0] * len(cands)
        total = [0.0] * len(cands)
        it = 0
        deadline = start + self.think_seconds
        while it < self.max_iterations and (it < len(cands) or time.perf_counter() < deadline):
            if it < len(cands):
                i = it
            else:
                logt = math.log(it)
                i = max(range(len(cands)), key=lambda k: total[k] / n[k] + 0.5 * math.sqrt(logt / n[k]))
            det = determinize(state, seat, rng)
            engine.apply(det, side, cands[i])
            total[i] += self._playout(det, side, rng)
            n[i] += 1
            it += 1
        self.last_iterations = it
        best = max(range(len(cands)), key=lambda k: (total[k] / n[k], -k))
        return cands[best]

    def _playout(self, s: State, side: int, rng: random.Random) -> float:
        rnd = s.round
        for _ in range(self.horizon):
            mover = engine.to_move_side(s)
            if mover is None or s.round != rnd:
                break
            acts = engine.legal(s, mover)
            if len(acts) == 1:
                a = acts[0]
            elif self.greedy:
                a = ranked(s, mover, acts, rng)[0][1]
            else:
                a = cheap_action(s, mover, acts, rng)
            engine.apply(s, mover, a)
        return 1.0 / (1.0 + math.exp(-evaluate(s, side) / 8.0))
