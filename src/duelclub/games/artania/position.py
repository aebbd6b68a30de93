"""The versioned Артания и Куявия position format (docs/positions/artania.md).

``to_position`` / ``from_position``:

``from_position(to_position(s))`` rebuilds ``s`` exactly, stream included (``Stream.at(key, position)``).
``from_position`` validates with the declared model (``position_model.ArtaniaPosition``) and raises
ValueError on anything malformed or unreachable (a seat's cards not being exactly its 33, a slot filled before
its step, Нектар on a special, a known warrior, five tokens in a running game, …).
"""

from __future__ import annotations

from typing import Any

from duelclub.games.artania.cards import DECKS, IDS, INDEX, mask_ids
from duelclub.games.artania.position_model import FILL_STEP, VERSION, ArtaniaPosition
from duelclub.games.artania.state import OVER, SLOT_STATES, STEPS, State
from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream
from duelclub.games.position_model import parse

JSON = dict[str, Any]
_SLOT_CODES = {name: code for code, name in SLOT_STATES.items()}
__all__ = ["FILL_STEP", "VERSION", "from_position", "to_position"]


def _slot_code(c: int) -> str:
    return IDS[c] if c >= 0 else SLOT_STATES[c]


def to_position(state: State) -> JSON:
    """The complete position as JSON (version 1)."""
    return {
        "game": "artania",
        "version": VERSION,
        "stream": {"key": state.stream.key.hex(), "position": state.stream.position},
        "sides": [DECKS[d] for d in state.seat_decks],
        "turn": state.turn,
        "first": state.first,
        "step": "over" if state.step == OVER else STEPS[state.step],
        "actor": state.actor if state.step != OVER and state.step % 2 == 0 else None,
        "passes": state.passes if state.step != OVER and state.step % 2 == 0 else 0,
        "tokens": state.tokens[:],
        "hands": [mask_ids(state.hands[0]), mask_ids(state.hands[1])],
        "known": [mask_ids(state.known[0]), mask_ids(state.known[1])],
        "no_warrior": state.no_warrior[:],
        "decks": [[IDS[c] for c in d] for d in state.decks],
        "discards": [[IDS[c] for c in d] for d in state.discards],
        "slots": [[_slot_code(c) for c in row] for row in state.slots],
        "nektar": [[[s for s in (0, 1) if m >> s & 1] for m in row] for row in state.nektar],
        "plays": [dict(p) for p in state.plays],
        "results": list(state.results),
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def from_position(position: Any) -> State:
    """Rebuild a state from :func:`to_position` output.

    Everything is checked by :class:`~duelclub.games.artania.position_model.ArtaniaPosition`; raises
    ValueError (``PositionError``) naming the offending key and problem for anything malformed or unreachable
    (a seat's cards not being its 33, a slot filled before its step, an empty-hand window actor not passed,
    ``known`` listing a warrior, five tokens in a running game, …).
    """
    m = parse(ArtaniaPosition, position, "artania")
    s = State.__new__(State)
    s.stream = Stream.at(bytes.fromhex(m.stream.key), m.stream.position)
    s.seat_decks = (DECKS.index(m.sides[0]), DECKS.index(m.sides[1]))
    s.turn, s.first = m.turn, m.first
    s.step = OVER if m.step == "over" else STEPS.index(m.step)
    s.actor = -1 if m.actor is None else m.actor
    s.passes = m.passes
    s.tokens = list(m.tokens)
    s.hands = [_mask(h) for h in m.hands]
    s.known = [_mask(h) for h in m.known]
    s.no_warrior = list(m.no_warrior)
    s.decks = [[INDEX[c] for c in d] for d in m.decks]
    s.discards = [[INDEX[c] for c in d] for d in m.discards]
    s.slots = [[INDEX[c] if c in INDEX else _SLOT_CODES[c] for c in row] for row in m.slots]
    s.nektar = [[sum(1 << o for o in owners) for owners in row] for row in m.nektar]
    s.plays = [dict(p) for p in m.plays]
    s.results = [dict(r) for r in m.results]
    s.outcome = None if m.outcome is None else Outcome(m.outcome.winner, m.outcome.reason)
    return s


def _mask(ids: list[str]) -> int:
    m = 0
    for c in ids:
        m |= 1 << INDEX[c]
    return m
