"""The versioned Артания и Куявия position format (docs/positions/artania.md).

``to_position`` / ``from_position``:

``from_position(to_position(s))`` rebuilds ``s`` exactly, stream included (``Stream.at(key, position)``).
``from_position`` raises ValueError on anything malformed or inconsistent (a seat's cards not being exactly
its 33, a slot filled before its step, Нектар on a special, a known card not in hand, …).
"""

from __future__ import annotations

from typing import Any

from duelclub.games.artania.cards import CLASS_OF, DECKS, IDS, INDEX, IS_WARRIOR, mask_ids
from duelclub.games.artania.state import OVER, PENDING, SLOT_STATES, STEPS, State
from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream

VERSION = 1
JSON = dict[str, Any]
_REASONS = ("five_tokens", "deck_exhausted", "resign")
_SLOT_CODES = {name: code for code, name in SLOT_STATES.items()}
# The step at which each slot is filled: [F slots, S slots] (rules/artania.md §A turn).
FILL_STEP = ((1, 5, 5), (3, 3, 7))


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


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"bad artania position: {what}")


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    _need(type(v) is int and lo <= v <= hi, f"{what} must be an integer in {lo}..{hi}")
    return int(v)


def _bool(v: Any, what: str) -> bool:
    _need(isinstance(v, bool), f"{what} must be a boolean")
    return bool(v)


def _pair(v: Any, what: str) -> list[Any]:
    _need(isinstance(v, list) and len(v) == 2, f"{what} must be a list of two")
    return list(v)


def _cards(ids: Any, what: str) -> list[int]:
    _need(isinstance(ids, list), f"{what} must be a list")
    out = []
    for c in ids:
        _need(isinstance(c, str) and c in INDEX, f"{what}: {c!r} is not a card id")
        out.append(INDEX[c])
    return out


def _mask(ids: Any, what: str) -> int:
    m = 0
    for c in _cards(ids, what):
        _need(not m >> c & 1, f"{what}: {IDS[c]!r} twice")
        m |= 1 << c
    return m


def from_position(position: Any) -> State:
    """Rebuild a state from :func:`to_position` output; ValueError if malformed or inconsistent."""
    try:
        return _from_position(position)
    except ValueError:
        raise
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"bad artania position: {exc!r}") from None


def _from_position(pos: Any) -> State:
    _need(isinstance(pos, dict) and pos.get("game") == "artania", "game must be 'artania'")
    _need(pos.get("version") == VERSION, f"unsupported version {pos.get('version')!r}")
    s = State.__new__(State)
    key = bytes.fromhex(pos["stream"]["key"])
    _need(len(key) == 32, "stream key must be 32 bytes")
    s.stream = Stream.at(key, _int(pos["stream"]["position"], "stream position", 0, 10**9))
    sides = _pair(pos["sides"], "sides")
    _need(sorted(sides) == sorted(DECKS), "sides must be artania and kuyavia")
    s.seat_decks = (DECKS.index(sides[0]), DECKS.index(sides[1]))
    s.turn = _int(pos["turn"], "turn", 1, 100)
    s.first = _int(pos["first"], "first", 0, 1)
    step = pos["step"]
    _need(step == "over" or step in STEPS, "step must be W0…W4, P1…P4 or over")
    s.step = OVER if step == "over" else STEPS.index(step)
    window = s.step != OVER and s.step % 2 == 0
    s.actor = _int(pos["actor"], "actor", 0, 1) if window else -1
    s.passes = _int(pos["passes"], "passes", 0, 1) if window else 0
    s.tokens = [_int(t, "tokens", 0, 5) for t in _pair(pos["tokens"], "tokens")]
    s.hands = [_mask(h, "hand") for h in _pair(pos["hands"], "hands")]
    s.known = [_mask(h, "known") for h in _pair(pos["known"], "known")]
    s.no_warrior = [_bool(b, "no_warrior") for b in _pair(pos["no_warrior"], "no_warrior")]
    s.decks = [_cards(d, "deck") for d in _pair(pos["decks"], "decks")]
    s.discards = [_cards(d, "discard") for d in _pair(pos["discards"], "discards")]
    s.slots = [[_slot(c) for c in _row(r, "slots")] for r in _pair(pos["slots"], "slots")]
    s.nektar = [[_owners(o) for o in _row(r, "nektar")] for r in _pair(pos["nektar"], "nektar")]
    _need(isinstance(pos["plays"], list) and all(isinstance(p, dict) for p in pos["plays"]), "plays")
    s.plays = [dict(p) for p in pos["plays"]]
    _need(isinstance(pos["results"], list) and all(isinstance(r, dict) for r in pos["results"]), "results")
    s.results = list(pos["results"])
    out = pos["outcome"]
    s.outcome = None if out is None else Outcome(out["winner"], out["reason"])
    _check_consistency(s)
    return s


def _row(v: Any, what: str) -> list[Any]:
    _need(isinstance(v, list) and len(v) == 3, f"{what} rows must have 3 entries")
    return list(v)


def _slot(v: Any) -> int:
    if v in _SLOT_CODES:
        return _SLOT_CODES[v]
    _need(isinstance(v, str) and v in INDEX and IS_WARRIOR[INDEX[v]], f"slot {v!r} must hold a warrior")
    return INDEX[v]


def _owners(v: Any) -> int:
    _need(isinstance(v, list) and all(o in (0, 1) for o in v) and len(set(v)) == len(v), "nektar owners")
    return sum(1 << o for o in v)


def _check_consistency(s: State) -> None:
    over = s.step == OVER
    _need(over == (s.outcome is not None), "outcome must be set exactly when the step is over")
    if s.outcome is not None:
        _need(s.outcome.winner in (None, 0, 1) and s.outcome.reason in _REASONS, "outcome")
    for seat in (0, 1):
        _need(s.known[seat] & ~s.hands[seat] == 0, f"seat {seat}'s known cards must be in its hand")
        have = [c for c in range(len(IDS)) if s.hands[seat] >> c & 1]
        have += s.decks[seat] + s.discards[seat] + [c for c in s.slots[seat] if c >= 0]
        _need(sorted(have) == list(range(len(IDS))), f"seat {seat}'s cards must be exactly its 33 cards")
        role = 0 if seat == s.first else 1
        for k in range(3):
            c, nek = s.slots[seat][k], s.nektar[seat][k]
            if not over:
                _need(
                    (c == PENDING) == (FILL_STEP[role][k] >= s.step), f"slot {k + 1} of seat {seat} vs step"
                )
            _need(nek == 0 or (c >= 0 and CLASS_OF[c] >= 0), "Нектар only on a class warrior")
            for o in (0, 1):
                if nek >> o & 1:
                    _need(
                        s.discards[o].count(INDEX["nektar"]) == 1, "a Нектар on the field must be discarded"
                    )
    if not over and s.step % 2 == 0:
        _need(s.actor in (0, 1) and s.passes in (0, 1), "window actor and passes")
