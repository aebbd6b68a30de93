"""Дві вежі bots' knowledge: the hand-made position value, the ``easy`` greedy player, and the policy
``hard`` (``bots/towers.py``) uses for the rest of a turn and in its rollouts (:func:`greedy_action`). The
value ``hard`` scores positions with is the fitted one of ``fitted.py``.

Everything here reads only what ``seat`` may see (rules/towers.md §8.3): its own hand and the public counters
of both players and the battlefield. Inside ``hard``'s search the bots get determinized states, where the
opponent's hand they read is a sample.

The value of a position for a player is a weighted sum of what wins games: the tower (more as it nears the
victory height), the wall, the producers (worth more on fields with far targets), and the stock of resources
(with diminishing worth). A card is worth the change it makes to *my value minus the enemy's value*, computed
by running the card's own effect on a copy of the counters; a card that wins at once is worth
:data:`WIN`, one that loses at once ``-WIN``. «Граємо знову» adds the worth of an extra action. A discard is
worth a little, more for a card that cannot be afforded soon.

    >>> import random
    >>> from duelclub.games.towers import GAME
    >>> state = GAME.new_match(bytes(32), GAME.parse_options({}))
    >>> seat = next(iter(GAME.to_move(state)))
    >>> EasyBot().choose(GAME, state, seat, random.Random(0)) in GAME.legal_actions(state, seat)
    True
"""

from __future__ import annotations

import math
import random
from typing import Any

from duelclub.games.contract import Game, Seat
from duelclub.games.towers.actions import Discard, TowersAction
from duelclub.games.towers.battlefields import BATTLEFIELDS, Battlefield
from duelclub.games.towers.cards import COST, DRAW_DISCARD, PLAY_AGAIN, RESOURCE, RUN
from duelclub.games.towers.dsl import BARRACKS, MINES, MONASTERIES, ORE, TOWER, WALL
from duelclub.games.towers.state import FORCED, State

WIN = 10_000.0
AGAIN_BONUS = 6.0
"""Worth of the extra action of «Граємо знову» (about one average card)."""
DRAW_DISCARD_BONUS = 2.0


def won(me: list[int], en: list[int], bf: Battlefield) -> bool:
    """§7.3 for ``me``: the enemy's tower destroyed, ``me``'s tower or one stock at its target."""
    if en[TOWER] <= 0 or me[TOWER] >= bf.victory_tower:
        return True
    vr = bf.victory_resource
    return me[5] >= vr or me[6] >= vr or me[7] >= vr


def value(p: list[int], bf: Battlefield) -> float:
    """How good one player's counters are on ``bf`` (higher is better; not a probability)."""
    vt, vr = bf.victory_tower, bf.victory_resource
    tower = p[TOWER]
    progress = tower / vt
    v = 1.2 * tower + 25.0 * progress * progress * progress  # the last steps to the target count more
    if tower < 12:
        v -= (12 - tower) * 1.5  # a low tower is in danger of destruction
    wall = p[WALL]
    v += 0.6 * wall if wall < 40 else 24.0 + 0.25 * (wall - 40)
    # producers: each one is a stream of resources; they matter more the longer the game goes
    horizon = 3.0 + vt / 25.0
    prod = p[MINES] + p[MONASTERIES] + p[BARRACKS]
    v += horizon * (prod if prod < 12 else 12 + 0.5 * (prod - 12))
    for r in (5, 6, 7):
        stock = p[r]
        v += 0.35 * stock if stock < 25 else 8.75 + 0.1 * (stock - 25)
        share = stock / vr
        v += 20.0 * share * share * share
    return v


def score(me: list[int], en: list[int], bf: Battlefield) -> float:
    """My value minus the enemy's, or ±WIN (0 for a draw) when a victory condition holds (§7.3)."""
    mine, theirs = won(me, en, bf), won(en, me, bf)
    if mine or theirs:
        return 0.0 if mine and theirs else (WIN if mine else -WIN)
    return value(me, bf) - value(en, bf)


def play_score(me: list[int], en: list[int], card: int, bf: Battlefield) -> float:
    """The score after playing ``card`` (paid from ``me``); the lists are not changed."""
    m, e = me[:], en[:]
    m[ORE + RESOURCE[card]] -= COST[card]
    RUN[card](m, e)
    s = score(m, e, bf)
    if -WIN < s < WIN:
        if PLAY_AGAIN[card]:
            s += AGAIN_BONUS
        if DRAW_DISCARD[card]:
            s += DRAW_DISCARD_BONUS
    return s


def keep_value(card: int, me: list[int], en: list[int], bf: Battlefield) -> float:
    """How much a card in hand is worth keeping: its play score gain, less for one far from affordable."""
    base = score(me, en, bf)
    m = me[:]
    stock = m[ORE + RESOURCE[card]]
    deficit = COST[card] - stock
    if deficit > 0:
        m[ORE + RESOURCE[card]] = COST[card]  # as if it were affordable
    gain = (
        play_score(m, en, card, bf) - score(m, en, bf) if deficit > 0 else play_score(me, en, card, bf) - base
    )
    gain = max(-50.0, min(gain, 200.0))
    if deficit > 0:
        income = max(1, me[MINES + RESOURCE[card]])
        gain -= 1.5 * deficit / income
    return gain


def ranked_actions(state: State, seat: Seat, actions: list[TowersAction]) -> list[tuple[float, TowersAction]]:
    """Each action with its heuristic score (the score after it, from ``seat``'s side)."""
    bf = BATTLEFIELDS[state.field]
    me, en = state.p[seat], state.p[1 - seat]
    base = score(me, en, bf)
    out: list[tuple[float, TowersAction]] = []
    forced = state.phase == FORCED
    for a in actions:
        card = a.card  # type: ignore[union-attr]
        if type(a) is Discard:
            # a discard keeps the score; the worst card to keep is the best to lose
            out.append((base - keep_value(card, me, en, bf) - (0.0 if forced else 3.0), a))
        else:
            out.append((play_score(me, en, card, bf), a))
    return out


def heuristic_action(
    game: Game[Any, Any, Any], state: State, seat: Seat, actions: list[Any], rng: random.Random
) -> Any:
    """The best-scored action (ties at random): ``easy``'s choice."""
    best, choice = -math.inf, actions[0]
    for s, a in ranked_actions(state, seat, actions):
        s += rng.random() * 0.5
        if s > best:
            best, choice = s, a
    return choice


def greedy_action(state: State, seat: Seat, actions: list[TowersAction]) -> TowersAction:
    """The best-scored action, the first on ties (no randomness): ``hard``'s policy for the rest of a turn."""
    if len(actions) == 1:
        return actions[0]
    best, choice = -math.inf, actions[0]
    for s, a in ranked_actions(state, seat, actions):
        if s > best:
            best, choice = s, a
    return choice


def terminal_chance(state: State, seat: Seat) -> float:
    """1, 0.5 or 0 for a finished match from ``seat``'s side."""
    outcome = state.outcome
    assert outcome is not None
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == seat else 0.0


class EasyBot:
    """Greedy one-ply player: the legal action with the best :func:`ranked_actions` score."""

    def __init__(self, level: str = "easy") -> None:
        self.level = level

    def choose(self, game: Game[Any, Any, Any], state: State, seat: Seat, rng: random.Random) -> TowersAction:
        """The best-scored legal action; ValueError if ``seat`` is not to move."""
        if seat not in game.to_move(state):
            raise ValueError(f"seat {seat} is not to move")
        actions = game.legal_actions(state, seat)
        return heuristic_action(game, state, seat, actions, rng)  # type: ignore[no-any-return]
