"""Дві вежі's fitted evaluation: the win chance of a position, learnt from self-play — ``hard``'s leaf value,
its policy for the rest of a turn and in rollouts (``bots/towers.py``).

The position is read right after a player ended its turn (the enemy moves next, before its production). The
chance that this player — ``me`` — wins is a logistic model per battlefield (rules/towers.md §2: the fields
differ in targets and in how long a match lasts)::

    P(me wins) = σ(b + g(me, en) − g(en, me)),   g(p, q) = Σ_k w_k · f_k(p, q)

with the :data:`FEATURES` of one player's counters ``f_k`` (the tower against the victory height and in
absolute steps, the wall, producers, stocks against the victory resource, and how much of the tower and wall
the enemy's troops and barracks could reach). ``b`` is the worth of being the one who just moved. Weights
and ``b`` are in ``eval_weights.json`` beside this file, fitted by L2-regularised logistic regression on the
positions of self-play matches (``benchmarks/towers_fit.py``, which rewrites the file): first ``easy``
against itself, then this module's greedy player against itself. On held-out positions its log-loss is
0.50–0.58 per field against 0.56–0.68 for ``easy``'s hand-made score (calibrated); as a one-ply player
(:func:`greedy_action`) it beats ``easy`` in 56.4 % of 2,000 decided matches.

Only what ``me`` may see is read (§8.3): counters, its own hand; inside ``hard``'s search the enemy's hand
is a determinized sample.

    >>> from duelclub.games.towers.battlefields import BATTLEFIELDS
    >>> start, ruined = list(BATTLEFIELDS[0].start), [0, 0, 2, 2, 2, 5, 5, 5]
    >>> chance_after(start, ruined, 0), 0.0 < chance_after(start, start, 0) < 1.0
    (1.0, True)
"""

from __future__ import annotations

import json
import math
from importlib import resources

from duelclub.bots.towers.heuristics import keep_value, won
from duelclub.games.contract import Seat
from duelclub.games.towers.actions import Discard, TowersAction
from duelclub.games.towers.battlefields import BATTLEFIELD_IDS, BATTLEFIELDS, Battlefield
from duelclub.games.towers.cards import COST, DRAW_DISCARD, PLAY_AGAIN, RESOURCE, RUN
from duelclub.games.towers.dsl import BARRACKS, MINES, MONASTERIES, ORE, TOWER, TROOPS, WALL
from duelclub.games.towers.state import State

FEATURES: tuple[str, ...] = (
    "tower/vt",
    "(tower/vt)^2",
    "(tower/vt)^3",
    "min(tower,5)",
    "min(tower,10)",
    "min(tower,20)",
    "min(tower,40)",
    "wall",
    "min(wall,5)",
    "min(wall,10)",
    "min(wall,20)",
    "min(wall,40)",
    "mines",
    "monasteries",
    "barracks",
    "min(mines,3)",
    "min(monasteries,3)",
    "min(barracks,3)",
    "ore",
    "mana",
    "troops",
    "min(ore,5)",
    "min(mana,5)",
    "min(troops,5)",
    "min(ore,15)",
    "min(mana,15)",
    "min(troops,15)",
    "(max stock/vr)^3",
    "(ore+mana+troops)/vr",
    "min(tower+wall,threat)",
    "min(tower,threat)",
)
"""Names of ``f_k(p, q)``: ``vt``/``vr`` are the field's victory tower and resource; ``threat`` is the
enemy's troops plus twice its barracks (what its green cards can hit with next)."""

AGAIN_BONUS = 0.3
"""Logit worth of the extra action a «Граємо знову» card gives (an action not searched; tuned by one-ply
play against ``easy``: 0 → 53 %, 0.15 → 56 %, 0.3–0.5 → 56 %)."""

DRAW_DISCARD_BONUS = 0.05
"""Logit worth of the card swap of «Візьміть карту, скиньте карту» when it is not searched."""


def _load() -> tuple[tuple[float, ...], ...]:
    raw = json.loads(resources.files(__package__).joinpath("eval_weights.json").read_text("utf-8"))
    table = raw["weights"]
    out = []
    for field in BATTLEFIELD_IDS:
        w = tuple(float(x) for x in table[field])
        if len(w) != len(FEATURES) + 1:
            raise ValueError(f"eval_weights.json: {field} has {len(w)} numbers, expected {len(FEATURES) + 1}")
        out.append(w)
    return tuple(out)


WEIGHTS: tuple[tuple[float, ...], ...] = _load()
"""Per battlefield (index of ``BATTLEFIELDS``): the weights of :data:`FEATURES`, then the bias ``b``."""


def features(p: list[int], q: list[int], field: int) -> list[float]:
    """``f_k(p, q)`` in :data:`FEATURES` order for player counters ``p`` against the enemy's ``q`` (the
    reference the fit uses; :func:`logit` computes the same sum without building the list)."""
    bf = BATTLEFIELDS[field]
    vt, vr = bf.victory_tower, bf.victory_resource
    tw, w = p[TOWER], p[WALL]
    o, m, tr = p[ORE], p[ORE + 1], p[TROOPS]
    t = tw / vt
    rm = max(o, m, tr) / vr
    threat = q[TROOPS] + 2 * q[BARRACKS]
    return [
        t,
        t * t,
        t * t * t,
        min(tw, 5),
        min(tw, 10),
        min(tw, 20),
        min(tw, 40),
        w,
        min(w, 5),
        min(w, 10),
        min(w, 20),
        min(w, 40),
        p[MINES],
        p[MONASTERIES],
        p[BARRACKS],
        min(p[MINES], 3),
        min(p[MONASTERIES], 3),
        min(p[BARRACKS], 3),
        o,
        m,
        tr,
        min(o, 5),
        min(m, 5),
        min(tr, 5),
        min(o, 15),
        min(m, 15),
        min(tr, 15),
        rm * rm * rm,
        (o + m + tr) / vr,
        min(tw + w, threat),
        min(tw, threat),
    ]


def _g(p: list[int], q: list[int], w: tuple[float, ...], vt: int, vr: int) -> float:
    """``Σ w_k f_k(p, q)`` unrolled (this runs hundreds of thousands of times per decision)."""
    tw = p[0]
    t = tw / vt
    wl = p[1]
    mi, mo, ba = p[2], p[3], p[4]
    o, m, tr = p[5], p[6], p[7]
    top = o if o > m else m
    if tr > top:
        top = tr
    rm = top / vr
    hp = tw + wl
    th = q[7] + 2 * q[4]
    return (
        w[0] * t
        + w[1] * t * t
        + w[2] * t * t * t
        + w[3] * (tw if tw < 5 else 5)
        + w[4] * (tw if tw < 10 else 10)
        + w[5] * (tw if tw < 20 else 20)
        + w[6] * (tw if tw < 40 else 40)
        + w[7] * wl
        + w[8] * (wl if wl < 5 else 5)
        + w[9] * (wl if wl < 10 else 10)
        + w[10] * (wl if wl < 20 else 20)
        + w[11] * (wl if wl < 40 else 40)
        + w[12] * mi
        + w[13] * mo
        + w[14] * ba
        + w[15] * (mi if mi < 3 else 3)
        + w[16] * (mo if mo < 3 else 3)
        + w[17] * (ba if ba < 3 else 3)
        + w[18] * o
        + w[19] * m
        + w[20] * tr
        + w[21] * (o if o < 5 else 5)
        + w[22] * (m if m < 5 else 5)
        + w[23] * (tr if tr < 5 else 5)
        + w[24] * (o if o < 15 else 15)
        + w[25] * (m if m < 15 else 15)
        + w[26] * (tr if tr < 15 else 15)
        + w[27] * rm * rm * rm
        + w[28] * (o + m + tr) / vr
        + w[29] * (hp if hp < th else th)
        + w[30] * (tw if tw < th else th)
    )


def logit(me: list[int], en: list[int], field: int) -> float:
    """``b + g(me, en) − g(en, me)``: the log-odds that ``me``, who just ended its turn, wins."""
    w = WEIGHTS[field]
    bf = BATTLEFIELDS[field]
    vt, vr = bf.victory_tower, bf.victory_resource
    return _g(me, en, w, vt, vr) - _g(en, me, w, vt, vr) + w[-1]


def _decided(me: list[int], en: list[int], bf: Battlefield) -> float | None:
    """1/0/½ for ``me`` when a victory condition holds (§7.3, both at once is a draw), else None."""
    mine, theirs = won(me, en, bf), won(en, me, bf)
    if mine or theirs:
        return 0.5 if mine and theirs else (1.0 if mine else 0.0)
    return None


def chance_after(me: list[int], en: list[int], field: int, bonus: float = 0.0) -> float:
    """Win chance in [0, 1] for ``me`` right after its turn: 1/0/½ when a victory condition holds (§7.3,
    both at once is a draw), else σ(:func:`logit` + ``bonus``)."""
    decided = _decided(me, en, BATTLEFIELDS[field])
    if decided is not None:
        return decided
    z = logit(me, en, field) + bonus
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def play_chance(me: list[int], en: list[int], card: int, field: int) -> float:
    """:func:`chance_after` ``me`` plays ``card`` (paid from ``me``; the lists are not changed), with the
    bonus of its «Граємо знову» / «Візьміть карту, скиньте карту»."""
    m, e = me[:], en[:]
    m[ORE + RESOURCE[card]] -= COST[card]
    RUN[card](m, e)
    bonus = (AGAIN_BONUS if PLAY_AGAIN[card] else 0.0) + (DRAW_DISCARD_BONUS if DRAW_DISCARD[card] else 0.0)
    return chance_after(m, e, field, bonus)


def best_card_chance(me: list[int], en: list[int], cards: set[int] | list[int], field: int) -> float:
    """The best :func:`play_chance` among the affordable ``cards``, or the unchanged position's chance (a
    discard) if that is better."""
    best = chance_after(me, en, field)
    for card in cards:
        if COST[card] <= me[ORE + RESOURCE[card]]:
            v = play_chance(me, en, card, field)
            if v > best:
                best = v
    return best


def reply_value(state: State, seat: Seat) -> float:
    """Win chance for ``seat`` at the start of its turn (after production): its best card now."""
    return best_card_chance(state.p[seat], state.p[1 - seat], set(state.hands[seat]), state.field)


def _next_turn(me: list[int], en: list[int], cards: set[int], field: int) -> float:
    """Win chance for ``me`` after the enemy's card: victory check, ``me``'s production, its best card from
    ``cards`` (``me`` is changed)."""
    decided = _decided(me, en, BATTLEFIELDS[field])
    if decided is not None:
        return decided
    me[5] += me[2]
    me[6] += me[3]
    me[7] += me[4]
    return best_card_chance(me, en, cards, field)


def reply_chance(state: State, seat: Seat) -> float:
    """Win chance for ``seat`` once the enemy (to move in ``state``, after its production) has answered:
    the answer worst for ``seat`` among a discard and every affordable card in the enemy's hand (after
    «Граємо знову» the enemy's best next card by :func:`chance_after` from the rest of the hand), each
    followed by ``seat``'s production and best card. Counters only: no engine, no draws."""
    field = state.field
    bf = BATTLEFIELDS[field]
    en, me = state.p[1 - seat], state.p[seat]
    hand = state.hands[1 - seat]
    mine = set(state.hands[seat])
    worst = _next_turn(me[:], en[:], mine, field)
    for card in set(hand):
        if COST[card] > en[ORE + RESOURCE[card]]:
            continue
        e, m = en[:], me[:]
        e[ORE + RESOURCE[card]] -= COST[card]
        RUN[card](e, m)
        if PLAY_AGAIN[card] and not (won(m, e, bf) or won(e, m, bf)):
            rest = list(hand)
            rest.remove(card)
            follow, best = 0, chance_after(e, m, field)
            for c in set(rest):
                if COST[c] <= e[ORE + RESOURCE[c]]:
                    v = play_chance(e, m, c, field)
                    if v > best:
                        follow, best = c, v
            if follow:
                e[ORE + RESOURCE[follow]] -= COST[follow]
                RUN[follow](e, m)
        v = _next_turn(m, e, mine, field)
        if v < worst:
            worst = v
    return worst


def greedy_action(state: State, seat: Seat, actions: list[TowersAction]) -> TowersAction:
    """The action with the best one-ply chance (no randomness; the first on ties): a play by
    :func:`play_chance`; a discard keeps the position, and among discards the card with the lowest
    ``bot.keep_value`` goes first."""
    if len(actions) == 1:
        return actions[0]
    field = state.field
    me, en = state.p[seat], state.p[1 - seat]
    bf = BATTLEFIELDS[field]
    base = chance_after(me, en, field)
    best, choice = -math.inf, actions[0]
    for a in actions:
        card = a.card  # type: ignore[union-attr]
        if type(a) is Discard:
            v = base - 1e-4 * keep_value(card, me, en, bf)
        else:
            v = play_chance(me, en, card, field)
        if v > best:
            best, choice = v, a
    return choice
