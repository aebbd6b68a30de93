"""The versioned Дві вежі position format (docs/positions/towers.md): ``to_position`` / ``from_position``.

``from_position(to_position(s))`` rebuilds ``s`` exactly, stream included (``Stream.at(key, position)``).
``from_position`` raises ValueError on anything malformed or inconsistent (a normal deck whose cards are not
1..102 exactly once, a wrong hand size for the phase, a pile card outside ``pool``, …).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream
from duelclub.games.towers.battlefields import BATTLEFIELD_IDS, BATTLEFIELDS
from duelclub.games.towers.cards import HAND_SIZE, N_CARDS
from duelclub.games.towers.dsl import ATTRS
from duelclub.games.towers.state import FORCED, OVER, PHASES, TAGS, State, history_list

VERSION = 1
JSON = dict[str, Any]
_REASONS = ("destruction", "tower", "resource", "timeout", "resign", "draw", "turn_limit")


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


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"bad towers position: {what}")


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    _need(type(v) is int and lo <= v <= hi, f"{what} must be an integer in {lo}..{hi}")
    return int(v)


def _cards(v: Any, what: str) -> list[int]:
    _need(isinstance(v, list), f"{what} must be a list")
    return [_int(c, f"{what} card", 1, N_CARDS) for c in v]


def _pair(v: Any, what: str) -> list[Any]:
    _need(isinstance(v, list) and len(v) == 2, f"{what} must be a list of two")
    return list(v)


def _tag(v: Any) -> int:
    _need(v in TAGS, f"unknown tag {v!r}")
    return TAGS.index(v)


def from_position(pos: Any) -> State:
    """Rebuild a state from :func:`to_position` output; ValueError if malformed or inconsistent."""
    try:
        return _from_position(pos)
    except ValueError:
        raise
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"bad towers position: {exc!r}") from None


def _from_position(pos: Any) -> State:
    _need(isinstance(pos, dict) and pos.get("game") == "towers", "game must be 'towers'")
    _need(pos.get("version") == VERSION, f"unsupported version {pos.get('version')!r}")
    s = State.__new__(State)
    key = bytes.fromhex(pos["stream"]["key"])
    _need(len(key) == 32, "stream key must be 32 bytes")
    s.stream = Stream.at(key, _int(pos["stream"]["position"], "stream position", 0, 10**9))
    _need(pos["battlefield"] in BATTLEFIELD_IDS, "unknown battlefield")
    s.field = BATTLEFIELD_IDS.index(pos["battlefield"])
    _need(pos["deck"] in ("normal", "infinite"), "deck must be normal or infinite")
    s.infinite = pos["deck"] == "infinite"
    s.p = []
    for raw in _pair(pos["players"], "players"):
        _need(isinstance(raw, dict) and sorted(raw) == sorted(ATTRS), "a player needs the eight counters")
        s.p.append([_int(raw[a], a, 0, 10**9) for a in ATTRS])
    s.hands = [_cards(h, "hand") for h in _pair(pos["hands"], "hands")]
    if s.infinite:
        _need(
            pos["pile"] is None and pos["discard"] is None and pos["pool"] is None,
            "infinite deck has no piles",
        )
        s.pile, s.discard, s.pool = [], [], 0
    else:
        s.pile = _cards(pos["pile"], "pile")[::-1]
        s.discard = _cards(pos["discard"], "discard")
        s.pool = sum(1 << c for c in set(_cards(pos["pool"], "pool")))
    s.active = _int(pos["active"], "active", 0, 1)
    s.turn = _int(pos["turn"], "turn", 1, 500)
    _need(pos["phase"] in PHASES, "unknown phase")
    s.phase = PHASES.index(pos["phase"])
    _need(isinstance(pos["again"], bool), "again must be a boolean")
    s.again = pos["again"]
    s.timeouts = [_int(t, "timeouts", 0, 3) for t in _pair(pos["timeouts"], "timeouts")]
    s.last = [
        [(_int(e[0], "last card", 1, N_CARDS), _tag(e[1])) for e in lst] for lst in _pair(pos["last"], "last")
    ]
    s.history = None
    _need(isinstance(pos["history"], list), "history must be a list")
    for e in pos["history"]:
        s.history = (
            _int(e[0], "history seat", 0, 1),
            _int(e[1], "history card", 1, N_CARDS),
            _tag(e[2]),
            s.history,
        )
    out = pos["outcome"]
    s.outcome = None if out is None else Outcome(out["winner"], out["reason"])
    _check(s)
    return s


def _check(s: State) -> None:
    _need((s.phase == OVER) == (s.outcome is not None), "outcome must be set exactly when the phase is over")
    if s.outcome is not None:
        _need(s.outcome.winner in (None, 0, 1) and s.outcome.reason in _REASONS, "outcome")
    for seat in (0, 1):
        # A hand holds 6 at every decision point, also at the forced discard (play -1, draw +1; see
        # docs/positions/towers.md); a match that ended on a played card was not refilled (5).
        n = len(s.hands[seat])
        _need(n == HAND_SIZE or (s.phase == OVER and n == HAND_SIZE - 1), f"seat {seat}: bad hand size {n}")
    # A match may end (resignation, timeout) during a forced discard, its «play again» still pending.
    _need(s.phase in (FORCED, OVER) or not s.again, "again is only pending at a forced discard")
    if not s.infinite:
        every = Counter(s.hands[0] + s.hands[1] + s.pile + s.discard)
        _need(sorted(every) == list(range(1, N_CARDS + 1)) and max(every.values()) == 1,
              "the normal deck must hold each card 1..102 exactly once")  # fmt: skip
        _need(all(s.pool >> c & 1 for c in s.pile), "every pile card must be in pool")
