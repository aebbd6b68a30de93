"""End of a turn (rules/artania.md §Scoring a turn, §Tie-break, §Clean-up and the next turn, §End).

``finish_turn`` runs after W4 closes: score, tie-break rounds while equal, the token, clean-up, the end checks
(D22, D23), the draw step (D21) and the start of the next turn with roles swapped (D20). Everything is
automatic; events:

- ``turn_scored {turn, first, slots: [[<slot>×3], [<slot>×3]], totals: [t0, t1]}`` where a slot is
  ``{"slot", "state": "card"|"empty"|"removed", "card", "base", "bonus", "nektar", "total"}``;
- ``tiebreak {round, cards: [id|None, id|None], values: [v0, v1], to_hand: [id|None, id|None]}`` — one per
  round (D17, D27); ``to_hand`` names an equipment card that went into its owner's hand (public, D35);
- ``token {seat: winner|None, tokens: [n0, n1]}`` — ``seat`` None when the tie-break ran both decks dry;
- ``cleanup {discarded: [[ids], [ids]]}`` — battlefield cards (slots 1–3) then tie-break warriors;
- ``draw {seat, cards, count, reason: "turn"}`` — ``cards`` is private to ``seat`` (view.event_view);
- ``match_end {winner, reason, tokens}``; ``turn_start {turn, first}`` (all typed in ``events.py``).
"""

from __future__ import annotations

from typing import Literal

from duelclub.games.artania.cards import (
    CARD_BONUS,
    IDS,
    IS_WARRIOR,
    NEKTAR_BONUS,
    SWORDS,
    TOKENS_TO_WIN,
    TURN_DRAW,
)
from duelclub.games.artania.events import (
    CleanupEvent,
    DrawEvent,
    Events,
    MatchEndEvent,
    Reason,
    ScoredSlot,
    TiebreakEvent,
    TokenEvent,
    TurnScoredEvent,
    TurnStartEvent,
)
from duelclub.games.artania.state import OVER, PENDING, SLOT_STATES, State
from duelclub.games.contract import Outcome

_NEKTARS = (0, 1, 1, 2)  # popcount of a 2-bit owner mask
_OWNERS: tuple[tuple[int, ...], ...] = ((), (0,), (1,), (0, 1))  # the seats of a 2-bit owner mask


def slot_value(state: State, seat: int, k: int) -> tuple[int, int, int]:
    """(base, counter-class bonus, Нектар swords) of ``seat``'s slot ``k`` (0-based); zeros when empty."""
    card = state.slots[seat][k]
    if card < 0:
        return 0, 0, 0
    opposite = state.slots[1 - seat][k]
    bonus = CARD_BONUS[card][opposite] if opposite >= 0 else 0  # D11: an empty slot gives no bonus
    return SWORDS[card], bonus, NEKTAR_BONUS * _NEKTARS[state.nektar[seat][k]]


def totals(state: State) -> list[int]:
    """Both players' running totals (§Scoring a turn): base + bonus + Нектар over the three slots."""
    out = [0, 0]
    for seat in (0, 1):
        for k in range(3):
            base, bonus, nek = slot_value(state, seat, k)
            out[seat] += base + bonus + nek
    return out


def slot_json(state: State, seat: int, k: int) -> ScoredSlot:
    """One slot as the views and the ``turn_scored`` event show it."""
    card = state.slots[seat][k]
    owners = state.nektar[seat][k]
    if card < 0:
        return {
            "slot": k + 1,
            "state": SLOT_STATES[card],
            "card": None,
            "base": 0,
            "bonus": 0,
            "nektar": 0,
            "nektar_by": list(_OWNERS[owners]),
            "total": 0,
        }
    opposite = state.slots[1 - seat][k]
    base = SWORDS[card]
    bonus = CARD_BONUS[card][opposite] if opposite >= 0 else 0  # D11: an empty slot gives no bonus
    nek = NEKTAR_BONUS * _NEKTARS[owners]
    return {
        "slot": k + 1,
        "state": "card",
        "card": IDS[card],
        "base": base,
        "bonus": bonus,
        "nektar": nek,
        "nektar_by": list(_OWNERS[owners]),
        "total": base + bonus + nek,
    }


def draw(state: State, seat: int, n: int, reason: Literal["turn", "chasy"], events: Events) -> None:
    """``seat`` draws up to ``n`` cards from the top of its own deck (fewer if short, D16, D21, D22)."""
    deck = state.decks[seat]
    got = deck[:n]
    del deck[:n]
    for c in got:
        state.hands[seat] |= 1 << c
    if got:
        state.no_warrior[seat] = False  # unseen cards arrived: the hand is no longer known warrior-free
    ev: DrawEvent = {
        "kind": "draw",
        "seat": seat,
        "cards": [IDS[c] for c in got],
        "count": len(got),
        "reason": reason,
    }
    events.append(ev)


def _tiebreak(state: State, revealed: list[list[int]], events: list[TiebreakEvent]) -> int | None:
    """§Tie-break: reveal both deck tops until one value is higher or both decks are empty (D17, D27)."""
    rnd = 0
    decks = state.decks
    while decks[0] or decks[1]:
        rnd += 1
        cards: list[str | None] = [None, None]
        values = [0, 0]
        to_hand: list[str | None] = [None, None]
        for seat in (0, 1):
            if not decks[seat]:
                continue  # D17: an empty deck reveals nothing and counts 0
            c = decks[seat].pop(0)
            cards[seat] = IDS[c]
            if IS_WARRIOR[c]:
                values[seat] = SWORDS[c]
                revealed[seat].append(c)  # D18: discarded at clean-up
            else:
                state.hands[seat] |= 1 << c
                state.known[seat] |= 1 << c  # D35: everyone saw it go into the hand
                to_hand[seat] = IDS[c]
        events.append(TiebreakEvent(kind="tiebreak", round=rnd, cards=cards, values=values, to_hand=to_hand))
        if values[0] != values[1]:
            return 0 if values[0] > values[1] else 1
    return None


def finish_turn(state: State, events: Events) -> None:
    """Score the turn after W4 closed, award the token, clean up, and end the match or start the next turn."""
    slots = [[slot_json(state, 0, 0), slot_json(state, 0, 1), slot_json(state, 0, 2)]]
    slots.append([slot_json(state, 1, 0), slot_json(state, 1, 1), slot_json(state, 1, 2)])
    tot = [sum([s["total"] for s in slots[0]]), sum([s["total"] for s in slots[1]])]
    scored: TurnScoredEvent = {
        "kind": "turn_scored",
        "turn": state.turn,
        "first": state.first,
        "slots": slots,
        "totals": tot,
    }
    events.append(scored)
    revealed: list[list[int]] = [[], []]
    rounds: list[TiebreakEvent] = []
    if tot[0] != tot[1]:
        winner: int | None = 0 if tot[0] > tot[1] else 1
    else:
        winner = _tiebreak(state, revealed, rounds)
        events.extend(rounds)
    if winner is not None:
        state.tokens[winner] += 1
    token: TokenEvent = {"kind": "token", "seat": winner, "tokens": state.tokens[:]}
    events.append(token)
    state.results.append(
        {
            "turn": state.turn,
            "first": state.first,
            "slots": slots,
            "totals": tot,
            "tiebreak": [
                {"round": e["round"], "cards": e["cards"], "values": e["values"], "to_hand": e["to_hand"]}
                for e in rounds
            ],
            "winner": winner,
            "tokens": state.tokens[:],
        }
    )
    _cleanup(state, revealed, events)
    if winner is not None and state.tokens[winner] >= TOKENS_TO_WIN:
        _end(state, winner, "five_tokens", events)
        return
    if not state.decks[0] or not state.decks[1]:
        t0, t1 = state.tokens
        _end(state, None if t0 == t1 else (0 if t0 > t1 else 1), "deck_exhausted", events)
        return
    for seat in (0, 1):
        draw(state, seat, TURN_DRAW, "turn", events)
    state.turn += 1
    state.first = 1 - state.first  # D20
    start: TurnStartEvent = {"kind": "turn_start", "turn": state.turn, "first": state.first}
    events.append(start)
    state.step = 0
    state.actor = state.first
    state.passes = 0


def _cleanup(state: State, revealed: list[list[int]], events: Events) -> None:
    """Clean-up step 1: battlefield cards (slots 1–3) then tie-break warriors to their owners' discards."""
    discarded: list[list[str]] = [[], []]
    for seat in (0, 1):
        gone = [c for c in state.slots[seat] if c >= 0] + revealed[seat]
        state.discards[seat] += gone
        discarded[seat] = [IDS[c] for c in gone]
        state.slots[seat][:] = (PENDING, PENDING, PENDING)
        state.nektar[seat] = [0, 0, 0]
    state.plays = []
    ev: CleanupEvent = {"kind": "cleanup", "discarded": discarded}
    events.append(ev)


def _end(state: State, winner: int | None, reason: Reason, events: Events) -> None:
    state.outcome = Outcome(winner, reason)
    state.step = OVER
    state.actor = -1
    events.append(MatchEndEvent(kind="match_end", winner=winner, reason=reason, tokens=state.tokens[:]))
