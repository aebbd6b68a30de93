"""Дві вежі's learned value: the win chance of the player to move at the start of its turn, read from both
players' counters and both hands (issue 27).

The fitted evaluation of ``fitted.py`` is a logistic sum of one player's counters minus the other's, read
after a turn; the rollouts of ``LookaheadBot`` score their end by the mover's best card under it
(``fitted.reply_value``), which cannot weigh the enemy's hand. This model reads :func:`features`: the
counters of both sides scaled by the battlefield's victory targets, the battlefield, the fitted evaluation's
own verdicts — the mover's best card now and the enemy's best card after its next production — and how many
cards each hand can afford. The file ``value_weights.json`` beside this module holds either a logistic model
(``W`` empty: ``P = σ(c + v · x)``) or a network of one tanh layer (``P = σ(c + v · tanh(W x + b))``); it is
written by ``benchmarks/towers_value.py`` (seeded: rerunning it rewrites the same file) from positions of
greedy self-play labelled with the match's result. The shipped file is logistic: on held-out matches its
log-loss is 0.5304 against 0.5348 for the fitted best card, and a 32-unit network learnt the training matches
instead (0.5347 held out).

``LookaheadBot`` with ``leaf="net"`` scores the end of its rollouts by :func:`chance`. Only what the mover
may see is read when it searches: inside the search the enemy's hand is a determinized sample
(``game.determinize``); the model itself is pure arithmetic on the state it is given.

    >>> from duelclub.games.towers import GAME
    >>> state = GAME.new_match(bytes(32), GAME.parse_options({}))
    >>> 0.0 < chance(state, state.active) < 1.0
    True
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources

from duelclub.bots.towers import fitted
from duelclub.bots.towers.heuristics import won
from duelclub.games.contract import Seat
from duelclub.games.towers.battlefields import BATTLEFIELDS
from duelclub.games.towers.cards import COST, PLAY_AGAIN, RESOURCE, RUN
from duelclub.games.towers.dsl import ORE
from duelclub.games.towers.state import State

N_FIELDS = len(BATTLEFIELDS)

FEATURE_NAMES: tuple[str, ...] = (
    *(f"field={bf.id}" for bf in BATTLEFIELDS),
    *(
        f"{side}.{name}"
        for side in ("me", "en")
        for name in (
            "tower/vt",
            "min(tower,20)/20",
            "wall/vt",
            "min(wall,20)/20",
            "mines/5",
            "monasteries/5",
            "barracks/5",
            "ore/vr",
            "mana/vr",
            "troops/vr",
            "min(ore,20)/20",
            "min(mana,20)/20",
            "min(troops,20)/20",
            "affordable/6",
        )
    ),
    "fitted logit me best card/10",
    "fitted logit en best card next turn/10",
    "infinite deck",
)
"""Names of the network's inputs, in order (:func:`features`)."""


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1.0 - 1e-4)
    return math.log(p / (1.0 - p))


def _affordable(p: list[int], hand: list[int]) -> int:
    return sum(1 for c in hand if COST[c] <= p[ORE + RESOURCE[c]])


def _side(p: list[int], hand: list[int], vt: int, vr: int) -> list[float]:
    tw, wl = p[0], p[1]
    o, m, tr = p[5], p[6], p[7]
    return [
        tw / vt,
        min(tw, 20) / 20.0,
        wl / vt,
        min(wl, 20) / 20.0,
        p[2] / 5.0,
        p[3] / 5.0,
        p[4] / 5.0,
        o / vr,
        m / vr,
        tr / vr,
        min(o, 20) / 20.0,
        min(m, 20) / 20.0,
        min(tr, 20) / 20.0,
        _affordable(p, hand) / 6.0,
    ]


def features(state: State, seat: Seat) -> list[float]:
    """The inputs (:data:`FEATURE_NAMES`) for ``seat`` to move in ``state`` (its production done): reads the
    counters, both hands (the enemy's as ``state`` has it — a sample inside a search) and the battlefield."""
    return counter_features(
        state.p[seat],
        state.p[1 - seat],
        state.hands[seat],
        state.hands[1 - seat],
        state.field,
        state.infinite,
    )


def counter_features(
    me: list[int], en: list[int], mine: list[int], theirs: list[int], field: int, infinite: bool
) -> list[float]:
    """:func:`features` from the parts of a position: the mover's counters ``me`` (its production done), the
    enemy's ``en`` (before its next production), the hands ``mine`` and ``theirs``, the battlefield index
    ``field`` and whether the deck is infinite."""
    bf = BATTLEFIELDS[field]
    vt, vr = bf.victory_tower, bf.victory_resource
    onehot = [0.0] * N_FIELDS
    onehot[field] = 1.0
    # the enemy's best card if it moved next, after its production (our move not yet made)
    e = en[:]
    e[5] += e[2]
    e[6] += e[3]
    e[7] += e[4]
    return [
        *onehot,
        *_side(me, mine, vt, vr),
        *_side(e, theirs, vt, vr),
        _logit(fitted.best_card_chance(me, en, set(mine), field)) / 10.0,
        _logit(fitted.best_card_chance(e, me, set(theirs), field)) / 10.0,
        1.0 if infinite else 0.0,
    ]


def _load() -> tuple[list[list[float]], list[float], list[float], float]:
    raw = json.loads(resources.files(__package__).joinpath("value_weights.json").read_text("utf-8"))
    if raw["features"] != list(FEATURE_NAMES):
        raise ValueError("value_weights.json: its features differ from value.FEATURE_NAMES; retrain it")
    hidden = [[float(x) for x in row] for row in raw["W"]]
    if any(len(row) != len(FEATURE_NAMES) for row in hidden):
        raise ValueError("value_weights.json: a row of W has the wrong length")
    return hidden, [float(x) for x in raw["b"]], [float(x) for x in raw["v"]], float(raw["c"])


@cache
def network() -> tuple[list[list[float]], list[float], list[float], float]:
    """The model from ``value_weights.json`` (read once): hidden weights ``W`` (one row per hidden unit; none
    for the logistic model), biases ``b``, output weights ``v``, bias ``c``; the inputs' standardisation is
    folded into them. ValueError if the file does not match :data:`FEATURE_NAMES`."""
    return _load()


def logit_of(x: list[float]) -> float:
    """The model's log-odds for inputs ``x`` (:func:`features`)."""
    w, bias, out, z = network()
    if not w:  # logistic
        return z + sum(v * xi for v, xi in zip(out, x, strict=True))
    for row, b, v in zip(w, bias, out, strict=True):
        z += v * math.tanh(b + sum(w * xi for w, xi in zip(row, x, strict=True)))
    return z


def chance(state: State, seat: Seat) -> float:
    """Win chance in (0, 1) for ``seat``, to move in ``state`` (a running match, production done)."""
    z = logit_of(features(state, seat))
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def reply_chance(state: State, seat: Seat) -> float:
    """Win chance for ``seat`` once the enemy (to move in ``state``, after its production) has answered, as
    ``fitted.reply_chance`` reads the answers — a discard or each affordable card of the enemy's hand (after
    «Граємо знову» its best next card by the fitted chance), counters only, no draws — but every answer's
    position is scored by this module's model at the start of ``seat``'s next turn (its production done;
    the enemy's hand without the cards it played): the answer worst for ``seat``."""
    field = state.field
    bf = BATTLEFIELDS[field]
    en0, me0 = state.p[1 - seat], state.p[seat]
    hand = state.hands[1 - seat]
    mine = state.hands[seat]
    infinite = state.infinite

    def score(m: list[int], e: list[int], rest: list[int]) -> float:
        if won(m, e, bf):
            return 0.5 if won(e, m, bf) else 1.0
        if won(e, m, bf):
            return 0.0
        m[5] += m[2]
        m[6] += m[3]
        m[7] += m[4]
        return _sigmoid(logit_of(counter_features(m, e, mine, rest, field, infinite)))

    worst = score(me0[:], en0[:], hand)
    for card in set(hand):
        if COST[card] > en0[ORE + RESOURCE[card]]:
            continue
        e, m = en0[:], me0[:]
        e[ORE + RESOURCE[card]] -= COST[card]
        RUN[card](e, m)
        rest = list(hand)
        rest.remove(card)
        if PLAY_AGAIN[card] and not (won(m, e, bf) or won(e, m, bf)):
            follow, best = 0, fitted.chance_after(e, m, field)
            for c in set(rest):
                if COST[c] <= e[ORE + RESOURCE[c]]:
                    v = fitted.play_chance(e, m, c, field)
                    if v > best:
                        follow, best = c, v
            if follow:
                e[ORE + RESOURCE[follow]] -= COST[follow]
                RUN[follow](e, m)
                rest.remove(follow)
        v = score(m, e, rest)
        if v < worst:
            worst = v
    return worst
