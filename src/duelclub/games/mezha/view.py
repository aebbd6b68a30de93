"""What each player sees (rules/mezha.md §What each player sees): ``view``, ``full_view``, ``event_view``.

View shape (deterministic JSON; lists only)::

    {"game": "mezha", "you": 0 | 1 | None, "phase": "season" | "pause" | "over",
     "season": 1, "omen": "thaw", "results": [<season result>...], "wins": [0, 0],
     "starter": 0, "turn": 0 | 1 | None, "to_move": [0], "passed": [false, false],
     "auto_passed": [false, false], "capacity": 4, "houses": ["olkha", "gorn"],
     "hand": ["ten_v_listve", ...] | None, "hand_sizes": [8, 8], "deck_sizes": [12, 12],
     "discards": [[...], [...]], "fields": [[<half seat 0>, <half seat 1>] × 3], "outcome": None | {...},
     "thaw_used": [[bool × 3], [bool × 3]]}   # per seat, per field: Оттепель bonus already given (D16)

A half is ``{"units": [...], "total": int, "hidden": int}``: ``total`` is the strength the viewer can see
(exact for the own half) and ``hidden`` the number of units whose strength the viewer cannot see. A unit is
``{"card", "strength", "shield": None | "ready" | "spent", "placement", "face_down", "carried"}``, or
``{"hidden": true, "placement": n}`` for an opponent's face-down unit. Once the match is over, every view is
the full view (nothing is secret any more) with ``you`` set.
"""

from __future__ import annotations

from typing import Any

from duelclub.games.mezha.cards import HAS_SHIELD, HOUSES, IDS, OMEN_IDS
from duelclub.games.mezha.state import OVER, PHASES, SEASON, State, Unit, result_copy

JSON = dict[str, Any]


def hand_ids(hand: list[int]) -> list[str]:
    """A hand (kind counts) as card ids in table order (D18)."""
    return [IDS[k] for k, n in enumerate(hand) for _ in range(n)]


def unit_json(state: State, u: Unit) -> JSON:
    return {
        "card": IDS[u.kind],
        "strength": u.strength,
        "shield": ("ready" if u.shield else "spent") if HAS_SHIELD[u.kind] else None,
        "placement": u.placement,
        "face_down": u.face_down,
        "carried": u.season != state.season,
    }


def _half(state: State, units: list[Unit], secret: bool) -> JSON:
    out: list[JSON] = []
    total = hidden = 0
    for u in units:
        if secret and u.face_down:
            out.append({"hidden": True, "placement": u.placement})
            hidden += 1
        else:
            out.append(unit_json(state, u))
            total += u.strength
    return {"units": out, "total": total, "hidden": hidden}


def _base(state: State, seat: int | None, omniscient: bool) -> JSON:
    fields = [
        [_half(state, field[s], not omniscient and s != seat) for s in (0, 1)] for field in state.halves
    ]
    return {
        "game": "mezha",
        "you": seat,
        "phase": PHASES[state.phase],
        "season": state.season,
        "omen": OMEN_IDS[state.omens[state.season - 1]],
        "results": [result_copy(r) for r in state.results],
        "wins": state.wins[:],
        "starter": state.starter,
        "turn": state.turn if state.phase == SEASON else None,
        "to_move": [state.turn] if state.phase == SEASON else ([] if state.phase == OVER else [0, 1]),
        "passed": state.passed[:],
        "auto_passed": state.auto[:],
        "capacity": state.capacity(),
        "houses": [HOUSES[h] for h in state.houses],
        "hand": hand_ids(state.hands[seat]) if seat is not None else None,
        "hand_sizes": [state.hand_size(0), state.hand_size(1)],
        "deck_sizes": [len(state.decks[0]), len(state.decks[1])],
        "discards": [[IDS[k] for k in d] for d in state.discards],
        "fields": fields,
        "outcome": state.outcome.to_json() if state.outcome else None,
        # public: every entry is seen by both players (D16), and a burned unit no longer shows it
        "thaw_used": [state.thaw_used[0][:], state.thaw_used[1][:]],
    }


def full_view(state: State, seat: int | None = None) -> JSON:
    """Everything: both hands, deck orders (top first), all four omens in order, the placement counter.
    The stream key is not included (it would reveal the deal; it is in the position)."""
    v = _base(state, seat, True)
    v["hands"] = [hand_ids(state.hands[0]), hand_ids(state.hands[1])]
    v["decks"] = [[IDS[k] for k in d] for d in state.decks]
    v["omens"] = [OMEN_IDS[o] for o in state.omens]
    v["placements"] = state.placements
    return v


def view(state: State, seat: int | None) -> JSON:
    """What ``seat`` may know now (``None``: a spectator); after the match ends, the full view."""
    if state.phase == OVER:
        return full_view(state, seat)
    return _base(state, seat, False)


_UNIT_SECRETS = ("card", "strength", "amount")


def event_view(state: State, event: JSON, seat: int | None) -> JSON | None:
    """``event`` as ``seat`` sees it: a face-down unit's card/strength/amount and a drawn card's id are
    private to the event's ``seat``; once the match is over every event is public.

    A ``sprout`` of a face-down unit is not shown to the others at all (None): only Сова-дозорная has both
    тайник and росток, so even a redacted growth event would name the card. This goes one step beyond
    rules/mezha.md §What each player sees, which redacts such events, to keep the card secret as §Тайник says.
    """
    e = dict(event)
    if state.phase == OVER or (seat is not None and seat == event.get("seat")):
        return e
    if event.get("kind") == "sprout" and event.get("face_down"):
        return None
    if event.get("kind") == "draw":
        e.pop("card", None)
    elif event.get("face_down"):
        for key in _UNIT_SECRETS:
            e.pop(key, None)
    return e
