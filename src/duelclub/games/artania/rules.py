"""Артания и Куявия rules: setup, legal actions and ``apply`` (rules/artania.md; decisions D1–D35).

``new_state(key, deck)`` deals a match; ``legal_actions(state, seat)`` lists cached action objects;
``apply(state, seat, action)`` validates fully before mutating (raising ``IllegalAction``) and returns events.
At any moment at most one seat is to act (§Decision points and actions).

Events of this module (``scoring`` adds the end-of-turn ones):

- ``place {seat, step, cards: [{slot, card}], empty: [slot…], automatic}`` — a placement step (D9, D10, D33);
- ``pass {seat, window, automatic, closed}`` — ``automatic`` for an empty hand (windows rule 6);
- ``nektar {seat, window, target_seat, slot, card}``; ``idol {seat, window, target_seat, slot, card}``;
- ``chasy {seat, window, discard}`` followed by ``draw {seat, cards, count, reason: "chasy"}``;
- ``resign {seat}``, ``match_end {winner, reason, tokens}`` (all typed in ``events.py``).
"""

from __future__ import annotations

from typing import cast

from duelclub.games.artania.actions import (
    CHASYS,
    IDOLS,
    NEKTARS,
    PASS,
    ArtaniaAction,
    ArtaniaOptions,
    Chasy,
    Idol,
    Nektar,
    Pass,
    Place,
    Resign,
    place_action,
)
from duelclub.games.artania.cards import (
    CHASY,
    CHASY_DRAW,
    CLASS_OF,
    EQUIPMENT_MASK,
    IDOL,
    IDS,
    INDEX,
    IS_WARRIOR,
    N_CARDS,
    NEKTAR,
    START_HAND,
    WARRIOR_MASK,
    mask_indexes,
)
from duelclub.games.artania.events import (
    ChasyEvent,
    Events,
    IdolEvent,
    MatchEndEvent,
    NektarEvent,
    PassEvent,
    Placed,
    PlaceEvent,
    ResignEvent,
)
from duelclub.games.artania.scoring import draw, finish_turn
from duelclub.games.artania.state import (
    EMPTY,
    LAST_WINDOW,
    OVER,
    PENDING,
    PLACE_SLOTS,
    REMOVED,
    ROLE,
    STEPS,
    State,
)
from duelclub.games.contract import IllegalAction, Outcome
from duelclub.games.fairness import Stream


def seat_decks_for(deck: str, first: int) -> tuple[int, int]:
    """Deck index (cards.DECKS) per seat: ``deck`` is seat 0's; ``"random"`` gives Артания to ``first``,
    the seat that won the first-player lot (no further stream word is read; the choice is cosmetic, D29)."""
    if deck == "artania":
        return (0, 1)
    if deck == "kuyavia":
        return (1, 0)
    if deck == "random":
        return (0, 1) if first == 0 else (1, 0)
    raise ValueError(f"unknown deck {deck!r}")


def new_state(key: bytes, deck: str) -> State:
    """Deal a match from the 32-byte match key (rules/artania.md §Setup; fairness.md consumers — artania).

    Stream order: ``randint(2)`` for turn 1's first player, shuffle seat 0's deck (canonical order, D32),
    shuffle seat 1's deck; then each player draws their top 5 cards (D25: no other draw before turn 1).
    """
    stream = Stream(key)
    first = stream.randint(2)
    s = State.__new__(State)
    s.stream = stream
    s.seat_decks = seat_decks_for(deck, first)
    s.decks = [stream.shuffled(range(N_CARDS)), stream.shuffled(range(N_CARDS))]
    s.hands = [0, 0]
    for seat in (0, 1):
        for c in s.decks[seat][:START_HAND]:
            s.hands[seat] |= 1 << c
        del s.decks[seat][:START_HAND]
    s.known = [0, 0]
    s.no_warrior = [False, False]
    s.discards = [[], []]
    s.slots = [[PENDING] * 3, [PENDING] * 3]
    s.nektar = [[0, 0, 0], [0, 0, 0]]
    s.tokens = [0, 0]
    s.turn, s.first, s.step, s.actor, s.passes = 1, first, 0, first, 0  # D26: turn 1 opens with W0
    s.plays, s.results, s.outcome = [], [], None
    settle(s, [])
    return s


def new_match(key: bytes, options: ArtaniaOptions) -> State:
    """Deal from the match key ``K`` (fairness.md); ``options.deck`` is seat 0's deck."""
    return new_state(key, options.deck)


_SINGLE = (frozenset((0,)), frozenset((1,)))
_NOBODY: frozenset[int] = frozenset()

# Every placement of one or two warriors, built once (``place_action`` caches the same objects):
_PLACE_ONE: tuple[Place, ...] = tuple(place_action((c,)) for c in range(NEKTAR))
"""``_PLACE_ONE[c]``: warrior ``c`` alone."""
_PLACE_TWO: tuple[tuple[Place, ...], ...] = tuple(
    tuple(place_action((a, b)) if a != b else _PLACE_ONE[a] for b in range(NEKTAR)) for a in range(NEKTAR)
)
"""``_PLACE_TWO[a][b]``: warriors ``a`` then ``b`` (the diagonal, never listed, repeats ``_PLACE_ONE``)."""
_PLACE_CARDS: dict[tuple[str, ...], tuple[tuple[int, ...], int]] = {
    p.cards: (cards, sum(1 << c for c in cards))
    for cards, p in [((c,), _PLACE_ONE[c]) for c in range(NEKTAR)]
    + [((a, b), _PLACE_TWO[a][b]) for a in range(NEKTAR) for b in range(NEKTAR) if a != b]
}
"""The card ids of every placement of one or two distinct warriors: their indexes and their mask."""


def to_move(state: State) -> frozenset[int]:
    """The one seat due to act (the placer in a step, the window's actor); nobody once over."""
    step = state.step
    if step == OVER:
        return _NOBODY
    return _SINGLE[state.first ^ ROLE[step] if step & 1 else state.actor]


def legal_actions(state: State, seat: int) -> list[ArtaniaAction]:
    """§Decision points and actions: every ``place`` list of m = min(k, w) distinct warriors in slot order;
    in a window ``pass``, then ``nektar`` (seat 0 slots 1–3, seat 1 slots 1–3), ``idol``, ``chasy`` by
    discard in canonical order. Resign excluded; ``[]`` for a seat that is not to act."""
    step = state.step
    if step == OVER:
        return []
    if step & 1:
        if seat != state.first ^ ROLE[step]:
            return []
        warriors = mask_indexes(state.hands[seat] & WARRIOR_MASK)
        if not warriors:  # (``settle`` places for such a hand: only a hand-made position gets here)
            return [place_action(())]
        if len(PLACE_SLOTS[step]) == 1 or len(warriors) == 1:
            return [_PLACE_ONE[c] for c in warriors]
        return [_PLACE_TWO[a][b] for a in warriors for b in warriors if a != b]  # permutations(warriors, 2)
    if seat != state.actor:
        return []
    hand = state.hands[seat]
    if not hand & EQUIPMENT_MASK:
        return [PASS]
    out: list[ArtaniaAction] = [PASS]
    if hand >> NEKTAR & 1:
        for t in (0, 1):
            row = state.slots[t]
            out.extend(NEKTARS[t][k] for k in range(3) if row[k] >= 0 and CLASS_OF[row[k]] >= 0)
    if hand >> IDOL & 1:
        row = state.slots[1 - seat]
        out.extend(IDOLS[k] for k in range(3) if row[k] >= 0)
    if hand >> CHASY & 1:
        out.extend(CHASYS[c] for c in mask_indexes(hand & ~(1 << CHASY)))
    return out


def settle(state: State, events: Events) -> None:
    """Run the automatic steps until a player must act: a placement by a player with no warrior (D33), a
    pass for an empty hand (windows rule 6), closing windows, and the end of the turn after W4."""
    while (step := state.step) != OVER:
        if step & 1:
            p = state.first ^ ROLE[step]  # the placer
            if state.hands[p] & WARRIOR_MASK:
                return
            _place(state, p, (), True, events)
        else:
            a = state.actor
            if state.hands[a]:
                return
            _pass(state, a, True, events)


def _place(state: State, seat: int, cards: tuple[int, ...], automatic: bool, events: Events) -> None:
    """Fill the step's slots with ``cards`` in order, the rest stay empty (D10); open the next window."""
    step = state.step
    row = state.slots[seat]
    placed: list[Placed] = []
    empty = []
    n = len(cards)
    for i, k in enumerate(PLACE_SLOTS[step]):
        if i < n:
            c = cards[i]
            row[k] = c
            state.hands[seat] &= ~(1 << c)
            state.known[seat] &= ~(1 << c)
            placed.append({"slot": k + 1, "card": IDS[c]})
        else:
            row[k] = EMPTY
            empty.append(k + 1)
    if empty:
        state.no_warrior[seat] = True  # D10: a slot is left empty only when no warrior is left in hand
    ev: PlaceEvent = {
        "kind": "place",
        "seat": seat,
        "step": STEPS[step],
        "cards": placed,
        "empty": empty,
        "automatic": automatic,
    }
    events.append(ev)
    step += 1  # the next window opens
    state.step = step
    state.actor = state.first ^ ROLE[step]
    state.passes = 0


def _pass(state: State, seat: int, automatic: bool, events: Events) -> None:
    """A pass (spoken or automatic); the second in a row closes the window (§Equipment windows, rule 3)."""
    step = state.step
    passes = state.passes = state.passes + 1
    closed = passes >= 2
    ev: PassEvent = {
        "kind": "pass",
        "seat": seat,
        "window": STEPS[step],
        "automatic": automatic,
        "closed": closed,
    }
    events.append(ev)
    if not closed:
        state.actor = 1 - seat
    elif step == LAST_WINDOW:
        finish_turn(state, events)
    else:
        state.step = step + 1  # the next placement step


def _reject(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def _slot(slot: object) -> int:
    if type(slot) is not int or not 1 <= slot <= 3:
        raise _reject("bad_slot", f"slot must be 1, 2 or 3, not {slot!r}")
    return slot - 1


def _card(state: State, seat: int, cid: object) -> int:
    c = INDEX.get(cid, -1) if isinstance(cid, str) else -1
    if c < 0 or not state.hands[seat] >> c & 1:
        raise _reject("card_not_in_hand", f"no {cid!r} in hand")
    return c


def _check_place(state: State, seat: int, action: Place) -> tuple[int, ...]:
    """§A turn — placement rules; returns the card indexes."""
    hand = state.hands[seat]
    k = len(PLACE_SLOTS[state.step])
    want = min(k, bin(hand & WARRIOR_MASK).count("1"))
    if len(action.cards) != want:
        raise _reject("wrong_count", f"this step needs {want} warrior(s), not {len(action.cards)}")
    cards = tuple(_card(state, seat, cid) for cid in action.cards)
    if len(set(cards)) != len(cards):
        raise _reject("duplicate_card", "each slot needs a different warrior")
    for c in cards:
        if not IS_WARRIOR[c]:
            raise _reject("not_a_warrior", f"{IDS[c]!r} is not a warrior")
    return cards


def _check_window(state: State, seat: int, action: ArtaniaAction) -> int:
    """§Equipment: validate a window action; returns the target (0-based slot or discarded card) or -1."""
    cls = type(action)
    if cls is Pass:
        return -1
    hand = state.hands[seat]
    if isinstance(action, Nektar):
        if not hand >> NEKTAR & 1:
            raise _reject("card_not_in_hand", "no 'nektar' in hand")
        if type(action.seat) is not int or action.seat not in (0, 1):
            raise _reject("bad_seat", f"target seat must be 0 or 1, not {action.seat!r}")
        k = _slot(action.slot)
        card = state.slots[action.seat][k]
        if card < 0 or CLASS_OF[card] < 0:
            raise _reject("bad_target", "Нектар needs a class warrior in that slot (D14)")
        return k
    if isinstance(action, Idol):
        if not hand >> IDOL & 1:
            raise _reject("card_not_in_hand", "no 'idol' in hand")
        k = _slot(action.slot)
        if state.slots[1 - seat][k] < 0:
            raise _reject("bad_target", "Идол гнева needs an opponent's warrior in that slot (D15)")
        return k
    if isinstance(action, Chasy):
        if not hand >> CHASY & 1:
            raise _reject("card_not_in_hand", "no 'chasy' in hand")
        c = _card(state, seat, action.discard)
        if c == CHASY:
            raise _reject("bad_target", "discard another card with Часы Базилевса (D16)")
        return c
    raise _reject("malformed_action", f"not an Artania action: {action!r}")


def _check(state: State, seat: int, action: ArtaniaAction) -> int:
    """All validation of ``apply``; nothing is mutated. Returns the target of a window card, else -1."""
    if type(seat) is not int or seat not in (0, 1):
        raise _reject("bad_seat", f"seat must be 0 or 1, not {seat!r}")
    if state.step == OVER:
        raise _reject("match_over", "the match is over")
    cls = type(action)
    if cls is Resign:
        return -1
    if cls not in (Place, Pass, Nektar, Idol, Chasy):
        raise _reject("malformed_action", f"not an Artania action: {action!r}")
    placing = state.step % 2 == 1
    if cls is Place:
        if not placing:
            raise _reject(
                "not_placement", f"{STEPS[state.step]} is an equipment window, not a placement step"
            )
    elif placing:
        raise _reject("not_window", f"{STEPS[state.step]} is a placement step: no equipment (D12)")
    if state.to_act() != seat:
        raise _reject("not_your_turn", "it is the opponent's action")
    if isinstance(action, Place):
        _check_place(state, seat, action)
        return -1
    return _check_window(state, seat, action)


def _legal_place(state: State, seat: int, action: Place) -> tuple[int, ...] | None:
    """The card indexes of ``action`` if it is plainly legal now (``apply``'s fast path), else None: then
    :func:`_check` decides (it may still find it legal, e.g. a placement of no warrior)."""
    step = state.step
    if not step & 1 or step == OVER or type(seat) is not int or seat != state.first ^ ROLE[step]:
        return None
    try:
        found = _PLACE_CARDS.get(action.cards)
    except TypeError:  # unhashable cards (an action built without validation)
        return None
    if found is None:
        return None
    cards, mask = found
    hand = state.hands[seat]
    if hand & mask != mask or len(cards) != min(len(PLACE_SLOTS[step]), (hand & WARRIOR_MASK).bit_count()):
        return None
    return cards


def apply(state: State, seat: int, action: ArtaniaAction) -> Events:
    """Validate and apply ``action`` for ``seat``; returns the events. Raises IllegalAction with code
    ``bad_seat``, ``match_over``, ``not_placement``, ``not_window``, ``not_your_turn``, ``wrong_count``,
    ``card_not_in_hand``, ``duplicate_card``, ``not_a_warrior``, ``bad_slot``, ``bad_target`` or
    ``malformed_action``; the state is then unchanged."""
    events: Events = []
    cls = type(action)
    # Fast paths for the common actions when they are plainly legal; anything else goes through _check.
    if cls is Pass and not state.step & 1 and type(seat) is int and seat == state.actor:
        _pass(state, seat, False, events)  # a window's actor passes (OVER is odd: no window then)
        settle(state, events)
        return events
    if cls is Place and (cards := _legal_place(state, seat, cast(Place, action))) is not None:
        _place(state, seat, cards, False, events)
        settle(state, events)
        return events
    target = _check(state, seat, action)
    if isinstance(action, Resign):
        state.outcome = Outcome(1 - seat, "resign")
        state.step, state.actor = OVER, -1
        events.append(ResignEvent(kind="resign", seat=seat))
        events.append(
            MatchEndEvent(kind="match_end", winner=1 - seat, reason="resign", tokens=state.tokens[:])
        )
        return events
    if isinstance(action, Place):
        _place(state, seat, tuple(INDEX[c] for c in action.cards), False, events)
    elif isinstance(action, Pass):
        _pass(state, seat, False, events)
    else:
        _play_equipment(state, seat, action, target, events)
        state.passes = 0  # windows rule 3: a card play resets the count
        state.actor = 1 - seat
    settle(state, events)
    return events


def _spend(state: State, seat: int, card: int) -> None:
    state.hands[seat] &= ~(1 << card)
    state.known[seat] &= ~(1 << card)
    state.discards[seat].append(card)  # windows rule 4: played equipment goes face up to its owner's discard


def _play_equipment(state: State, seat: int, action: ArtaniaAction, target: int, events: Events) -> None:
    window = STEPS[state.step]
    ev: NektarEvent | IdolEvent | ChasyEvent
    if isinstance(action, Nektar):
        _spend(state, seat, NEKTAR)
        state.nektar[action.seat][target] |= 1 << seat
        card = state.slots[action.seat][target]
        ev = NektarEvent(
            kind="nektar", seat=seat, window=window, target_seat=action.seat, slot=target + 1, card=IDS[card]
        )
        events.append(ev)
    elif isinstance(action, Idol):
        opp = 1 - seat
        _spend(state, seat, IDOL)
        card = state.slots[opp][target]
        state.slots[opp][target] = REMOVED  # D15: stays empty; its Нектар is lost with it
        state.nektar[opp][target] = 0
        state.discards[opp].append(card)
        ev = IdolEvent(
            kind="idol", seat=seat, window=window, target_seat=opp, slot=target + 1, card=IDS[card]
        )
        events.append(ev)
    else:
        _spend(state, seat, CHASY)
        _spend(state, seat, target)
        ev = ChasyEvent(kind="chasy", seat=seat, window=window, discard=IDS[target])
        events.append(ev)
        draw(state, seat, CHASY_DRAW, "chasy", events)
    state.plays.append(dict(ev))  # public: the card discarded with Часы included, the drawn cards not


def timeout_action(state: State, seat: int) -> ArtaniaAction:
    """D34: ``pass`` in a window; in a placement step the hand's first warriors in canonical order (D32),
    in slot order. Raises IllegalAction ``match_over`` once over, ``not_your_turn`` if ``seat`` is not due."""
    if state.step == OVER:
        raise IllegalAction("match_over", "the match is over")
    if state.to_act() != seat:
        raise IllegalAction("not_your_turn", "it is the opponent's action")
    if state.step % 2 == 0:
        return PASS
    warriors = mask_indexes(state.hands[seat] & WARRIOR_MASK)
    return place_action(tuple(warriors[: len(PLACE_SLOTS[state.step])]))
