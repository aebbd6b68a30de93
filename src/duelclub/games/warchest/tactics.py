"""Unit tactics (§8, §11.1, §12): one option generator and one executor per unit type.

``options(s, h)`` lists every legal tactic action of the unit on ``h`` (the coin is its own type; the
Royal Guard's tactic is paid with the Royal coin, ``royal_guard_options``). ``execute(s, a, ev)``
carries a chosen tactic out; follow-ups (Footman's second maneuver, Bishop's part 2, Earl's decree)
are continuation tasks pushed *before* the step that may raise a trigger (G3, D35).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from duelclub.games.warchest import effects as fx
from duelclub.games.warchest.actions import Action, ActionTable, act
from duelclub.games.warchest.board import IS_LOCATION, LINE2, N_HEXES, NEIGH, RING2, STEP, WITHIN2
from duelclub.games.warchest.events import BolsterEvent, Events, TacticEvent
from duelclub.games.warchest.queries import (
    attack_targets,
    exact2,
    hittable,
    own_units,
    reach12,
    saboteur_targets,
    steps1,
)
from duelclub.games.warchest.state import State, take
from duelclub.games.warchest.units import ASSASSIN_SEAL, SABOTEUR_SEAL

Options = Callable[[State, int], list[Action]]

TACTIC = ActionTable(
    lambda name, h, to, target, ally, maneuver, type_: act(
        "tactic", name, h, to=to, target=target, ally=ally, maneuver=maneuver, type=type_
    )
)
"""``TACTIC[coin, unit, to, target, ally, maneuver, type]``: the tactic actions (``act``'s instances)."""


def _per_hex(name: str, *fields: str) -> tuple[ActionTable, ...]:
    """``T[h][x]`` (one field) or ``T[h][x, y, …]`` (several, in ``fields`` order): the ``name`` tactic
    actions of the unit on hex ``h`` (``act``'s instances), keyed by their other fields."""

    def make(h: int, *values: Any) -> Action:
        f = dict(zip(fields, values, strict=True))
        get = f.get
        return act("tactic", name, h, get("to"), get("target"), get("ally"), get("maneuver"), get("type"))

    return tuple(ActionTable(partial(make, h)) for h in range(N_HEXES))


ARCHER = _per_hex("archer", "target")
CAVALRY = _per_hex("cavalry", "to", "target")
CROSSBOWMAN = _per_hex("crossbowman", "target")
ENSIGN = _per_hex("ensign", "to", "ally")
FOOTMAN = _per_hex("footman", "to", "target", "maneuver")
LANCER = _per_hex("lancer", "to", "target")
LIGHT_CAVALRY = _per_hex("light_cavalry", "to")
MARSHAL = _per_hex("marshal", "target", "ally")
ROYAL_GUARD = _per_hex("royal", "to")
BISHOP = _per_hex("bishop", "type")
HERALD = _per_hex("herald", "ally")
INFILTRATOR = _per_hex("infiltrator", "to")
SKIRMISHER = _per_hex("skirmisher", "to")
ASSASSIN = _per_hex("assassin", "to", "target")
SABOTEUR = _per_hex("saboteur", "target")
WITHIN2_SET: tuple[frozenset[int], ...] = tuple(frozenset(w) for w in WITHIN2)


def archer(s: State, h: int) -> list[Action]:
    """§8.1: attack an enemy at distance exactly 2 (anything in between)."""
    u = s.units[h]
    foes = hittable(s, u.owner, u.height)
    return [ARCHER[h][t] for t in RING2[h] if t in foes]


def cavalry(s: State, h: int) -> list[Action]:
    """§8.3: one step, then a normal attack from the new hex."""
    u = s.units[h]
    if u.poison:
        return []
    units, table = s.units, CAVALRY[h]
    foes = hittable(s, u.owner, u.height)
    if not foes:
        return []
    out = []
    for d in NEIGH[h]:  # steps1
        if d not in units:
            for t in NEIGH[d]:
                if t in foes and t != h:
                    out.append(table[d, t])
    return out


def crossbowman(s: State, h: int) -> list[Action]:
    """§8.4: attack at distance 2 in a straight line, the middle hex empty."""
    u = s.units[h]
    units, foes = s.units, hittable(s, u.owner, u.height)
    return [CROSSBOWMAN[h][t] for t, mid in LINE2[h] if t in foes and mid not in units]


def ensign(s: State, h: int) -> list[Action]:
    """§8.5: another friendly unit within 2 steps to an empty hex still within 2 of the Ensign (D11)."""
    units = s.units
    within, table = WITHIN2_SET[h], ENSIGN[h]
    out = []
    for a in _friends_within2(s, h):
        for d in NEIGH[a]:  # steps1
            if d in within and d not in units:
                out.append(table[d, a])
    return out


def _friends_within2(s: State, h: int) -> list[int]:
    """The hexes of the friendly units at distance 1–2 from the unit on ``h``, ascending (as ``WITHIN2``)."""
    within, side = WITHIN2_SET[h], s.units[h].owner
    out = [a for a, v in s.units.items() if v.owner == side and a in within]
    if len(out) > 1:
        out.sort()
    return out


def footman(s: State, h: int) -> list[Action]:
    """§8.6: this Footman (the first one) performs a basic maneuver; the other follows (``footman_next``)."""
    u = s.units[h]  # queries.basic_maneuvers, as tactic actions
    units = s.units
    out = [] if u.poison else [FOOTMAN[h][d, None, "move"] for d in NEIGH[h] if d not in units]
    if IS_LOCATION[h] and s.control[h] != u.owner:
        out.append(FOOTMAN[h][None, None, "control"])
    out += [FOOTMAN[h][None, t, "attack"] for t in attack_targets(s, h)]
    return out


def lancer(s: State, h: int) -> list[Action]:
    """§8.8 (D14): 1–2 steps in one direction, then attack the next hex in that direction."""
    u = s.units[h]
    if u.poison:
        return []
    units, table = s.units, LANCER[h]
    foes = hittable(s, u.owner, u.height)
    if not foes:
        return []
    out = []
    for d in range(6):
        cur = h
        for _ in range(2):
            nxt = STEP[cur][d]
            if nxt < 0 or nxt in units:
                break
            cur = nxt
            t = STEP[cur][d]
            if t in foes:  # -1 (off the board) never is
                out.append(table[cur, t])
    return out


def light_cavalry(s: State, h: int) -> list[Action]:
    """§8.9 (D15): exactly two steps, not back to the start hex."""
    if s.units[h].poison:
        return []
    return [LIGHT_CAVALRY[h][d] for d in exact2(s, h)]


def marshal(s: State, h: int) -> list[Action]:
    """§8.10 (D11, D12): another friendly unit within 2 makes a normal attack."""
    table = MARSHAL[h]
    out: list[Action] = []
    for a in _friends_within2(s, h):
        out += [table[t, a] for t in attack_targets(s, a)]
    return out


def royal_guard_options(s: State, side: int) -> list[Action]:
    """§8.13 (D18): Royal coin; the Guard moves 1–2 steps onto an empty location it controls."""
    out = []
    for h in sorted(h for h, u in s.units.items() if u.type == "royal_guard" and u.owner == side):
        if s.units[h].poison:
            continue
        for d in reach12(s, h):
            if IS_LOCATION[d] and s.control[d] == side:
                out.append(ROYAL_GUARD[h][d])
    return out


def bishop(s: State, h: int) -> list[Action]:
    """§11.1 (D24): recruit, then step or attack — both parts must be possible now."""
    u = s.units[h]
    p = s.sides[u.owner]
    if not p.supply:
        return []
    if not ((not u.poison and steps1(s, h)) or attack_targets(s, h)):
        return []
    return [BISHOP[h][t] for t in p.types if p.supply.get(t)]


def earl(s: State, h: int) -> list[Action]:
    """§11.1 (D22): the Earl stands on a location its side does not control."""
    u = s.units[h]
    return (
        [TACTIC["earl", h, None, None, None, None, None]]
        if IS_LOCATION[h] and s.control[h] != u.owner
        else []
    )


def herald(s: State, h: int) -> list[Action]:
    """§11.1 (D23): bolster an adjacent 1-coin friendly unit from the supply of its type."""
    side = s.units[h].owner
    p = s.sides[side]
    out = []
    for a in NEIGH[h]:
        v = s.units.get(a)
        if v is not None and v.owner == side and v.height == 1 and p.supply.get(v.type):
            out.append(HERALD[h][a])
    return out


def infiltrator(s: State, h: int) -> list[Action]:
    """§12.3: step into an adjacent empty enemy-controlled location and take it."""
    u = s.units[h]
    if u.poison:
        return []
    enemy = 1 - u.owner
    return [INFILTRATOR[h][d] for d in steps1(s, h) if IS_LOCATION[d] and s.control[d] == enemy]


def skirmisher(s: State, h: int) -> list[Action]:
    """§12.4: 1–2 steps through empty hexes, ending adjacent to an enemy unit."""
    u = s.units[h]
    if u.poison:
        return []
    units, owner, table = s.units, u.owner, SKIRMISHER[h]
    out = []
    for d in reach12(s, h):
        for n in NEIGH[d]:
            v = units.get(n)
            if v is not None and v.owner != owner and n != h:
                out.append(table[d])
                break
    return out


def assassin(s: State, h: int) -> list[Action]:
    """§12.5: one step, then poison an adjacent enemy not carrying the Assassin's seal."""
    u = s.units[h]
    if u.poison:
        return []
    out = []
    for d in steps1(s, h):
        for t in NEIGH[d]:
            v = s.units.get(t)
            if t != h and v is not None and v.owner != u.owner and not v.poison & ASSASSIN_SEAL:
                out.append(ASSASSIN[h][d, t])
    return out


def saboteur(s: State, h: int) -> list[Action]:
    """§12.6 (D29): poison an enemy at distance 1, or 2 in a straight line."""
    return [SABOTEUR[h][t] for t in saboteur_targets(s, h)]


OPTIONS: dict[str, Options] = {
    "archer": archer,
    "cavalry": cavalry,
    "crossbowman": crossbowman,
    "ensign": ensign,
    "footman": footman,
    "lancer": lancer,
    "light_cavalry": light_cavalry,
    "marshal": marshal,
    "bishop": bishop,
    "earl": earl,
    "herald": herald,
    "infiltrator": infiltrator,
    "skirmisher": skirmisher,
    "assassin": assassin,
    "saboteur": saboteur,
}


def options(s: State, h: int) -> list[Action]:
    """All tactic actions of the unit on ``h`` paid with its own coin (none for units without one)."""
    f = OPTIONS.get(s.units[h].type)
    return f(s, h) if f else []


def do_basic(s: State, h: int, a: Action, ev: Events) -> None:
    """Perform the basic maneuver ``a`` (move/control/attack) with the unit on ``h`` (after_man pushed)."""
    u = s.units[h]
    s.stack.append(("after_man", u.uid))
    if a.kind == "move" or a.maneuver == "move":
        assert a.to is not None
        fx.move(s, h, a.to, ev)
    elif a.kind == "control" or a.maneuver == "control":
        fx.control(s, u.uid, h, ev)
    else:
        assert a.target is not None
        fx.attack(s, h, a.target, ev)


def execute(s: State, a: Action, ev: Events) -> None:
    """Carry out a tactic action (its coin is already in the discard)."""
    h = a.unit
    assert h is not None
    u = s.units[h]
    t = u.type if a.coin != "royal" else "royal_guard"
    seat = s.seat_of(u.owner)
    _tactic_event: TacticEvent = {"kind": "tactic", "seat": seat, "side": u.owner, "unit": h, "type": t}
    ev.append(_tactic_event)
    if t in ("archer", "crossbowman"):
        assert a.target is not None
        fx.attack(s, h, a.target, ev)
    elif t in ("cavalry", "lancer"):
        assert a.to is not None and a.target is not None
        fx.move(s, h, a.to, ev)
        fx.attack(s, a.to, a.target, ev)
    elif t in ("light_cavalry", "skirmisher", "royal_guard"):
        assert a.to is not None
        fx.move(s, h, a.to, ev)
    elif t == "ensign":
        assert a.ally is not None and a.to is not None
        s.stack.append(("after_man", s.units[a.ally].uid))  # G4: a maneuver of the moved unit
        fx.move(s, a.ally, a.to, ev)
    elif t == "marshal":
        assert a.ally is not None and a.target is not None
        s.stack.append(("after_man", s.units[a.ally].uid))
        fx.attack(s, a.ally, a.target, ev)
    elif t == "footman":
        others = [f for f in own_units(s, u.owner, "footman") if f != h]
        if others:
            s.stack.append(("footman_next", s.units[others[0]].uid))
        do_basic(s, h, a, ev)
    elif t == "bishop":
        assert a.type is not None
        s.stack.append(("bishop_follow", u.uid))
        fx.recruit(s, u.owner, a.type, ev)
    elif t == "earl":
        s.stack.append(("earl_decree", u.owner))
        fx.control(s, u.uid, h, ev)
    elif t == "herald":
        assert a.ally is not None
        v = s.units[a.ally]
        take(s.sides[u.owner].supply, v.type)
        s.units[a.ally] = v._replace(height=v.height + 1)
        _bolster_event: BolsterEvent = {
            "kind": "bolster",
            "seat": seat,
            "side": u.owner,
            "unit": a.ally,
            "type": v.type,
            "how": "herald",
        }
        ev.append(_bolster_event)
    elif t == "infiltrator":
        assert a.to is not None
        fx.move(s, h, a.to, ev)
        fx.control(s, u.uid, a.to, ev)
    elif t == "assassin":
        assert a.to is not None and a.target is not None
        fx.move(s, h, a.to, ev)
        fx.poison(s, u.owner, ASSASSIN_SEAL, a.target, ev)
    elif t == "saboteur":
        assert a.target is not None
        fx.poison(s, u.owner, SABOTEUR_SEAL, a.target, ev)
    else:  # pragma: no cover - legal_actions never offers it
        raise AssertionError(t)
