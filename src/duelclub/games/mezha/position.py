"""The versioned Межа position format (docs/positions.md §mezha): ``to_position`` / ``from_position``.

``from_position(to_position(s))`` rebuilds ``s`` exactly, stream included (``Stream.at(key, position)``).
``from_position`` raises ValueError on anything malformed or inconsistent (wrong house cards, a seat's cards
not adding up to its 20-card deck, bad phase/turn, …).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream
from duelclub.games.mezha.cards import (
    CARD_INDEX,
    CARDS,
    HAS_SHIELD,
    HIDDEN,
    HOUSE_KINDS,
    HOUSES,
    IDS,
    OMEN_IDS,
    OMEN_INDEX,
)
from duelclub.games.mezha.state import OVER, PHASES, SEASON, State, Unit, result_copy
from duelclub.games.mezha.view import hand_ids

VERSION = 1
JSON = dict[str, Any]
_OUTCOME_REASONS = ("two_seasons", "more_seasons", "draw", "resign")


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


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"bad mezha position: {what}")


def _bool(v: Any, what: str) -> bool:
    _need(isinstance(v, bool), f"{what} must be a boolean")
    return bool(v)


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    _need(type(v) is int and lo <= v <= hi, f"{what} must be an integer in {lo}..{hi}")
    return int(v)


def _kinds(ids: Any, house: int, what: str) -> list[int]:
    _need(isinstance(ids, list), f"{what} must be a list")
    out = []
    for c in ids:
        k = CARD_INDEX.get(c, -1) if isinstance(c, str) else -1
        _need(k in HOUSE_KINDS[house], f"{what}: {c!r} is not a card of house {HOUSES[house]}")
        out.append(k)
    return out


def _unit(raw: Any, house: int, season: int) -> Unit:
    _need(isinstance(raw, dict), "a unit must be an object")
    [kind] = _kinds([raw.get("card")], house, "unit")
    _need(not CARDS[kind].is_tactic, "a tactic cannot be on a field")
    u = Unit(kind, _int(raw.get("placement"), "placement", 1, 10**6), False, season)
    u.strength = _int(raw.get("strength"), "strength", 1, 10**6)
    u.shield = _bool(raw.get("shield"), "shield")
    _need(HAS_SHIELD[kind] or not u.shield, "only щит units have a shield")
    u.face_down = _bool(raw.get("face_down"), "face_down")
    _need(HIDDEN[kind] or not u.face_down, "only тайник units can be face down")
    u.season = _int(raw.get("season"), "unit season", 1, season)
    u.thaw = _bool(raw.get("thaw", False), "thaw")
    u.rosa = _int(raw.get("rosa", 0), "rosa", 0, 100)
    u.opps = _int(raw.get("opps", 0), "opps", 0, 100)
    return u


def _pair(v: Any, what: str) -> list[Any]:
    _need(isinstance(v, list) and len(v) == 2, f"{what} must be a list of two")
    return list(v)


def from_position(pos: Any) -> State:
    """Rebuild a state from :func:`to_position` output; ValueError if malformed or inconsistent."""
    try:
        return _from_position(pos)
    except ValueError:
        raise
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"bad mezha position: {exc!r}") from None


def _from_position(pos: Any) -> State:
    _need(isinstance(pos, dict) and pos.get("game") == "mezha", "game must be 'mezha'")
    _need(pos.get("version") == VERSION, f"unsupported version {pos.get('version')!r}")
    s = State.__new__(State)
    key = bytes.fromhex(pos["stream"]["key"])
    _need(len(key) == 32, "stream key must be 32 bytes")
    s.stream = Stream.at(key, _int(pos["stream"]["position"], "stream position", 0, 10**9))
    houses = [HOUSES.index(h) if h in HOUSES else -1 for h in _pair(pos["houses"], "houses")]
    _need(sorted(houses) == [0, 1], "houses must be olkha and gorn")
    s.houses = (houses[0], houses[1])
    omens = pos["omens"]
    _need(isinstance(omens, list) and sorted(omens) == sorted(OMEN_IDS), "omens must be the four omens")
    s.omens = [OMEN_INDEX[o] for o in omens]
    s.season = _int(pos["season"], "season", 1, 3)
    _need(pos["phase"] in PHASES, "phase")
    s.phase = PHASES.index(pos["phase"])
    s.starter = _int(pos["starter"], "starter", 0, 1)
    s.turn = _int(pos["turn"], "turn", 0, 1) if s.phase == SEASON else -1
    s.passed = [_bool(b, "passed") for b in _pair(pos["passed"], "passed")]
    s.auto = [_bool(b, "auto_passed") for b in _pair(pos["auto_passed"], "auto_passed")]
    s.thaw_used = [[_bool(b, "thaw_used") for b in row] for row in _pair(pos["thaw_used"], "thaw_used")]
    _need(all(len(r) == 3 for r in s.thaw_used), "thaw_used rows must have 3 entries")
    s.placements = _int(pos["placements"], "placements", 0, 10**6)
    s.hands = [[0] * len(CARDS), [0] * len(CARDS)]
    for seat, ids in enumerate(_pair(pos["hands"], "hands")):
        for k in _kinds(ids, s.houses[seat], "hand"):
            s.hands[seat][k] += 1
    s.decks = [_kinds(d, s.houses[i], "deck") for i, d in enumerate(_pair(pos["decks"], "decks"))]
    s.discards = [_kinds(d, s.houses[i], "discard") for i, d in enumerate(_pair(pos["discards"], "discards"))]
    fields = pos["fields"]
    _need(isinstance(fields, list) and len(fields) == 3, "fields must be a list of three")
    s.halves = [
        [[_unit(u, s.houses[seat], s.season) for u in half] for seat, half in enumerate(_pair(f, "field"))]
        for f in fields
    ]
    _need(isinstance(pos["results"], list), "results must be a list")
    _need(all(isinstance(r, dict) for r in pos["results"]), "a result must be an object")
    s.results = [result_copy(r) for r in pos["results"]]
    s.wins = [sum(1 for r in s.results if r.get("winner") == seat) for seat in (0, 1)]
    out = pos["outcome"]
    s.outcome = None if out is None else Outcome(out["winner"], out["reason"])
    _check_consistency(s)
    return s


def _check_consistency(s: State) -> None:
    _need((s.phase == OVER) == (s.outcome is not None), "outcome must be set exactly when the phase is over")
    if s.outcome is not None:
        _need(s.outcome.winner in (None, 0, 1) and s.outcome.reason in _OUTCOME_REASONS, "outcome")
    _need(len(s.results) <= s.season, "more results than seasons")
    if s.phase == SEASON:
        _need(len(s.results) == s.season - 1, "a season in play must follow season - 1 results")
        _need(not s.passed[s.turn], "the seat on turn has passed")
    units = [u for field in s.halves for half in field for u in half]
    placements = [u.placement for u in units]
    _need(len(set(placements)) == len(placements), "placement numbers must be distinct")
    _need(all(p <= s.placements for p in placements), "a unit's placement exceeds the counter")
    cap = s.capacity()
    for field in s.halves:
        for half in field:
            _need(
                len(half) <= max(cap, sum(1 for u in half if u.season < s.season)), "a half is over capacity"
            )
    for seat in (0, 1):
        have: Counter[int] = Counter()
        have.update({k: n for k, n in enumerate(s.hands[seat]) if n})
        have.update(s.decks[seat])
        have.update(s.discards[seat])
        have.update(u.kind for field in s.halves for u in field[seat])
        want = {k: CARDS[k].copies for k in HOUSE_KINDS[s.houses[seat]]}
        _need(dict(have) == want, f"seat {seat}'s cards must be exactly its house's 20 cards")
