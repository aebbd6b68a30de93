"""The versioned Сундук войны position format (docs/positions/warchest.md).

``from_position(to_position(s))`` rebuilds ``s`` exactly, stream included. ``from_position`` raises
ValueError on anything malformed (unknown coin kinds, hexes off the board, bad phase, …).
"""

from __future__ import annotations

from typing import Any

from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream
from duelclub.games.warchest.actions import ACTION_ADAPTER, Action
from duelclub.games.warchest.board import N_HEXES
from duelclub.games.warchest.state import DRAFT, OVER, PLAY, Pending, State, Unit
from duelclub.games.warchest.units import COIN_ORDER, DECREE_IDS, UNIT, UNIT_IDS

VERSION = 1
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


def _check(cond: bool, what: str) -> None:
    if not cond:
        raise ValueError(f"bad warchest position: {what}")


def _zone(raw: Any, allowed: tuple[str, ...] | set[str]) -> dict[str, int]:
    _check(isinstance(raw, dict), "zone must be an object")
    out = {}
    for c, n in raw.items():
        _check(c in allowed and isinstance(n, int) and n > 0, f"zone entry {c!r}: {n!r}")
        out[c] = n
    return out


def from_position(position: JSON) -> State:
    try:
        return _from(position)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"bad warchest position: {exc!r}") from None


def _from(pos: JSON) -> State:
    _check(pos.get("game") == "warchest" and pos.get("version") == VERSION, "game/version")
    st = pos["stream"]
    s = State(Stream.at(bytes.fromhex(st["key"]), int(st["position"])), bool(pos["nobility"]),
              bool(pos["nightfall"]), str(pos["draft_variant"]))  # fmt: skip
    _check(s.draft_variant in ("club", "eight", "random"), "draft_variant")
    s.wolf_seat = int(pos["wolf_seat"])
    _check(s.wolf_seat in (0, 1), "wolf_seat")
    s.phase = pos["phase"]
    _check(s.phase in (DRAFT, PLAY, OVER), "phase")
    s.draft_pool = [str(t) for t in pos["draft_pool"]]
    s.draft_order = [int(x) for x in pos["draft_order"]]
    _check(all(t in UNIT for t in s.draft_pool), "draft_pool")
    s.decrees = list(pos["decrees"])
    s.hidden_decrees = list(pos["hidden_decrees"])
    _check(all(d in DECREE_IDS for d in s.decrees + s.hidden_decrees), "decrees")
    s.sealed = (set(pos["sealed"][0]), set(pos["sealed"][1]))
    coins = tuple(COIN_ORDER)
    for p, raw in zip(s.sides, pos["sides"], strict=True):
        p.types = [str(t) for t in raw["types"]]
        _check(all(t in UNIT for t in p.types), "types")
        p.reserve = int(raw["reserve"])
        for z in _ZONES:
            allowed: tuple[str, ...] | set[str] = coins
            if z in ("supply", "elim"):
                allowed = UNIT_IDS
            elif z == "decoys":
                allowed = {"infiltrator", "skirmisher"}
            setattr(p, z, _zone(raw[z], allowed))
    s.control = [int(c) for c in pos["control"]]
    _check(len(s.control) == N_HEXES and all(c in (-1, 0, 1) for c in s.control), "control")
    for u in pos["units"]:
        h = int(u["hex"])
        _check(0 <= h < N_HEXES and h not in s.units and u["type"] in UNIT, "unit")
        s.units[h] = Unit(int(u["owner"]), str(u["type"]), int(u["height"]), int(u["poison"]), int(u["uid"]))
    s.initiative, s.changed = int(pos["initiative"]), bool(pos["changed"])
    s.round, s.turn = int(pos["round"]), int(pos["turn"])
    s.stack = [tuple(t) for t in pos["stack"]]
    pd = pos["pending"]
    if pd is not None:
        opts = tuple(ACTION_ADAPTER.validate_python(a) for a in pd["options"])
        _check(all(isinstance(a, Action) for a in opts), "pending options")
        s.pending = Pending(int(pd["owner"]), str(pd["kind"]), opts, bool(pd["optional"]),  # type: ignore[arg-type]
                            tuple(pd["data"]))  # fmt: skip
    out = pos["outcome"]
    s.outcome = None if out is None else Outcome(out["winner"], str(out["reason"]))
    s.uid = int(pos["uid"])
    return s
