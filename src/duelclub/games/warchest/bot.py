"""Сундук войны bots: a static evaluation, the ``easy`` one-ply player and the ``hard`` searcher.

Both read only what their seat may know: every look-ahead runs on ``determinize(state, seat, rng)``.

- ``evaluate(s, side)``: markers on the board (the goal), coins on the board and alive, units standing
  on or close to locations the side does not control, the initiative.
- ``EasyBot``: drafts by a fixed, hand-made unit value table (:data:`DRAFT_VALUE`); in play it applies
  each legal action to one determinization and keeps the best evaluation (small random noise breaks ties).
- ``fitted_draft_pick``: ``hard``'s draft, by values fitted on self-play (:data:`DRAFT_LOGIT`).
- ``play``: the engine's ``apply`` without its legality check, for search (``ranked``, ``hard``).

``hard`` itself (SO-ISMCTS over determinizations with the easy ranking as prior, width limit and playout
policy) is in ``duelclub/bots/warchest.py``.
"""

from __future__ import annotations

import random
from typing import Any

from duelclub.games.warchest import coins, draft, engine
from duelclub.games.warchest.actions import Action
from duelclub.games.warchest.board import DIST, IS_LOCATION, LOCATIONS, N_HEXES
from duelclub.games.warchest.determinize import determinize
from duelclub.games.warchest.events import Events
from duelclub.games.warchest.state import DRAFT, State, take

DRAFT_VALUE: dict[str, float] = {
    "archer": 6, "berserker": 5, "cavalry": 6.5, "crossbowman": 6, "ensign": 5.5, "footman": 6.5,
    "knight": 7, "lancer": 5, "light_cavalry": 6.5, "marshal": 5.5, "mercenary": 5.5, "pikeman": 6,
    "royal_guard": 5.5, "scout": 6.5, "swordsman": 6.5, "warrior_priest": 7, "bannerman": 5.5,
    "bishop": 5, "earl": 6.5, "herald": 5.5, "infiltrator": 6.5, "skirmisher": 5.5, "assassin": 5,
    "saboteur": 5,
}  # fmt: skip
LOCS = tuple(sorted(LOCATIONS))
DRAFT_LOGIT: dict[str, float] = {
    "archer": 0.01, "berserker": -0.20, "cavalry": 0.32, "crossbowman": -0.09, "ensign": -0.34,
    "footman": -0.38, "knight": -0.04, "lancer": 0.07, "light_cavalry": 0.23, "marshal": -0.17,
    "mercenary": -0.05, "pikeman": 0.08, "royal_guard": 0.25, "scout": -0.23, "swordsman": -0.15,
    "warrior_priest": -0.01, "bannerman": 0.10, "bishop": -0.27, "earl": 0.03, "herald": 0.27,
    "infiltrator": 0.20, "skirmisher": 0.70, "assassin": -0.10, "saboteur": -0.23,
}  # fmt: skip
"""``hard``'s draft values: per unit type, its weight in a logistic regression of the winner on the
armies (``P(Wolf wins) = σ(b + Σ wolf types − Σ raven types)``, L2-regularised), fitted on 3000 matches
of ``easy`` against itself with randomly dealt armies (``draft="random"``, expansions cycled). The model
is additive, so the 1-2-2-2-1 draft is a zero-sum pick game where taking the most valuable remaining type
is optimal for both sides when they value types alike: a look-ahead over the opponent's picks (see
:func:`fitted_draft_pick`) would not change the choice."""


_NEAREST: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(sorted((DIST[h][loc], loc) for loc in LOCS)) for h in range(N_HEXES)
)
"""Per hex: (distance, location) for every location, nearest first."""


def evaluate(s: State, side: int) -> float:
    """Static value of ``s`` for ``side`` (higher is better); a won match is ±1000."""
    if s.outcome is not None:
        if s.outcome.winner is None:
            return 0.0
        return 1000.0 if s.outcome.winner == s.seat_of(side) else -1000.0
    control = s.control
    score = 0.0
    for x, sign in ((side, 1.0), (1 - side, -1.0)):
        p = s.sides[x]
        v = 12.0 * (6 - p.reserve) - 0.6 * sum(p.elim.values())
        for h, u in s.units.items():
            if u.owner != x:
                continue
            v += 1.2 * u.height + 2.0
            if IS_LOCATION[h]:
                if control[h] != x:
                    v += 3.5  # about to take it
                    continue
                v -= 0.5  # blocks its own deploy hex
            for d, loc in _NEAREST[h]:  # the nearest location the side does not control
                if control[loc] != x:
                    v += max(0.0, 3.0 - 0.8 * d)
                    break
        for zone in (p.bag, p.hand, p.up, p.down):
            v += 0.2 * sum(n for c, n in zone.items() if not c.startswith("decoy"))
        score += sign * v
    return score + (0.4 if s.initiative == side else -0.4)


def play(s: State, side: int, a: Action) -> None:
    """``engine.apply`` without its legality check, for actions taken from ``engine.legal`` (search only)."""
    ev: Events = []
    if s.phase == DRAFT:
        draft.pick(s, side, a, ev)
        if s.phase != DRAFT:
            engine.start_round(s, ev)
        return
    if s.pending is not None:
        engine.answer(s, a, ev)
    else:
        assert a.coin is not None
        take(s.sides[side].hand, a.coin)
        coins.play_coin(s, side, a, ev)
    engine.run(s, ev)


def draft_pick(s: State, actions: list[Action], rng: random.Random) -> Action:
    """The pick with the best table value (+ a little noise)."""
    return max(actions, key=lambda a: DRAFT_VALUE[str(a.type)] + rng.random() * 0.8)


def fitted_draft_pick(s: State, actions: list[Action], rng: random.Random) -> Action:
    """``hard``'s pick: the type with the best :data:`DRAFT_LOGIT` value (+ noise far below the gaps
    that matter). With additive values the draft needs no look-ahead: any pick order the opponent answers
    with, swapping a greedy pick for a lesser one only lowers the difference of the two armies' sums."""
    return max(actions, key=lambda a: DRAFT_LOGIT[str(a.type)] + rng.random() * 0.01)


def ranked(s: State, side: int, actions: list[Action], rng: random.Random) -> list[tuple[float, Action]]:
    """Actions sorted by one-ply evaluation on the (already determinized) state ``s``."""
    out = []
    for a in actions:
        c = s.copy()
        play(c, side, a)
        out.append((evaluate(c, side) + rng.random() * 0.05, a))
    out.sort(key=lambda t: -t[0])
    return out


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
