"""The versioned Дві вежі position format (docs/positions/towers.md): ``to_position`` / ``from_position``.

``from_position(to_position(s))`` rebuilds ``s`` exactly, stream included (``Stream.at(key, position)``).
``from_position`` validates with the declared model (``position_model.TowersPosition``) and raises
ValueError on anything malformed or unreachable (a normal deck whose cards are not 1..102 exactly once, a
wrong hand size for the phase, a pile card outside ``pool``, a decided match still in play, …).
"""

from __future__ import annotations

from typing import Any

from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream
from duelclub.games.position_model import parse
from duelclub.games.towers.battlefields import BATTLEFIELD_INDEX, BATTLEFIELDS
from duelclub.games.towers.cards import N_CARDS
from duelclub.games.towers.dsl import ATTRS
from duelclub.games.towers.position_model import VERSION, TowersPosition
from duelclub.games.towers.state import PHASES, TAGS, History, State, history_list

JSON = dict[str, Any]


def to_position(state: State) -> JSON:
    """The complete position as JSON (version 1)."""
    normal = not state.infinite
    return {
        "game": "towers",
        "version": VERSION,
        "stream": {"key": state.stream.key.hex(), "position": state.stream.position},
        "battlefield": BATTLEFIELDS[state.field].id,
        "deck": "normal" if normal else "infinite",
        "players": [dict(zip(ATTRS, state.p[s], strict=True)) for s in (0, 1)],
        "hands": [state.hands[0][:], state.hands[1][:]],
        "pile": state.pile[::-1] if normal else None,
        "discard": state.discard[:] if normal else None,
        "pool": [c for c in range(1, N_CARDS + 1) if state.pool >> c & 1] if normal else None,
        "active": state.active,
        "turn": state.turn,
        "phase": PHASES[state.phase],
        "again": state.again,
        "timeouts": state.timeouts[:],
        "last": [[[c, TAGS[t]] for c, t in state.last[s]] for s in (0, 1)],
        "history": [[s, c, TAGS[t]] for s, c, t in history_list(state.history)],
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def from_position(position: Any) -> State:
    """Rebuild a state from :func:`to_position` output.

    Everything is checked by :class:`~duelclub.games.towers.position_model.TowersPosition`; raises
    ValueError (``PositionError``) naming the offending key and problem for anything malformed or unreachable
    (a normal deck whose cards are not 1..102 exactly once, a wrong hand size for the phase, a pile card
    outside ``pool``, a match still in play although a victory condition holds, …).
    """
    m = parse(TowersPosition, position, "towers")
    s = State.__new__(State)
    s.stream = Stream.at(bytes.fromhex(m.stream.key), m.stream.position)
    s.field = BATTLEFIELD_INDEX[m.battlefield]
    s.infinite = m.deck == "infinite"
    s.p = [m.players[0].values(), m.players[1].values()]
    s.hands = [list(m.hands[0]), list(m.hands[1])]
    if m.pile is None or m.discard is None or m.pool is None:
        s.pile, s.discard, s.pool = [], [], 0
    else:
        s.pile = m.pile[::-1]
        s.discard = list(m.discard)
        s.pool = sum(1 << c for c in m.pool)
    s.active, s.turn = m.active, m.turn
    s.phase = PHASES.index(m.phase)
    s.again = m.again
    s.timeouts = list(m.timeouts)
    s.last = [[(c, TAGS.index(t)) for c, t in lst] for lst in m.last]
    h: History = None
    for seat, card, tag in m.history:
        h = (seat, card, TAGS.index(tag), h)
    s.history = h
    s.outcome = None if m.outcome is None else Outcome(m.outcome.winner, m.outcome.reason)
    return s
