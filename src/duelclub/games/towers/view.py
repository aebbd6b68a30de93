"""What each player sees (rules/towers.md §8.3, D30): ``view``, ``full_view``, ``event_view``.

View shape (deterministic JSON)::

    {"game": "towers", "you": 0 | 1 | None, "battlefield": "archmage_citadel", "deck": "normal" | "infinite",
     "targets": {"tower": 50, "resource": 150},
     "players": [{"tower": 20, "wall": 5, "mines": 2, "monasteries": 2, "barracks": 2,
                  "ore": 7, "mana": 7, "troops": 7}, {...}],
     "turn": 1, "active": 0 | 1 | None, "to_move": [0], "phase": "main" | "extra" | "forced_discard" | "over",
     "hand": [43, 7, ...] | None, "hand_sizes": [6, 6],
     "pile_size": 90 | None, "discard": [12, 43] | None,          # None for the infinite deck
     "last": [[{"card": 4, "tag": "play"}, ...], [...]],         # each seat's most recent turn (§8.3)
     "history": [[seat, card, tag], ...],                         # every card that left a hand, oldest first
     "timeouts": [0, 0], "outcome": None | {"winner": 0 | 1 | None, "reason": "..."}}

Only the viewer's own hand is shown; the draw-pile order and future draws are secret. Once the match is over,
every view is the full view (both ``hands`` and the ``pile``, top first) with ``you`` set.
"""

from __future__ import annotations

from typing import Any

from duelclub.games.towers.battlefields import BATTLEFIELDS
from duelclub.games.towers.dsl import ATTRS
from duelclub.games.towers.state import OVER, PHASES, TAGS, State, history_list

JSON = dict[str, Any]


def counters_json(p: list[int]) -> JSON:
    return dict(zip(ATTRS, p, strict=True))


def _base(state: State, seat: int | None) -> JSON:
    bf = BATTLEFIELDS[state.field]
    over = state.phase == OVER
    return {
        "game": "towers",
        "you": seat,
        "battlefield": bf.id,
        "deck": "infinite" if state.infinite else "normal",
        "targets": {"tower": bf.victory_tower, "resource": bf.victory_resource},
        "players": [counters_json(state.p[0]), counters_json(state.p[1])],
        "turn": state.turn,
        "active": None if over else state.active,
        "to_move": [] if over else [state.active],
        "phase": PHASES[state.phase],
        "hand": state.hands[seat][:] if seat is not None else None,
        "hand_sizes": [len(state.hands[0]), len(state.hands[1])],
        "pile_size": None if state.infinite else len(state.pile),
        "discard": None if state.infinite else state.discard[:],
        "last": [[{"card": c, "tag": TAGS[t]} for c, t in state.last[s]] for s in (0, 1)],
        "history": [[s, c, TAGS[t]] for s, c, t in history_list(state.history)],
        "timeouts": state.timeouts[:],
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def full_view(state: State, seat: int | None = None) -> JSON:
    """Everything: both hands and the draw pile (top first). The stream key is not included."""
    v = _base(state, seat)
    v["hands"] = [state.hands[0][:], state.hands[1][:]]
    v["pile"] = None if state.infinite else state.pile[::-1]
    return v


def view(state: State, seat: int | None) -> JSON:
    """What ``seat`` may know now (``None``: a spectator); after the match ends, the full view."""
    if state.phase == OVER:
        return full_view(state, seat)
    return _base(state, seat)


def event_view(state: State, event: JSON, seat: int | None) -> JSON | None:
    """``event`` as ``seat`` sees it: a ``draw``'s card is private to the drawer until the match is over.
    Every other event is public (§8.3)."""
    e = dict(event)
    if event.get("kind") == "draw" and state.phase != OVER and seat != event.get("seat"):
        e.pop("card", None)
    return e
