"""The versioned Межа position format (docs/positions.md §mezha): ``to_position`` / ``from_position``.

``from_position(to_position(s))`` rebuilds ``s`` exactly, stream included (``Stream.at(key, position)``).
``from_position`` validates with the declared model (``position_model.MezhaPosition``) and raises ValueError
on anything malformed or unreachable (wrong house cards, a seat's cards not adding up to its 20-card deck, a
decided match still in play, a non-корни carried unit, a seat on turn with no legal play, …).
"""

from __future__ import annotations

from typing import Any

from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream
from duelclub.games.mezha.cards import CARD_INDEX, CARDS, HOUSES, IDS, OMEN_IDS, OMEN_INDEX
from duelclub.games.mezha.position_model import VERSION, MezhaPosition, UnitModel
from duelclub.games.mezha.state import PHASES, SEASON, State, Unit, hand_bits, refresh_room, result_copy
from duelclub.games.mezha.view import hand_ids
from duelclub.games.position_model import fail, parse

JSON = dict[str, Any]


def _unit_json(u: Unit) -> JSON:
    return {
        "card": IDS[u.kind],
        "strength": u.strength,
        "shield": u.shield,
        "placement": u.placement,
        "face_down": u.face_down,
        "season": u.season,
        "thaw": u.thaw,
        "rosa": u.rosa,
        "opps": u.opps,
    }


def to_position(state: State) -> JSON:
    """The complete position as JSON (version 1)."""
    return {
        "game": "mezha",
        "version": VERSION,
        "stream": {"key": state.stream.key.hex(), "position": state.stream.position},
        "houses": [HOUSES[h] for h in state.houses],
        "omens": [OMEN_IDS[o] for o in state.omens],
        "season": state.season,
        "phase": PHASES[state.phase],
        "starter": state.starter,
        "turn": state.turn if state.phase == SEASON else None,
        "passed": state.passed[:],
        "auto_passed": state.auto[:],
        "thaw_used": [state.thaw_used[0][:], state.thaw_used[1][:]],
        "placements": state.placements,
        "hands": [hand_ids(state.hands[0]), hand_ids(state.hands[1])],
        "decks": [[IDS[k] for k in d] for d in state.decks],
        "discards": [[IDS[k] for k in d] for d in state.discards],
        "fields": [[[_unit_json(u) for u in half] for half in field] for field in state.halves],
        "results": [result_copy(r) for r in state.results],
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def from_position(position: Any) -> State:
    """Rebuild a state from :func:`to_position` output.

    Validates with :class:`~duelclub.games.mezha.position_model.MezhaPosition`, then checks what needs the
    rebuilt state: the seat on turn must have a legal play, else the engine would have passed for it (§A
    season — Passing, D1, D11). Raises ValueError (``PositionError``) naming the offending key and problem.
    """
    m = parse(MezhaPosition, position, "mezha")
    s = State.__new__(State)
    s.stream = Stream.at(bytes.fromhex(m.stream.key), m.stream.position)
    s.houses = (HOUSES.index(m.houses[0]), HOUSES.index(m.houses[1]))
    s.omens = [OMEN_INDEX[o] for o in m.omens]
    s.season = m.season
    s.phase = PHASES.index(m.phase)
    s.starter = m.starter
    s.turn = -1 if m.turn is None else m.turn
    s.passed = list(m.passed)
    s.auto = list(m.auto_passed)
    s.thaw_used = [list(m.thaw_used[0]), list(m.thaw_used[1])]
    s.placements = m.placements
    s.hands = [[0] * len(CARDS), [0] * len(CARDS)]
    for seat in (0, 1):
        for c in m.hands[seat]:
            s.hands[seat][CARD_INDEX[c]] += 1
    s.in_hand = [hand_bits(s.hands[0]), hand_bits(s.hands[1])]
    s.decks = [[CARD_INDEX[c] for c in d] for d in m.decks]
    s.discards = [[CARD_INDEX[c] for c in d] for d in m.discards]
    s.halves = [[[_unit(u) for u in half] for half in field] for field in m.fields]
    refresh_room(s)
    s.results = [r.model_dump() for r in m.results]
    s.wins = [sum(1 for r in m.results if r.winner == seat) for seat in (0, 1)]
    s.outcome = None if m.outcome is None else Outcome(m.outcome.winner, m.outcome.reason)
    if s.phase == SEASON and not s.has_legal_play(s.turn):
        raise fail(
            "mezha", f"seat {s.turn} is on turn with no legal play; the engine passes for it (D1, D11)"
        )
    return s


def _unit(m: UnitModel) -> Unit:
    u = Unit(CARD_INDEX[m.card], m.placement, m.face_down, m.season)
    u.strength, u.shield, u.thaw, u.rosa, u.opps = m.strength, m.shield, m.thaw, m.rosa, m.opps
    return u
