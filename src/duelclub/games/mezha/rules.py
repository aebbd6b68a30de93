"""Межа rules: setup, legal actions and ``apply`` (rules/mezha.md; decisions D1–D19).

``new_state(key, house)`` deals a match; ``legal_actions(state, seat)`` lists cached action objects;
``apply(state, seat, action)`` validates fully before mutating (raising ``IllegalAction``) and returns events.

Events (plain dicts typed in ``events.py``; ``seat`` is the acting player or the unit's owner):

- ``play {seat, card, field, placement, face_down, strength}`` — a unit entered (D14 steps 1–2);
- ``thaw`` / ``loner`` / ``sprout`` / ``rosa_buff``: ``{seat, field, placement, card, strength, face_down,
  amount}``;
- ``rally {…unit, targets: [{placement, card, strength}]}``;
- ``shot {seat, field, placement, card, damage, target_seat, target_placement, target_card, target_strength,
  shield_absorbed, burned}``; ``burn {seat, field, placement, card, cause: shot|podzhog|lightning}``;
- ``rosa`` / ``podzhog {seat, card, field}`` (a tactic played) and ``podzhog_hit`` (shaped like ``shot``);
- ``draw {seat, card, reason: messenger|fair|season}``, ``draw_skipped {seat, reason, cause}``;
- ``pass {seat, automatic}``;
- ``reveal`` and ``lightning`` (unit events; lightning adds ``damage, shield_absorbed, burned``);
- ``season_scored {season, omen, starter, fields, totals, strength, winner, wins}``;
- ``match_end {winner, reason}``; ``resign {seat}``;
- ``next_season {seat}``, ``clear {discarded, carried}``, ``season_start {season, omen, starter}``.

A unit event with ``face_down: true`` keeps ``card``, ``strength`` and ``amount`` private to ``seat``; a
``draw``'s ``card`` is private to ``seat`` (``view.event_view`` redacts).
"""

from __future__ import annotations

from duelclub.games.contract import IllegalAction, Outcome
from duelclub.games.fairness import Stream
from duelclub.games.mezha.actions import (
    NEXT_SEASON,
    PASS,
    MezhaAction,
    MezhaOptions,
    NextSeason,
    Pass,
    Play,
    Resign,
    play_action,
)
from duelclub.games.mezha.cards import (
    CARD_INDEX,
    FAIR,
    HOUSE_DECKS,
    HOUSES,
    IS_TACTIC,
    START_HAND,
)
from duelclub.games.mezha.effects import draw, enter_unit, play_tactic
from duelclub.games.mezha.events import Events
from duelclub.games.mezha.scoring import score_season, start_next_season
from duelclub.games.mezha.state import OVER, PAUSE, SEASON, TACTIC_BITS, State


def new_state(key: bytes, house: str) -> State:
    """Deal a match from the 32-byte match key (rules/mezha.md §Match setup; fairness.md consumers — mezha).

    Stream order: ``randint(2)`` for the season-1 starter, shuffle seat 0's deck, shuffle seat 1's deck,
    shuffle the omens [thaw, drought, fair, storm]; then each player draws the top 8 cards.
    ``house`` is seat 0's house (``"olkha"`` or ``"gorn"``); raises ValueError otherwise.
    """
    stream = Stream(key)
    h0 = HOUSES.index(house)
    s = State.__new__(State)
    s.stream = stream
    s.houses = (h0, 1 - h0)
    first = stream.randint(2)
    s.decks = [stream.shuffled(HOUSE_DECKS[s.houses[0]]), stream.shuffled(HOUSE_DECKS[s.houses[1]])]
    s.omens = stream.shuffled([0, 1, 2, 3])
    s.hands = [[0] * 20, [0] * 20]
    s.in_hand = [0, 0]
    for seat in (0, 1):
        hand, bits = s.hands[seat], 0
        for k in s.decks[seat][:START_HAND]:
            hand[k] += 1
            bits |= 1 << k
        s.in_hand[seat] = bits
        del s.decks[seat][:START_HAND]
    s.discards = [[], []]
    s.halves = [[[], []], [[], []], [[], []]]
    s.room = [0b111, 0b111]
    s.season, s.phase, s.starter, s.turn = 1, SEASON, first, first
    s.passed, s.auto = [False, False], [False, False]
    s.thaw_used = [[False, False, False], [False, False, False]]
    s.placements = 0
    s.results, s.wins, s.outcome = [], [0, 0], None
    settle(s, [])  # 8 cards and empty fields: never an automatic pass, but keep the rule in one place
    return s


def new_match(key: bytes, options: MezhaOptions) -> State:
    """:func:`new_state` for the contract's ``new_match``: ``options.house`` is seat 0's house."""
    return new_state(key, options.house)


def to_move(state: State) -> frozenset[int]:
    """The seat on turn during a season; both seats in the pause (D17); nobody when over."""
    if state.phase == SEASON:
        return _SINGLE[state.turn]
    return _BOTH if state.phase == PAUSE else _NOBODY


_SINGLE = (frozenset((0,)), frozenset((1,)))
_BOTH = frozenset((0, 1))
_NOBODY: frozenset[int] = frozenset()


def legal_actions(state: State, seat: int) -> list[MezhaAction]:
    """§Decision points and actions: plays (distinct unit ids × fields with a free own slot, distinct
    tactic ids × all fields; table order) then ``pass``; ``[next_season]`` in the pause; resign excluded."""
    if seat == state.turn and state.phase == SEASON:
        key = state.in_hand[seat] << 3 | state.room[seat]
        actions = _LEGAL.get(key)
        if actions is None:
            actions = _LEGAL[key] = _legal_list(key >> 3, key & 7)
        return [*actions]
    return [NEXT_SEASON] if state.phase == PAUSE and seat in (0, 1) else []


def _legal_list(in_hand: int, free: int) -> tuple[MezhaAction, ...]:
    """The legal actions of a seat on turn holding the kinds of bit set ``in_hand``, where bit f of ``free``
    says the own half of field f has a free slot."""
    out: list[MezhaAction] = []
    for k, plays in enumerate(_PLAYS_BY_FREE):
        if in_hand >> k & 1:
            out.extend(plays[free])
    out.append(PASS)
    return tuple(out)


# _PLAYS_BY_FREE[kind][free]: the cached plays of ``kind`` when bit f of ``free`` says the own half of field f
# has a free slot; a tactic may go to every field whatever ``free`` (D6).
_PLAYS_BY_FREE: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(play_action(k, f) for f in (0, 1, 2) if IS_TACTIC[k] or free >> f & 1) for free in range(8))
    for k in range(len(IS_TACTIC))
)

# The legal actions of a seat on turn by ``in_hand << 3 | free`` (see _legal_list), filled as met: at most
# 2 houses × 2**10 hands × 8 masks.
_LEGAL: dict[int, tuple[MezhaAction, ...]] = {}


def pass_turn(state: State, seat: int, automatic: bool, events: Events) -> None:
    """A pass (spoken or automatic, D11); under Ярмарка the season's first pass draws a card (D5)."""
    first = not state.passed[1 - seat]
    state.passed[seat] = True
    state.auto[seat] = automatic
    events.append({"kind": "pass", "seat": seat, "automatic": automatic})
    if first and state.omens[state.season - 1] == FAIR:
        draw(state, seat, "fair", events)


def settle(state: State, events: Events) -> None:
    """Bring ``state.turn`` to a seat that can act: skip a passed player, pass automatically for a player
    with no legal play (D1, D11), and score the season once both have passed."""
    while state.phase == SEASON:
        if state.passed[0] and state.passed[1]:
            score_season(state, events)
            return
        t = state.turn
        if state.passed[t]:
            t = state.turn = 1 - t
        bits = state.in_hand[t]  # State.has_legal_play, inlined: settle runs after every action
        if bits & TACTIC_BITS or (bits and state.room[t]):
            return
        pass_turn(state, t, True, events)


def _reject(code: str, message: str) -> IllegalAction:
    return IllegalAction(code, message)


def _check_play(state: State, seat: int, action: Play) -> int:
    """Validate a play and return the card kind; raises IllegalAction (nothing mutated)."""
    field = action.field
    if type(field) is not int or not 0 <= field <= 2:
        raise _reject("bad_field", f"field must be 0, 1 or 2, not {field!r}")
    kind = CARD_INDEX.get(action.card, -1)
    if kind < 0 or not state.in_hand[seat] >> kind & 1:
        raise _reject("card_not_in_hand", f"no {action.card!r} in hand")
    if not IS_TACTIC[kind] and not state.room[seat] >> field & 1:
        raise _reject("half_full", f"your half of field {field} is full")
    return kind


def _check(state: State, seat: int, action: object) -> int:
    """All validation of ``apply`` (rules/mezha.md §Decision points and actions); nothing is mutated.
    Returns the card kind of a valid play, else -1."""
    if seat not in (0, 1):
        raise _reject("bad_seat", f"seat must be 0 or 1, not {seat!r}")
    phase = state.phase
    if phase == OVER:
        raise _reject("match_over", "the match is over")
    cls = type(action)
    if cls is Resign:
        return -1
    if cls is NextSeason:
        if phase != PAUSE:
            raise _reject("not_in_pause", "next_season is only possible between seasons")
        return -1
    if cls is not Play and cls is not Pass:
        raise _reject("malformed_action", f"not a Mezha action: {action!r}")
    if phase == PAUSE:
        raise _reject("in_pause", "the season is scored; press next_season")
    if state.passed[seat]:
        raise _reject("already_passed", "you passed this season")
    if state.turn != seat:
        raise _reject("not_your_turn", "it is the opponent's turn")
    if type(action) is Play:
        return _check_play(state, seat, action)
    return -1


# id() of each cached Play (the ones ``legal_actions`` hands out) → (card kind, field): ``apply`` checks those
# without reading the model. The cached instances live as long as the module, so no other object has their id.
_KNOWN_PLAYS: dict[int, tuple[int, int]] = {
    id(play_action(k, f)): (k, f) for k in range(len(IS_TACTIC)) for f in (0, 1, 2)
}


def apply(state: State, seat: int, action: MezhaAction) -> Events:
    """Validate and apply ``action`` for ``seat``; returns the events. Raises IllegalAction with code
    ``bad_seat``, ``match_over``, ``not_in_pause``, ``in_pause``, ``already_passed``, ``not_your_turn``,
    ``bad_field``, ``card_not_in_hand``, ``half_full`` or ``malformed_action``; the state is then unchanged.
    """
    events: Events = []
    if state.phase == SEASON and state.turn == seat and not state.passed[seat]:
        # the common cases: a cached play or ``PASS`` by the seat on turn; the rest takes the full check below
        known = _KNOWN_PLAYS.get(id(action))
        if known is not None and state.in_hand[seat] >> (kind := known[0]) & 1:
            field = known[1]
            if IS_TACTIC[kind]:
                play_tactic(state, seat, kind, field, events)
            elif state.room[seat] >> field & 1:
                enter_unit(state, seat, kind, field, events)
            else:
                raise _reject("half_full", f"your half of field {field} is full")
            t = state.turn = 1 - seat
            bits = state.in_hand[t]
            if not state.passed[t] and (bits & TACTIC_BITS or (bits and state.room[t])):
                return events  # the opponent has a legal play: nothing for settle to do
            settle(state, events)
            return events
        if action is PASS:
            pass_turn(state, seat, False, events)
            state.turn = 1 - seat
            settle(state, events)
            return events
    elif action is NEXT_SEASON and state.phase == PAUSE and seat in (0, 1):
        start_next_season(state, seat, events)
        settle(state, events)
        return events
    kind = _check(state, seat, action)
    if type(action) is Play:
        if IS_TACTIC[kind]:
            play_tactic(state, seat, kind, action.field, events)
        else:
            enter_unit(state, seat, kind, action.field, events)
        state.turn = 1 - seat
    elif type(action) is Pass:
        pass_turn(state, seat, False, events)
        state.turn = 1 - seat
    elif type(action) is NextSeason:
        start_next_season(state, seat, events)
    else:
        # D9: resignation is a loss for the resigning player in any phase
        state.phase, state.turn = OVER, -1
        state.outcome = Outcome(1 - seat, "resign")
        events.append({"kind": "resign", "seat": seat})
        events.append({"kind": "match_end", "winner": 1 - seat, "reason": "resign"})
        return events
    settle(state, events)
    return events


def timeout_action(state: State, seat: int) -> MezhaAction:
    """D19: Mezha has no clock; for the contract, ``pass`` in a season and ``next_season`` in the pause."""
    if state.phase == OVER:
        raise IllegalAction("match_over", "the match is over")
    return NEXT_SEASON if state.phase == PAUSE else PASS
