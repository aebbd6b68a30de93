"""Royal decrees of Nobility (§11.2): the parameterised options of each decree and their effects.

``options(s, side, decree, coin)`` lists every concrete proclamation (``coin`` is ``"royal"`` for a
proclamation with the Royal coin, None for the Earl's, which ignores seals). An empty list means the
decree is not executable now (D21).
"""

from __future__ import annotations

from duelclub.games.warchest import effects as fx
from duelclub.games.warchest.actions import Action, ActionTable, act
from duelclub.games.warchest.board import IS_LOCATION, LOCATION_HEXES, NEIGH
from duelclub.games.warchest.events import BolsterEvent, DecreeEvent, Events, ReinforceEvent
from duelclub.games.warchest.queries import attack_targets, own_units, reach12
from duelclub.games.warchest.state import State, add, take


def redeploy_hexes(s: State, side: int, h: int) -> list[int]:
    """Destinations of Redeploy for the unit on ``h`` (an empty controlled location; Scout: next to
    another friendly unit), never its own hex."""
    units, control = s.units, s.control
    out = {d for d in LOCATION_HEXES if control[d] == side and d not in units}  # markers only on locations
    if units[h].type == "scout":
        for f, v in units.items():
            if v.owner == side and f != h:
                out.update(n for n in NEIGH[f] if n not in units)
    out.discard(h)
    return sorted(out)


PROCLAIM = ActionTable(
    lambda coin, h, to, target, type_, decree: act(
        "proclaim", coin, h, to=to, target=target, type=type_, decree=decree
    )
)
"""``PROCLAIM[coin, unit, to, target, type, decree]``: the proclamations (``act``'s instances)."""


def options(s: State, side: int, decree: str, coin: str | None) -> list[Action]:
    p = s.sides[side]
    if decree == "enlist":
        return [PROCLAIM[coin, None, None, None, t, decree] for t in p.types if p.supply.get(t)]
    if decree == "reinforce":
        return [PROCLAIM[coin, None, None, None, t, decree] for t in p.types if p.elim.get(t)]
    out: list[Action] = []
    for h in own_units(s, side):
        u = s.units[h]
        if decree == "redeploy":
            out.extend(PROCLAIM[coin, h, d, None, None, decree] for d in redeploy_hexes(s, side, h))
        elif decree == "sortie":
            if IS_LOCATION[h] and s.control[h] == side:
                out.extend(PROCLAIM[coin, h, None, t, None, decree] for t in attack_targets(s, h))
        elif decree == "forced_march":
            out.extend(PROCLAIM[coin, h, d, None, None, decree] for d in reach12(s, h))
        elif decree == "fortify":
            if p.supply.get(u.type):
                out.append(PROCLAIM[coin, h, None, None, None, decree])
        elif decree == "claim" and IS_LOCATION[h] and s.control[h] != side:
            out.append(PROCLAIM[coin, h, None, None, None, decree])
    return out


def execute(s: State, side: int, a: Action, ev: Events) -> None:
    """Carry out decree ``a.decree``; triggers become tasks above the caller's continuation."""
    d = a.decree
    assert d is not None
    seat = s.seat_of(side)
    _decree_event: DecreeEvent = {"kind": "decree", "seat": seat, "side": side, "decree": d}
    ev.append(_decree_event)
    p = s.sides[side]
    if d == "enlist":
        assert a.type is not None
        s.stack.append(("enlist_second", side))
        fx.recruit(s, side, a.type, ev)
        return
    if d == "reinforce":
        assert a.type is not None
        take(p.elim, a.type)
        add(p.supply, a.type)
        _reinforce_event: ReinforceEvent = {"kind": "reinforce", "seat": seat, "side": side, "type": a.type}
        ev.append(_reinforce_event)
        return
    h = a.unit
    assert h is not None
    u = s.units[h]
    if d == "redeploy":
        assert a.to is not None
        fx.move(s, h, a.to, ev, how="redeploy")
    elif d == "sortie":
        assert a.target is not None
        s.stack.append(("after_man", u.uid))
        fx.attack(s, h, a.target, ev)
    elif d == "forced_march":
        assert a.to is not None
        s.stack.append(("after_man", u.uid))
        fx.move(s, h, a.to, ev, how="march")
    elif d == "fortify":
        take(p.supply, u.type)
        s.units[h] = u._replace(height=u.height + 1)
        _bolster_event: BolsterEvent = {
            "kind": "bolster",
            "seat": seat,
            "side": side,
            "unit": h,
            "type": u.type,
            "how": "fortify",
        }
        ev.append(_bolster_event)
    elif d == "claim":
        s.stack.append(("after_man", u.uid))
        fx.control(s, u.uid, h, ev)
