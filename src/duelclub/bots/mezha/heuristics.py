"""Межа bots' knowledge: the ``easy`` heuristic player and the fast policy ``hard`` uses in its playouts.

Both read nothing but ``view(state, seat)`` (rules/mezha.md §What each player sees): the own hand, the
face-up units, the number of the opponent's face-down units, the omen, hand sizes and who has passed. So
they cannot peek at the opponent's hand, deck order or future omens; inside ``hard``'s search they are
handed determinized states, where what they read is a sample.

The heuristic in one paragraph: each field's *margin* is my strength there minus the opponent's (a hidden
unit is guessed at :data:`HIDDEN_GUESS`; under Гроза the lightning is applied to the strongest unit). A
field's chance to be won is a logistic of its margin whose spread grows with the cards the opponent still
holds; the season's chance is the chance of winning at least two of the three fields. Each play is valued by
how much it raises the season's chance, less a cost for spending the card (strong cards are dearer before
the last season, a гонец replaces itself, a корни unit stays a second season). The best play is made if it
is worth more than :data:`PASS_MARGIN`, else the bot passes — which covers both "the season is secured" and
"the season is hopeless". Once the opponent has passed, their board is final: the bot passes as soon as it
is winning, plays towards the cheapest winning plan while its hand can still reach it, and passes otherwise.

Examples::

    >>> import random
    >>> from duelclub.games.mezha import GAME
    >>> state = GAME.new_match(bytes(32), GAME.parse_options({}))
    >>> seat = next(iter(GAME.to_move(state)))
    >>> EasyBot().choose(GAME, state, seat, random.Random(0)) in GAME.legal_actions(state, seat)
    True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from duelclub.games.contract import JSON, Game, Seat
from duelclub.games.mezha.cards import (
    CARD_INDEX,
    HAS_LONER,
    HAS_MESSENGER,
    HAS_RALLY,
    HAS_ROOTS,
    HAS_SHIELD,
    HAS_SPROUT,
    IS_TACTIC,
    LIGHTNING_DAMAGE,
    LONER_BONUS,
    PODZHOG,
    PODZHOG_DAMAGE,
    ROSA,
    SHOT_DAMAGE,
    STRENGTH,
    THAW_BONUS,
)

HIDDEN_GUESS = 4.5
"""Guessed strength of an opponent's face-down unit (Тень в листве 5 ×3, Сова-дозорная 3 ×2, + growth)."""

PASS_MARGIN = 0.012
"""A play must raise the season's win chance by this much more than the card's cost, else pass."""

_SPEND_COST = (0.03, 0.02, 0.0)
"""Cost of one point of card value, in season win chance, in seasons 1, 2, 3 (nothing is saved for later)."""

_MESSENGER_VALUE = 0.5
_TACTIC_VALUE = 3.0
_ROOTS_DISCOUNT = 0.5


@dataclass(slots=True)
class Piece:
    """A visible unit as the bot models it: card kind, current strength, unspent shield, placement number."""

    kind: int
    strength: int
    shield: bool
    placement: int
    carried: bool


@dataclass(slots=True)
class Board:
    """The deciding seat's picture of a season, read from its view.

    ``mine[f]``/``theirs[f]``: the visible units of each half of field ``f`` (the opponent's face-up ones);
    ``hidden[f]``: the opponent's face-down units there; ``hand``: my card kinds (a multiset as a list).
    """

    season: int
    omen: str
    capacity: int
    wins: tuple[int, int]
    passed: tuple[bool, bool]
    opp_hand: int
    hand: list[int]
    mine: list[list[Piece]]
    theirs: list[list[Piece]]
    hidden: list[int]
    hidden_first: list[bool]

    def clone(self) -> Board:
        return Board(
            self.season,
            self.omen,
            self.capacity,
            self.wins,
            self.passed,
            self.opp_hand,
            self.hand[:],
            [_copy(half) for half in self.mine],
            [_copy(half) for half in self.theirs],
            self.hidden[:],
            self.hidden_first[:],
        )


def _copy(half: list[Piece]) -> list[Piece]:
    return [Piece(p.kind, p.strength, p.shield, p.placement, p.carried) for p in half]


def _piece(unit: JSON) -> Piece:
    return Piece(
        CARD_INDEX[unit["card"]],
        unit["strength"],
        unit["shield"] == "ready",
        unit["placement"],
        unit["carried"],
    )


def read_board(view: JSON) -> Board:
    """The :class:`Board` of ``view["you"]`` (a seat's view in the season phase)."""
    me: int = view["you"]
    opp = 1 - me
    mine: list[list[Piece]] = []
    theirs: list[list[Piece]] = []
    hidden: list[int] = []
    hidden_first: list[bool] = []
    for field in view["fields"]:
        mine.append([_piece(u) for u in field[me]["units"]])
        own, secret = [], 0
        first_new = True  # under Оттепель the first unit put there this season got +2
        hidden_thaw = False
        for u in field[opp]["units"]:
            if u.get("hidden"):
                secret += 1
                hidden_thaw = hidden_thaw or first_new
                first_new = False
            else:
                own.append(_piece(u))
                first_new = first_new and bool(u["carried"])
        theirs.append(own)
        hidden.append(secret)
        hidden_first.append(hidden_thaw and view["omen"] == "thaw")
    return Board(
        season=view["season"],
        omen=view["omen"],
        capacity=view["capacity"],
        wins=(view["wins"][me], view["wins"][opp]),
        passed=(view["passed"][me], view["passed"][opp]),
        opp_hand=view["hand_sizes"][opp],
        hand=[CARD_INDEX[c] for c in view["hand"]],
        mine=mine,
        theirs=theirs,
        hidden=hidden,
        hidden_first=hidden_first,
    )


# -- the board model: what a play does (rules/mezha.md §Abilities, D14) --------------------------------


def _strongest(pieces: list[Piece]) -> Piece | None:
    """Highest strength, ties to the later placement (§Strength, damage, burning)."""
    best: Piece | None = None
    for p in pieces:
        if best is None or (p.strength, p.placement) > (best.strength, best.placement):
            best = p
    return best


def _hit(half: list[Piece], target: Piece, amount: int) -> None:
    """Damage with щит and burning (§Strength, damage, burning)."""
    if target.shield:
        target.shield = False
        return
    target.strength -= amount
    if target.strength <= 0:
        half.remove(target)


def play_on(board: Board, kind: int, field: int) -> None:
    """Apply my play of card ``kind`` on ``field`` to ``board`` (approximately: draws are not modelled)."""
    board.hand.remove(kind)
    play_into(board.omen, board.mine[field], board.theirs[field], kind)


def play_into(omen: str, mine: list[Piece], theirs: list[Piece], kind: int) -> None:
    """Apply my play of ``kind`` to one field's halves ``mine`` and ``theirs`` (D14 entry sequence)."""
    if kind == ROSA:
        for p in mine:
            p.strength += 2 if HAS_SPROUT[p.kind] else 1
        return
    if kind == PODZHOG:
        for p in theirs[:]:
            _hit(theirs, p, PODZHOG_DAMAGE)
        return
    strength = STRENGTH[kind]
    if omen == "thaw" and all(p.carried for p in mine):
        strength += THAW_BONUS
    if HAS_LONER[kind] and not mine:
        strength += LONER_BONUS
    if HAS_RALLY[kind]:
        for p in mine:
            p.strength += 1
    if SHOT_DAMAGE[kind]:
        target = _strongest(theirs)
        if target is not None:
            _hit(theirs, target, SHOT_DAMAGE[kind])
    for p in mine:
        if HAS_SPROUT[p.kind]:
            p.strength += 1
    mine.append(Piece(kind, strength, HAS_SHIELD[kind], 1 << 20, False))


def field_margin(board: Board, field: int, mine: list[Piece], theirs: list[Piece]) -> float:
    """My expected final strength minus the opponent's on ``field`` if its halves were ``mine`` and
    ``theirs`` (plus the opponent's hidden units there); Гроза's lightning included."""
    my_total: float = 0
    for p in mine:
        my_total += p.strength
    their_total = HIDDEN_GUESS * board.hidden[field] + (THAW_BONUS if board.hidden_first[field] else 0)
    for p in theirs:
        their_total += p.strength
    if board.omen == "storm":
        return _storm(board.hidden[field], mine, theirs, my_total, their_total)
    return my_total - their_total


def margins(board: Board) -> list[float]:
    """:func:`field_margin` of the three fields as they are."""
    return [field_margin(board, f, board.mine[f], board.theirs[f]) for f in range(3)]


def _storm(hidden: int, mine: list[Piece], theirs: list[Piece], my_total: float, their_total: float) -> float:
    """The margin after the lightning strikes the strongest unit of a field (D2, D15)."""
    a = _strongest(mine)
    b = _strongest(theirs)
    b_strength = float(b.strength) if b is not None else 0.0
    if hidden:
        b_strength = max(b_strength, HIDDEN_GUESS)
        b = None
    if a is not None and a.strength >= b_strength:
        return my_total - (0 if a.shield else min(LIGHTNING_DAMAGE, a.strength)) - their_total
    loss = 0.0 if b is not None and b.shield else min(float(LIGHTNING_DAMAGE), b_strength)
    return my_total - their_total + loss


# -- valuing plays --------------------------------------------------------------------------------------


def _spread(board: Board) -> float:
    """Logistic spread of a field's margin: narrow once the opponent has passed (their board is final,
    only their face-down units are unknown), wider the more cards they still hold."""
    return 1.0 + 0.4 * sum(board.hidden) if board.passed[1] else 2.0 + 0.5 * min(board.opp_hand, 6)


def _field_chance(margin: float, spread: float) -> float:
    return 1.0 / (1.0 + math.exp(-margin / spread))


def _two_of_three(p: Sequence[float]) -> float:
    return p[0] * p[1] + p[0] * p[2] + p[1] * p[2] - 2.0 * p[0] * p[1] * p[2]


def season_chance(board: Board, field_margins: Sequence[float]) -> float:
    """Chance to win the season: two of three fields, each won with a logistic chance of its margin."""
    spread = _spread(board)
    return _two_of_three([_field_chance(m, spread) for m in field_margins])


def card_cost(board: Board, kind: int) -> float:
    """What spending ``kind`` now costs in season win chance (0 in the last season)."""
    rate = _SPEND_COST[min(board.season, 3) - 1]
    if 1 in board.wins:
        rate /= 2.0  # a match point for either side: this season matters twice as much
    if IS_TACTIC[kind]:
        value = _TACTIC_VALUE
    elif HAS_MESSENGER[kind]:
        value = _MESSENGER_VALUE
    else:
        value = STRENGTH[kind] + SHOT_DAMAGE[kind] / 2
        if HAS_ROOTS[kind]:
            value *= _ROOTS_DISCOUNT
    return rate * value


def score_plays(board: Board, plays: Sequence[tuple[int, int]]) -> list[float]:
    """For each ``(kind, field)``: the gain in season chance minus the card's cost."""
    spread = _spread(board)
    chances = [_field_chance(m, spread) for m in margins(board)]
    base = _two_of_three(chances)
    costs: dict[int, float] = {}
    out = []
    for kind, field in plays:
        mine, theirs = _copy(board.mine[field]), _copy(board.theirs[field])
        play_into(board.omen, mine, theirs, kind)
        after = chances[:]
        after[field] = _field_chance(field_margin(board, field, mine, theirs), spread)
        cost = costs.get(kind)
        if cost is None:
            cost = costs[kind] = card_cost(board, kind)
        out.append(_two_of_three(after) - base - cost)
    return out


def is_winning(field_margins: Sequence[float]) -> bool:
    """Would the season be mine if scored now (§Scoring a season, step 4, with margins as totals)?"""
    won = sum(1 for m in field_margins if m > 0)
    lost = sum(1 for m in field_margins if m < 0)
    return won > lost or (won == lost and sum(field_margins) > 0)


# -- deciding -------------------------------------------------------------------------------------------

Choice = tuple[int, int] | None
"""A play as ``(card kind, field)``, or None for pass."""


def decide(board: Board, plays: Sequence[tuple[int, int]], rng: random.Random) -> Choice:
    """The heuristic's move among ``plays`` (the legal ``(kind, field)`` pairs); None means pass."""
    if not plays:
        return None
    if board.passed[1]:
        return _finish(board, plays)
    scores = score_plays(board, plays)
    best = max(scores)
    if best < PASS_MARGIN:
        return None
    return rng.choice([p for p, s in zip(plays, scores, strict=True) if s >= best - 1e-9])


def _finish(board: Board, plays: Sequence[tuple[int, int]]) -> Choice:
    """The opponent has passed: pass if winning; else start the cheapest plan that wins, if any does.

    The plan is greedy on a copy of the board: the play that wins at once at the lowest cost, else the one
    that raises the season chance most; it is followed while the hand lasts (draws are not counted).
    """
    if is_winning(margins(board)):
        return None
    plan = board.clone()
    first: Choice = None
    options = list(plays)
    while options:
        step = _finish_step(plan, options)
        if step is None:
            return None
        first = first or step
        play_on(plan, *step)
        if is_winning(margins(plan)):
            return first
        options = _plays_on(plan)
    return None


def _finish_step(board: Board, plays: Sequence[tuple[int, int]]) -> Choice:
    """One step of :func:`_finish`'s plan; None when no play helps."""
    winners: list[tuple[float, tuple[int, int]]] = []
    best: tuple[float, Choice] = (1e-9, None)
    base = season_chance(board, margins(board))
    for kind, field in plays:
        after = board.clone()
        play_on(after, kind, field)
        m = margins(after)
        if is_winning(m):
            winners.append((card_cost(board, kind) - 1e-3 * sum(m), (kind, field)))
        gain = season_chance(board, m) - base
        if gain > best[0]:
            best = (gain, (kind, field))
    if winners:
        return min(winners)[1]
    return best[1]


def _plays_on(board: Board) -> list[tuple[int, int]]:
    """The legal plays of ``board.hand`` (distinct kinds; units need a free slot, D6 tactics do not)."""
    out = []
    for kind in sorted(set(board.hand)):
        for f in range(3):
            if IS_TACTIC[kind] or len(board.mine[f]) < board.capacity:
                out.append((kind, f))
    return out


# -- the contract side ----------------------------------------------------------------------------------


def heuristic_action(
    game: Game[Any, Any, Any], state: Any, seat: Seat, actions: list[Any], rng: random.Random
) -> Any:
    """The heuristic's choice among ``actions`` (legal for ``seat``), from ``game.view(state, seat)`` only.

    Outside a season (the pause) the only action is returned. Usable as ISMCTS's rollout policy.
    """
    if len(actions) == 1:
        return actions[0]
    view = game.view(state, seat)
    board = read_board(view)
    plays = {(CARD_INDEX[a.card], a.field): a for a in actions if a.kind == "play"}
    choice = decide(board, list(plays), rng)
    if choice is None:
        return next(a for a in actions if a.kind == "pass")
    return plays[choice]


class EasyBot:
    """The ``easy`` level: :func:`heuristic_action` on the real state (it reads only the seat's view)."""

    def __init__(self, level: str = "easy") -> None:
        self.level = level

    def choose(self, game: Game[Any, Any, Any], state: Any, seat: Seat, rng: random.Random) -> Any:
        """A legal action for ``seat``; ValueError if ``seat`` is not to move."""
        if seat not in game.to_move(state):
            raise ValueError(f"seat {seat} is not to move")
        return heuristic_action(game, state, seat, game.legal_actions(state, seat), rng)
