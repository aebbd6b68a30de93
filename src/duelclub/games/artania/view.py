"""What each player sees (rules/artania.md §What each player sees): ``view``, ``full_view``, ``event_view``.

View shape (deterministic JSON; lists only)::

    {"game": "artania", "you": 0 | 1 | None, "phase": "window" | "place" | "over",
     "step": "W0" … "W4" | "P1" … "P4" | None, "turn": 1, "first": 0, "second": 1,
     "to_move": [0] | [1] | [],
     "window": {"name": "W2", "actor": 0, "passes": 1} | None,
     "placing": {"seat": 1, "slots": [1, 2]} | None,
     "sides": ["artania", "kuyavia"],              # each seat's deck
     "tokens": [2, 1], "pool": 6,
     "hand": ["vityaz_1", …] | None,               # own hand in canonical order (D32); None for a spectator
     "known": [[ids], [ids]],                      # public cards in each hand (D35)
     "no_warrior": [bool, bool],                   # a placement showed the hand holds no warrior (D10)
     "hand_sizes": [5, 6], "deck_sizes": [20, 19], "discards": [[ids], [ids]],
     "field": [[<slot>×3], [<slot>×3]], "totals": [7, 5],
     "plays": [<nektar|idol|chasy event>…],         # this turn's equipment plays
     "results": [<turn record>…], "outcome": None | {"winner", "reason"}}

A slot is ``{"slot", "state": "pending"|"card"|"empty"|"removed", "card", "base", "bonus", "nektar",
"nektar_by", "total"}`` (scoring.slot_json): the base swords, the counter-class bonus and the Нектар swords as
separate numbers. Once the match is over, every view is the full view with ``you`` set.
"""

from __future__ import annotations

from typing import Any

from duelclub.games.artania.cards import DECKS, IDS, TOKEN_POOL, mask_ids
from duelclub.games.artania.scoring import slot_json, totals
from duelclub.games.artania.state import OVER, PLACE_SLOTS, STEPS, State

JSON = dict[str, Any]


def _base(state: State, seat: int | None) -> JSON:
    over = state.step == OVER
    window = not over and state.step % 2 == 0
    placing = not over and not window
    to_act = state.to_act()
    return {
        "game": "artania",
        "you": seat,
        "phase": "over" if over else ("window" if window else "place"),
        "step": None if over else STEPS[state.step],
        "turn": state.turn,
        "first": state.first,
        "second": 1 - state.first,
        "to_move": [] if over else [to_act],
        "window": {"name": STEPS[state.step], "actor": state.actor, "passes": state.passes}
        if window
        else None,
        "placing": ({"seat": to_act, "slots": [k + 1 for k in PLACE_SLOTS[state.step]]} if placing else None),
        "sides": [DECKS[d] for d in state.seat_decks],
        "tokens": state.tokens[:],
        "pool": TOKEN_POOL - state.tokens[0] - state.tokens[1],
        "hand": mask_ids(state.hands[seat]) if seat is not None else None,
        "known": [mask_ids(state.known[0]), mask_ids(state.known[1])],
        "no_warrior": state.no_warrior[:],
        "hand_sizes": [state.hands[0].bit_count(), state.hands[1].bit_count()],
        "deck_sizes": [len(state.decks[0]), len(state.decks[1])],
        "discards": [[IDS[c] for c in d] for d in state.discards],
        "field": [[slot_json(state, s, k) for k in range(3)] for s in (0, 1)],
        "totals": totals(state),
        "plays": [dict(p) for p in state.plays],
        "results": list(state.results),
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def full_view(state: State, seat: int | None = None) -> JSON:
    """Everything: both hands and both deck orders (top first). The stream key is not included."""
    v = _base(state, seat)
    v["hands"] = [mask_ids(state.hands[0]), mask_ids(state.hands[1])]
    v["decks"] = [[IDS[c] for c in d] for d in state.decks]
    return v


def view(state: State, seat: int | None) -> JSON:
    """What ``seat`` may know now (``None``: a spectator); after the match ends, the full view."""
    if state.step == OVER:
        return full_view(state, seat)
    return _base(state, seat)


def event_view(state: State, event: JSON, seat: int | None) -> JSON | None:
    """``event`` as ``seat`` sees it: a ``draw``'s card ids go to the drawer only (the count is public);
    everything else is public (placements, plays, tie-break reveals). Once over, every event is public."""
    e = dict(event)
    if e.get("kind") == "draw" and state.step != OVER and seat != e.get("seat"):
        e.pop("cards", None)
    return e
