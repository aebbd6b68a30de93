"""Дві вежі rules: setup, legal actions and ``apply`` (rules/towers.md §4–§9, §11; decisions D1–D43).

``new_state(key, battlefield, infinite)`` deals a match; ``legal_actions(state, seat)`` lists cached actions;
``apply(state, seat, action)`` validates fully before mutating (raising ``IllegalAction``) and returns events.

Events (plain dicts typed in ``events.py``; ``seat`` is the player concerned):

- ``turn {seat, turn, produced: [ore, mana, troops]}`` — a turn started and its production (§5 steps 1);
- ``play {seat, card, delta}`` — a card was paid for and resolved; ``delta[s]`` is the change of seat ``s``'s
  eight counters made by the effect (the cost excluded);
- ``discard {seat, card, tag}`` — ``tag`` is ``discard``, ``forced_discard`` or ``timeout_discard``;
- ``draw {seat, card}`` — ``card`` is private to ``seat``;
- ``reshuffle {cards}`` — the discard pile became the draw pile;
- ``again {seat}`` — «Граємо знову»: an extra action follows; ``forced {seat}`` — pick the card to discard;
- ``timeout {seat, count}`` — the clock expired (count = consecutive timed-out turns, 3 loses);
- ``resign {seat}``; ``match_end {winner, reason, battlefield}``.
"""

from __future__ import annotations

from typing import cast

from duelclub.games.contract import IllegalAction, Outcome
from duelclub.games.fairness import Stream
from duelclub.games.towers.actions import (
    DISCARDS,
    PLAYS,
    TIMEOUT,
    BattlefieldId,
    Discard,
    Play,
    Resign,
    Timeout,
    TowersAction,
    TowersOptions,
)
from duelclub.games.towers.battlefields import BATTLEFIELD_INDEX, BATTLEFIELDS
from duelclub.games.towers.cards import COST, DRAW_DISCARD, HAND_SIZE, N_CARDS, PLAY_AGAIN, RESOLVE, STOCK
from duelclub.games.towers.dsl import MANA, ORE, TOWER, TROOPS
from duelclub.games.towers.events import DiscardTag, Events, Reason, WinReason
from duelclub.games.towers.state import (
    DISCARD,
    EXTRA,
    FORCED,
    FORCED_DISCARD,
    FULL_POOL,
    MAIN,
    OVER,
    PLAY,
    TIMEOUT_DISCARD,
    State,
)

TURN_LIMIT = 500  # §7.4, D29
TIMEOUT_LOSS = 3  # §9, D26


def new_state(key: bytes, field: int, infinite: bool) -> State:
    """Set up a match from the 32-byte match key (§4, §10.5): first player ``randint(2)`` (0 → seat A), the
    normal deck's Fisher–Yates shuffle of 1..102, 6 cards to the first player, 6 to the other, then turn 1
    starts with the first player's production (D4)."""
    stream = Stream(key)
    s = State.__new__(State)
    s.stream = stream
    s.field, s.infinite = field, infinite
    start = list(BATTLEFIELDS[field].start)
    s.p = [start[:], start[:]]
    s.hands = [[], []]
    first = stream.randint(2)
    if infinite:
        s.pile = []
        s.pool = 0
    else:
        s.pile = stream.shuffled(list(range(1, N_CARDS + 1)))[::-1]  # top (position 0) at the end
        s.pool = FULL_POOL
    s.discard = []
    s.turn, s.again, s.outcome = 0, False, None
    s.timeouts = [0, 0]
    s.last = [[], []]
    s.history = None
    ignored: Events = []
    refill(s, first, ignored)
    end_turn(s, 1 - first, ignored)  # "turn 0" of the other player ends: its 6 cards, then turn 1 starts
    return s


def new_match(key: bytes, options: TowersOptions) -> State:
    """:func:`new_state` for the contract's ``new_match``: the options' battlefield and deck type."""
    return new_state(key, BATTLEFIELD_INDEX[options.battlefield], options.deck == "infinite")


def clock_only(action: TowersAction) -> bool:
    """§9: ``timeout`` is the clock's action, never a player's."""
    return type(action) is Timeout


def to_move(state: State) -> frozenset[int]:
    """The active player; nobody once the match is over."""
    return _NOBODY if state.phase == OVER else _SINGLE[state.active]


_SINGLE = (frozenset((0,)), frozenset((1,)))
_NOBODY: frozenset[int] = frozenset()


def legal_actions(state: State, seat: int) -> list[TowersAction]:
    """§5 step 3: one ``play`` per distinct affordable id (hand order), then one ``discard`` per distinct id;
    at a forced discard (§6 step 5) only the discards. Resign and the clock's ``timeout`` are never listed.

    A normal deck holds each id once, so its hands never repeat one; an infinite deck's hand may (D22): only
    the earliest copy of an id is listed."""
    if state.phase == OVER or seat != state.active:
        return []
    hand = state.hands[seat]
    if state.infinite and len({*hand}) < len(hand):
        hand = list(dict.fromkeys(hand))
    discards: list[TowersAction]
    if state.phase == FORCED:
        discards = [DISCARDS[c] for c in hand]
        return discards
    me = state.p[seat]
    legal: list[TowersAction] = []
    discards = []
    for c in hand:  # one loop (not two comprehensions): this runs at every step of every playout
        if COST[c] <= me[STOCK[c]]:
            legal.append(PLAYS[c])
        discards.append(DISCARDS[c])
    legal += discards
    return legal


# -- the pieces of a turn ---------------------------------------------------------------------------------


def draw(s: State, seat: int, events: Events) -> None:
    """§8: the normal deck takes the top card, reshuffling the discard pile first when the pile is empty
    (D21); the infinite deck draws ``randint(102) + 1`` (D22). The card is appended to the hand."""
    if s.infinite:
        c = s.stream.randint(N_CARDS) + 1
    else:
        if not s.pile:
            fresh = s.stream.shuffled(s.discard)
            s.pool = sum(1 << x for x in fresh)
            s.pile = fresh[::-1]
            s.discard = []
            events.append({"kind": "reshuffle", "cards": len(fresh)})
        c = s.pile.pop()
    s.hands[seat].append(c)
    events.append({"kind": "draw", "seat": seat, "card": c})


def refill(s: State, seat: int, events: Events) -> None:
    """§5 step 4: draw until the hand holds 6 (:func:`draw` each card; inlined while the pile lasts)."""
    hand = s.hands[seat]
    pile = s.pile
    while len(hand) < HAND_SIZE:
        if pile and not s.infinite:
            c = pile.pop()
            hand.append(c)
            events.append({"kind": "draw", "seat": seat, "card": c})
        else:
            draw(s, seat, events)
            pile = s.pile  # a reshuffle made a new pile


def leave(s: State, seat: int, card: int, tag: int, events: Events | None) -> None:
    """A card leaves the hand (the earliest copy, D40) for the discard pile (normal deck) or out of the game;
    it is recorded in the seat's last-turn list and the public history (§8.3). (Inlined in ``play_card`` and
    in ``apply``'s plain discard: keep the three alike.)"""
    s.hands[seat].remove(card)
    if not s.infinite:
        s.discard.append(card)
    s.last[seat].append((card, tag))
    s.history = (seat, card, tag, s.history)
    if events is not None:
        events.append({"kind": "discard", "seat": seat, "card": card, "tag": _DISCARD_TAGS[tag]})


# state.TAGS by tag index (DISCARD, FORCED_DISCARD, TIMEOUT_DISCARD); index 0, PLAY, is unused: a played
# card has its ``play`` event
_DISCARD_TAGS: tuple[DiscardTag, ...] = ("discard", "discard", "forced_discard", "timeout_discard")


def satisfies(me: list[int], en: list[int], vt: int, vr: int) -> WinReason | None:
    """The first victory condition ``me`` meets (§7.1, order of D38), or None."""
    if en[TOWER] == 0:
        return "destruction"
    if me[TOWER] >= vt:
        return "tower"
    if me[5] >= vr or me[6] >= vr or me[7] >= vr:
        return "resource"
    return None


_GOALS: tuple[tuple[int, int], ...] = tuple((b.victory_tower, b.victory_resource) for b in BATTLEFIELDS)
"""Per battlefield index: (victory tower, victory resource)."""


def check(s: State, events: Events) -> bool:
    """§7.2–7.3: look at both players; one → that player wins, both → draw (D17). True if the match ended."""
    p0, p1 = s.p
    vt, vr = _GOALS[s.field]
    if (
        0 < p0[TOWER] < vt
        and 0 < p1[TOWER] < vt
        and p0[ORE] < vr
        and p0[MANA] < vr
        and p0[TROOPS] < vr
        and p1[ORE] < vr
        and p1[MANA] < vr
        and p1[TROOPS] < vr
    ):
        return False  # the usual case: no condition holds (told without the two satisfies below)
    w0 = satisfies(p0, p1, vt, vr)
    w1 = satisfies(p1, p0, vt, vr)
    if w0 is None and w1 is None:
        return False
    if w0 is not None and w1 is not None:
        finish(s, None, "draw", events)
    elif w0 is not None:
        finish(s, 0, w0, events)
    elif w1 is not None:
        finish(s, 1, w1, events)
    return True


def finish(s: State, winner: int | None, reason: Reason, events: Events) -> None:
    """The match ends: ``winner`` a seat or None (a draw), ``reason`` one of :data:`events.Reason`."""
    s.phase = OVER
    s.outcome = Outcome(winner, reason)
    field = cast(BattlefieldId, BATTLEFIELDS[s.field].id)
    events.append({"kind": "match_end", "winner": winner, "reason": reason, "battlefield": field})


def end_turn(s: State, seat: int, events: Events) -> None:
    """§5 steps 4–5 / §7.4: ``seat`` refills its hand (:func:`refill`, inlined); turn 500 then ends the
    match in a draw; else the other player's turn starts (§5 steps 1–2): clear its last-turn list, produce,
    check victory. (:func:`new_state` deals the second hand and starts turn 1 as the end of a turn 0.)"""
    hand = s.hands[seat]
    pile = s.pile
    while len(hand) < HAND_SIZE:
        if pile and not s.infinite:
            c = pile.pop()
            hand.append(c)
            events.append({"kind": "draw", "seat": seat, "card": c})
        else:
            draw(s, seat, events)
            pile = s.pile
    if s.turn >= TURN_LIMIT:
        finish(s, None, "turn_limit", events)
        return
    s.turn += 1
    s.active = seat = 1 - seat
    s.phase = MAIN
    s.again = False
    s.last[seat] = []
    me = s.p[seat]
    produced = me[2:5]  # mines, monasteries, barracks
    me[5] += produced[0]
    me[6] += produced[1]
    me[7] += produced[2]
    events.append({"kind": "turn", "seat": seat, "turn": s.turn, "produced": produced})
    p0, p1 = s.p
    vt, vr = _GOALS[s.field]
    if not (  # check's shortcut, inlined here and in after_card (the two checks of every turn)
        0 < p0[TOWER] < vt
        and 0 < p1[TOWER] < vt
        and p0[ORE] < vr
        and p0[MANA] < vr
        and p0[TROOPS] < vr
        and p1[ORE] < vr
        and p1[MANA] < vr
        and p1[TROOPS] < vr
    ):
        check(s, events)


def after_card(s: State, seat: int, again: bool, events: Events) -> None:
    """§6 steps 6–7: victory check, then refill and the extra action of «Граємо знову», or the end of the turn
    (whose refill comes first)."""
    p0, p1 = s.p
    vt, vr = _GOALS[s.field]
    if not (  # check's shortcut, inlined (see end_turn)
        0 < p0[TOWER] < vt
        and 0 < p1[TOWER] < vt
        and p0[ORE] < vr
        and p0[MANA] < vr
        and p0[TROOPS] < vr
        and p1[ORE] < vr
        and p1[MANA] < vr
        and p1[TROOPS] < vr
    ) and check(s, events):
        return
    if again:
        refill(s, seat, events)
        s.phase = EXTRA
        events.append({"kind": "again", "seat": seat})
        return
    s.timeouts[seat] = 0  # D27: the turn ended by the player's own action
    end_turn(s, seat, events)


def play_card(s: State, seat: int, card: int, events: Events) -> None:
    """§6: pay, move the card (D6), run the statements left to right (D9), then draw/discard or finish."""
    me, en = s.p[seat], s.p[1 - seat]
    me[STOCK[card]] -= COST[card]
    s.hands[seat].remove(card)  # leave(s, seat, card, PLAY, None), inlined (so: no discard event)
    if not s.infinite:
        s.discard.append(card)
    s.last[seat].append((card, PLAY))
    s.history = (seat, card, PLAY, s.history)
    delta = RESOLVE[card](me, en)
    if seat == 1:
        delta.reverse()
    events.append({"kind": "play", "seat": seat, "card": card, "delta": delta})
    if DRAW_DISCARD[card]:
        draw(s, seat, events)  # §6 step 5, D8: the hand now holds 7
        s.phase = FORCED
        s.again = PLAY_AGAIN[card]
        events.append({"kind": "forced", "seat": seat})
        return
    after_card(s, seat, PLAY_AGAIN[card], events)


def worst_card(hand: list[int], me: list[int]) -> int:
    """§9 / D25: the largest deficit ``max(0, cost - stock)``, then the lowest cost, then the lowest id (the
    earliest copy in hand order is the one :func:`leave` takes)."""
    best, best_key = 0, (1, 0, 0)
    for c in hand:
        cost = COST[c]
        deficit = cost - me[STOCK[c]]
        key = (-deficit if deficit > 0 else 0, cost, c)
        if best == 0 or key < best_key:
            best, best_key = c, key
    return best


def on_timeout(s: State, seat: int, events: Events) -> None:
    """§9, D24/D26/D41/D42: the third consecutive timed-out turn loses at once (no discard, check or refill);
    otherwise the worst card is discarded and the turn ends (after the card's victory check at a forced
    discard, «Граємо знову» forfeited). A turn that ends the match leaves the counter unchanged."""
    count = s.timeouts[seat] + 1
    s.again = False  # a pending «Граємо знову» is forfeited (D41)
    events.append({"kind": "timeout", "seat": seat, "count": count})
    if count >= TIMEOUT_LOSS:
        s.timeouts[seat] = count
        finish(s, 1 - seat, "timeout", events)
        return
    forced = s.phase == FORCED
    leave(s, seat, worst_card(s.hands[seat], s.p[seat]), TIMEOUT_DISCARD, events)
    if forced and check(s, events):
        return
    s.timeouts[seat] = count
    end_turn(s, seat, events)


def _reject(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def _validate(s: State, seat: int, action: object) -> None:
    """Every check of :func:`apply`; nothing is mutated."""
    if seat not in (0, 1):
        raise _reject("bad_seat", f"seat must be 0 or 1, not {seat!r}")
    if s.phase == OVER:
        raise _reject("match_over", "the match is over")
    cls = type(action)
    if cls is Resign:
        return
    if cls is not Play and cls is not Discard and cls is not Timeout:
        raise _reject("malformed_action", f"not a Towers action: {action!r}")
    if seat != s.active:
        raise _reject("not_your_turn", "it is the opponent's turn")
    if cls is Timeout:
        return
    card = action.card  # type: ignore[attr-defined]
    if type(card) is not int or card not in s.hands[seat]:
        raise _reject("card_not_in_hand", f"no card {card!r} in hand")
    if cls is Play:
        if s.phase == FORCED:
            raise _reject("must_discard", "choose a card to discard (Візьміть карту, скиньте карту)")
        if COST[card] > s.p[seat][STOCK[card]]:
            raise _reject("cannot_afford", f"card {card} costs more than you have")


def apply(state: State, seat: int, action: TowersAction) -> Events:
    """Validate and apply ``action`` for ``seat``; returns the events. Raises IllegalAction with code
    ``bad_seat``, ``match_over``, ``not_your_turn``, ``card_not_in_hand``, ``must_discard``,
    ``cannot_afford`` or ``malformed_action``; the state is then unchanged.

    A play or discard is checked here directly (the checks of :func:`_validate` for it, in short); when one
    fails, :func:`_validate` names the reason."""
    events: Events = []
    cls = type(action)
    if cls is Play or cls is Discard:
        card = action.card  # type: ignore[union-attr]
        phase = state.phase
        if not (
            seat == state.active
            and phase != OVER
            and type(card) is int
            and card in state.hands[seat]
            and (cls is Discard or (phase != FORCED and COST[card] <= state.p[seat][STOCK[card]]))
        ):
            _validate(state, seat, action)
        if cls is Play:
            play_card(state, seat, card, events)
        elif phase == FORCED:
            again, state.again = state.again, False
            leave(state, seat, card, FORCED_DISCARD, events)
            after_card(state, seat, again, events)
        else:  # a discard always ends the turn (§5); leave(state, seat, card, DISCARD, events), inlined
            state.hands[seat].remove(card)
            if not state.infinite:
                state.discard.append(card)
            state.last[seat].append((card, DISCARD))
            state.history = (seat, card, DISCARD, state.history)
            events.append({"kind": "discard", "seat": seat, "card": card, "tag": "discard"})
            state.timeouts[seat] = 0
            end_turn(state, seat, events)
        return events
    _validate(state, seat, action)
    if cls is Timeout:
        on_timeout(state, seat, events)
    else:
        events.append({"kind": "resign", "seat": seat})
        finish(state, 1 - seat, "resign", events)
    return events


def timeout_action(state: State, seat: int) -> TowersAction:
    """The clock's action for the active ``seat`` (§9); raises IllegalAction when the match is over or
    ``seat`` is not to move."""
    if state.phase == OVER:
        raise IllegalAction("match_over", "the match is over")
    if seat != state.active:
        raise IllegalAction("not_your_turn", "the clock runs only for the player to move")
    return TIMEOUT
