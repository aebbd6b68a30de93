"""Артания и Куявия bots' knowledge: the ``easy`` heuristic player and the policy ``hard`` uses in playouts.

The heuristic reads only what ``seat`` may know (rules/artania.md §What each player sees): its own hand, both
battlefields with their Нектары, the step and the deck sizes. It never looks at the opponent's hand or at a
deck order; inside ``hard``'s search it is handed determinized states, where the opponent's hand is a sample
it does not read anyway.

The heuristic in one paragraph: a placement picks the warriors (one per slot of the step) that maximise the
sum of their slot values — against a card already opposite, the pair's margin (my base + my counter-class
bonus − its base − its bonus); into a slot whose opposite is still to come, the warrior's base less
:data:`OPEN_RISK` for a class warrior (the opponent may answer it with its counter-class; a special cannot be
countered). In W4, the last window, a player who is not ahead plays the equipment that makes it ahead —
Идол гнева on the opposing card whose removal gains most, else Нектар могущества on its best class warrior —
and passes otherwise; Нектар also breaks an exact tie. Часы Базилевса are played in an early window when the
hand holds fewer than :data:`CHASY_BELOW` warriors and the deck can refill it, discarding the weakest card.

    >>> import random
    >>> from duelclub.games.artania import GAME
    >>> state = GAME.new_match(bytes(32), GAME.parse_options({}))
    >>> seat = next(iter(GAME.to_move(state)))
    >>> EasyBot().choose(GAME, state, seat, random.Random(0)) in GAME.legal_actions(state, seat)
    True
"""

from __future__ import annotations

import random
from typing import Any

from duelclub.games.artania.actions import CHASYS, IDOLS, NEKTARS, PASS, ArtaniaAction, place_action
from duelclub.games.artania.cards import (
    CARD_BONUS,
    CHASY,
    CLASS_OF,
    IDOL,
    NEKTAR,
    SWORDS,
    WARRIOR_MASK,
    mask_indexes,
)
from duelclub.games.artania.scoring import totals
from duelclub.games.artania.state import LAST_WINDOW, PENDING, PLACE_SLOTS, REMOVED, State
from duelclub.games.contract import Game, Seat

OPEN_RISK = 1.0
"""Expected swords lost by a class warrior put into a slot whose opposite is still to come."""

TIE_COST = 0.01
"""Between equally valued placements, keep the stronger warriors in hand."""

CHASY_BELOW = 3
"""Play Часы Базилевса when the hand holds fewer warriors than this (a turn needs three)."""


def _slot_value(c: int, opposite: int) -> float:
    if opposite >= 0:
        return SWORDS[c] + CARD_BONUS[c][opposite] - SWORDS[opposite] - CARD_BONUS[opposite][c]
    if opposite == PENDING and CLASS_OF[c] >= 0:
        return SWORDS[c] - OPEN_RISK
    return float(SWORDS[c])  # a special, or nothing will ever stand opposite


def ranked_placements(state: State, seat: int) -> list[tuple[float, tuple[int, ...]]]:
    """Every legal placement of the current step as (heuristic value, card indexes), best first."""
    slots = PLACE_SLOTS[state.step]
    warriors = mask_indexes(state.hands[seat] & WARRIOR_MASK)
    opp_row = state.slots[1 - seat]
    # A slot whose opposite is still PENDING gets the open-slot value; EMPTY/REMOVED opposite: no risk.
    first = [(_slot_value(c, opp_row[slots[0]]) - TIE_COST * SWORDS[c], c) for c in warriors]
    out: list[tuple[float, tuple[int, ...]]]
    if len(slots) == 1 or len(warriors) == 1:
        out = [(v, (c,)) for v, c in first]
    else:
        out = [
            (v1 + _slot_value(c2, opp_row[slots[1]]) - TIE_COST * SWORDS[c2], (c1, c2))
            for v1, c1 in first
            for c2 in warriors
            if c2 != c1
        ]
    out.sort(key=lambda x: -x[0])
    return out


def best_placement(state: State, seat: int) -> tuple[int, ...]:
    """The warriors (card indexes, in slot order) the heuristic puts into the current step's slots."""
    return ranked_placements(state, seat)[0][1]


def _margin(state: State, seat: int) -> int:
    t = totals(state)
    return t[seat] - t[1 - seat]


def _idol_gain(state: State, seat: int) -> tuple[int, int]:
    """(margin after the best Идол, its 0-based slot) — the opponent's slot whose removal helps most."""
    opp_row = state.slots[1 - seat]
    best = (-(10**6), -1)
    for k in range(3):
        card = opp_row[k]
        if card < 0:
            continue
        nek = state.nektar[1 - seat][k]
        opp_row[k], state.nektar[1 - seat][k] = REMOVED, 0
        m = _margin(state, seat)
        opp_row[k], state.nektar[1 - seat][k] = card, nek
        if m > best[0]:
            best = (m, k)
    return best


def _nektar_slot(state: State, seat: int) -> int:
    """My class warrior's slot for a Нектар (the first one), or -1."""
    row = state.slots[seat]
    for k in range(3):
        if row[k] >= 0 and CLASS_OF[row[k]] >= 0:
            return k
    return -1


def window_action(state: State, seat: int) -> ArtaniaAction:
    """The heuristic's window action (see the module docstring)."""
    hand = state.hands[seat]
    if state.step == LAST_WINDOW:
        margin = _margin(state, seat)
        if margin <= 0:
            if hand >> IDOL & 1:
                m, k = _idol_gain(state, seat)
                if k >= 0 and m > 0:
                    return IDOLS[k]
            if hand >> NEKTAR & 1 and margin + 2 > 0:
                k = _nektar_slot(state, seat)
                if k >= 0:
                    return NEKTARS[seat][k]
        return PASS
    if hand >> CHASY & 1 and state.step <= 4 and len(state.decks[seat]) >= 3:
        warriors = mask_indexes(hand & WARRIOR_MASK)
        others = mask_indexes(hand & ~(1 << CHASY))
        if others and len(warriors) < CHASY_BELOW:
            weakest = min(others, key=lambda c: (SWORDS[c] if c in warriors else 9, c))
            return CHASYS[weakest]
    return PASS


def choose(state: State, seat: int) -> ArtaniaAction:
    """The heuristic's action for ``seat``, who must be due to act in ``state``."""
    if state.step % 2:
        return place_action(best_placement(state, seat))
    return window_action(state, seat)


class EasyBot:
    """The ``easy`` level: the heuristic of this module, deterministic."""

    def __init__(self, level: str = "easy") -> None:
        self.level = level

    def choose(self, game: Game[Any, Any, Any], state: Any, seat: Seat, rng: random.Random) -> Any:
        """The heuristic's action; ValueError if ``seat`` is not to move."""
        if seat not in game.to_move(state):
            raise ValueError(f"seat {seat} is not to move")
        return choose(state, seat)


OPP_OPEN = 2.0
"""Expected swords of an opponent's warrior still to come, its counter-class bonus included."""

SAFE_LEAD = 1.5
"""An estimated lead at or above this is a won turn: spend as little as possible to keep it."""

HOPELESS = -1.0
"""An estimated lead at or below this is a lost turn: throw in the weakest warriors."""

# The three constants above were tuned by economical-vs-easy matches (3,000 per setting, no search): a broad
# plateau around 61-62% of decided matches for SAFE_LEAD 1-2, HOPELESS -0.5..-1.5, OPP_OPEN 2-2.5; the old
# values (3, -2, 3) gave 57%. These sit in the middle of the plateau.


def _pair_lead(a: int, b: int) -> float:
    """My estimated lead from one slot at the end of the turn: my card ``a`` against their ``b`` (a card,
    or PENDING / EMPTY / REMOVED)."""
    if a >= 0 and b >= 0:
        return _slot_value(a, b)
    if a >= 0:
        return SWORDS[a] - (OPP_OPEN if b == PENDING else 0.0)
    if b >= 0:
        return -(SWORDS[b] + (1.0 if a == PENDING and CLASS_OF[b] >= 0 else 0.0))
    return 0.0


def _estimates(state: State, seat: int, placements: list[tuple[int, ...]]) -> list[float]:
    """My estimated lead at the end of the turn for each placement (card indexes into the current step's
    one or two slots): the sum of :func:`_pair_lead` over the three slots. Every term is a whole number of
    swords, so the sums are exact in any order: the slots the step leaves alone are summed once, the placed
    cards' terms come from a table per slot."""
    slots = PLACE_SLOTS[state.step]
    mine, theirs = state.slots[seat], state.slots[1 - seat]
    fixed = sum(_pair_lead(mine[k], theirs[k]) for k in range(3) if k not in slots)
    k0 = slots[0]
    t0 = {c: _pair_lead(c, theirs[k0]) for c in {p[0] for p in placements}}
    if len(slots) == 1:
        return [fixed + t0[p[0]] for p in placements]
    k1 = slots[1]
    t1 = {c: _pair_lead(c, theirs[k1]) for c in {p[1] for p in placements if len(p) > 1}}
    alone = _pair_lead(mine[k1], theirs[k1])  # one warrior in hand: the second slot stays as it is
    return [fixed + t0[p[0]] + (t1[p[1]] if len(p) > 1 else alone) for p in placements]


def economical_placement(state: State, seat: int) -> tuple[int, ...]:
    """``hard``'s placement: the cheapest placement that keeps an estimated safe lead; else, when this turn
    cannot be given up (the opponent holds 4 tokens, or a deck is empty so the match ends with this turn), the
    highest estimated lead; else the weakest warriors when the turn looks lost; else the heuristic's best."""
    options = ranked_placements(state, seat)
    placements = [cards for _, cards in options]
    leads = [
        (lead, SWORDS[p[0]] + (SWORDS[p[1]] if len(p) > 1 else 0), p)  # a placement is one or two cards
        for lead, p in zip(_estimates(state, seat, placements), placements, strict=True)
    ]
    safe = [x for x in leads if x[0] >= SAFE_LEAD]
    if safe:
        return min(safe, key=lambda x: (x[1], -x[0]))[2]
    if state.tokens[1 - seat] == 4 or not state.decks[0] or not state.decks[1]:
        return max(leads, key=lambda x: (x[0], -x[1]))[2]
    if max(x[0] for x in leads) <= HOPELESS:
        return min(leads, key=lambda x: (x[1], -x[0]))[2]
    return options[0][1]


def economical_window(state: State, seat: int) -> ArtaniaAction:
    """``hard``'s window action: in W4 the heuristic's; before it, Часы Базилевса whenever the deck can refill
    the hand with 3 cards (discarding the weakest other card: equipment last), else pass. Playing Часы at the
    first chance beat the heuristic's "fewer than 3 warriors" rule by 2 points (4,000 matches vs easy)."""
    hand = state.hands[seat]
    if state.step == LAST_WINDOW:
        return window_action(state, seat)
    if hand >> CHASY & 1 and state.step <= 4 and len(state.decks[seat]) >= 3:
        warriors = hand & WARRIOR_MASK
        others = mask_indexes(hand & ~(1 << CHASY))
        if others:
            return CHASYS[min(others, key=lambda c: (SWORDS[c] if warriors >> c & 1 else 9, c))]
    return PASS


def economical_move(state: State, seat: int) -> ArtaniaAction:
    """The economical policy's action for ``seat`` (due to act): :func:`economical_placement` in a step,
    :func:`economical_window` in a window."""
    if state.step % 2:
        return place_action(economical_placement(state, seat))
    return economical_window(state, seat)
