"""The versioned Сундук войны position format (docs/positions/warchest.md).

``from_position(to_position(s))`` rebuilds ``s`` exactly, stream included. ``from_position`` validates with
the declared model (``position_model.WarchestPosition``) and raises ValueError on anything malformed or
unreachable (unknown coin kinds, hexes off the board, coins or markers not adding up, a won match in play, …).
"""

from __future__ import annotations

from typing import Any

from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream
from duelclub.games.position_model import parse
from duelclub.games.warchest.actions import Action, cached, key_of
from duelclub.games.warchest.position_model import VERSION, WarchestPosition
from duelclub.games.warchest.state import Pending, State, Unit

JSON = dict[str, Any]
_ZONES = ("bag", "hand", "up", "down", "supply", "elim", "decoys")


def _dump_action(a: Action) -> JSON:
    return a.model_dump(mode="json", exclude_none=True)


def to_position(state: State) -> JSON:
    return {
        "game": "warchest",
        "version": VERSION,
        "stream": {"key": state.stream.key.hex(), "position": state.stream.position},
        "nobility": state.nobility,
        "nightfall": state.nightfall,
        "draft_variant": state.draft_variant,
        "wolf_seat": state.wolf_seat,
        "phase": state.phase,
        "draft_pool": state.draft_pool[:],
        "draft_order": state.draft_order[:],
        "decrees": state.decrees[:],
        "hidden_decrees": state.hidden_decrees[:],
        "sealed": [sorted(state.sealed[0]), sorted(state.sealed[1])],
        "sides": [
            {"types": p.types[:], "reserve": p.reserve}
            | {z: {c: n for c, n in sorted(getattr(p, z).items())} for z in _ZONES}
            for p in state.sides
        ],
        "control": state.control[:],
        "units": [
            {"hex": h, "owner": u.owner, "type": u.type, "height": u.height, "poison": u.poison, "uid": u.uid}
            for h, u in sorted(state.units.items())
        ],
        "initiative": state.initiative,
        "changed": state.changed,
        "round": state.round,
        "turn": state.turn,
        "stack": [list(t) for t in state.stack],
        "pending": None
        if state.pending is None
        else {
            "owner": state.pending.owner,
            "kind": state.pending.kind,
            "options": [_dump_action(a) for a in state.pending.options],
            "optional": state.pending.optional,
            "data": list(state.pending.data),
        },
        "outcome": None if state.outcome is None else state.outcome.to_json(),
        "uid": state.uid,
    }


def from_position(position: JSON) -> State:
    """Rebuild a state from :func:`to_position` output.

    Everything is checked by :class:`~duelclub.games.warchest.position_model.WarchestPosition`; raises
    ValueError (``PositionError``) naming the offending key and problem for anything malformed or unreachable
    (unknown coins, hexes off the board, coins or markers that do not add up, a won match still in play, …).
    """
    m = parse(WarchestPosition, position, "warchest")
    s = State(
        Stream.at(bytes.fromhex(m.stream.key), m.stream.position), m.nobility, m.nightfall, m.draft_variant
    )
    s.wolf_seat = m.wolf_seat
    s.phase = m.phase
    s.draft_pool = list(m.draft_pool)
    s.draft_order = list(m.draft_order)
    s.decrees = list(m.decrees)
    s.hidden_decrees = list(m.hidden_decrees)
    s.sealed = (set(m.sealed[0]), set(m.sealed[1]))
    for p, raw in zip(s.sides, m.sides, strict=True):
        p.types = list(raw.types)
        p.reserve = raw.reserve
        p.bag, p.hand, p.up, p.down = dict(raw.bag), dict(raw.hand), dict(raw.up), dict(raw.down)
        p.supply, p.elim = dict(raw.supply), dict(raw.elim)
        p.decoys = {str(k): n for k, n in raw.decoys.items()}
    s.control = list(m.control)
    s.units = {u.hex: Unit(u.owner, u.type, u.height, u.poison, u.uid) for u in m.units}
    s.initiative, s.changed = m.initiative, m.changed
    s.round, s.turn = m.round, m.turn
    s.stack = [tuple(t) for t in m.stack]
    pd = m.pending
    if pd is not None:
        options = tuple(cached(key_of(a)) or a for a in pd.options)
        s.pending = Pending(pd.owner, pd.kind, options, pd.optional, tuple(pd.data))
    s.outcome = None if m.outcome is None else Outcome(m.outcome.winner, m.outcome.reason)
    s.uid = m.uid
    return s
