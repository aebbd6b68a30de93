"""State mutations shared by every action: coin zones, steps, attacks, control, recruits, draws.

Nothing here raises a decision. Where a rule needs a follow-up (a trigger, the damage choice, the
Warrior Priest draw) it pushes a task onto ``s.stack``; ``engine.run`` pops tasks depth-first (G3).
A caller that must continue *after* such a follow-up pushes its own continuation first.

Every function appends events (``events.py``: data, worded by ``duelclub.words.warchest``) to ``ev``;
an event may carry a ``secret`` dict that only its ``seat`` sees (``view.event_view``).
"""

from __future__ import annotations

from typing import Literal

from duelclub.games.contract import Outcome
from duelclub.games.warchest.board import DIST
from duelclub.games.warchest.events import (
    AttackEvent,
    ControlEvent,
    CounterEvent,
    DamageEvent,
    DecoyEvent,
    Events,
    MoveEvent,
    PoisonEvent,
    RecruitEvent,
    UnitRemovedEvent,
    WinEvent,
)
from duelclub.games.warchest.state import State, Unit, add, take
from duelclub.games.warchest.units import COIN_RANK, DECOY_INF

MoveHow = Literal["move", "push", "redeploy", "march"]


def new_unit(s: State, side: int, type_: str, h: int) -> None:
    s.uid += 1
    s.units[h] = Unit(side, type_, 1, 0, s.uid)


def step_unit(s: State, frm: int, to: int) -> None:
    s.units[to] = s.units.pop(frm)


def eliminate_from_unit(s: State, h: int, ev: Events, countered: bool = False) -> bool:
    """Eliminate the top coin of the unit on ``h`` (§7.4); True if the unit was removed (seals return).
    ``countered``: by the Pikeman's counter (§8.12), else the unit ran out of coins."""
    u = s.units[h]
    add(s.sides[u.owner].elim, u.type)
    if u.height == 1:
        del s.units[h]
        seat = s.seat_of(u.owner)
        _unit_removed_event: UnitRemovedEvent = {
            "kind": "unit_removed",
            "seat": seat,
            "side": u.owner,
            "hex": h,
            "type": u.type,
            "countered": countered,
        }
        ev.append(_unit_removed_event)
        return True
    s.units[h] = u._replace(height=u.height - 1)
    return False


def draw_one(s: State, side: int) -> str | None:
    """One draw of §6 step 1 (refilling the bag from the whole discard if empty); None if nothing left.

    A bag of 2+ coins reads ``randint(len(bag))`` over the bag in canonical order (fairness.md);
    a one-coin bag reads no word.
    """
    p = s.sides[side]
    if not p.bag:
        if not p.up and not p.down:
            return None
        for zone in (p.up, p.down):
            for c, n in zone.items():
                add(p.bag, c, n)
            zone.clear()
    total = sum(p.bag.values())
    if total == 1:
        coin = next(iter(p.bag))
    else:
        i = s.stream.randint(total)
        bag = p.bag
        for coin in sorted(bag, key=COIN_RANK.__getitem__):  # canonical order, only the coins present
            n = bag[coin]
            if i < n:
                break
            i -= n
    take(p.bag, coin)
    return coin


def draw_coins(s: State, side: int, k: int) -> list[str]:
    """Up to ``k`` draws of :func:`draw_one` in a row (the draws of §6 step 1), the same coins and words:
    the bag's canonical order is sorted once, not per draw (a coin drawn out reads as zero there)."""
    p = s.sides[side]
    bag = p.bag
    drawn: list[str] = []
    order: list[str] | None = None
    total = sum(bag.values())
    for _ in range(k):
        if not total:
            if not p.up and not p.down:
                break
            for zone in (p.up, p.down):
                for c, n in zone.items():
                    bag[c] = bag.get(c, 0) + n
                zone.clear()
            order = None
            total = sum(bag.values())
        if total == 1:
            coin = next(iter(bag))
        else:
            i = s.stream.randint(total)
            if order is None:
                order = sorted(bag, key=COIN_RANK.__getitem__)
            for coin in order:
                n = bag.get(coin, 0)
                if i < n:
                    break
                i -= n
        left = bag[coin] - 1
        if left:
            bag[coin] = left
        else:
            del bag[coin]
        total -= 1
        drawn.append(coin)
    return drawn


def control(s: State, uid: int, h: int, ev: Events) -> None:
    """Take control of location ``h`` with the unit ``uid`` standing there (§7.2 order (1)–(3))."""
    u = s.units[h]
    side = u.owner
    prev = s.control[h]
    if prev >= 0:
        s.sides[prev].reserve += 1
    s.control[h] = side
    s.sides[side].reserve -= 1
    seat = s.seat_of(side)
    _control_event: ControlEvent = {
        "kind": "control",
        "seat": seat,
        "side": side,
        "hex": h,
        "unit": h,
        "type": u.type,
    }
    ev.append(_control_event)
    if s.sides[side].reserve == 0:  # §10: all 6 markers on the board
        s.outcome = Outcome(s.seat_of(side), "control")
        s.stack.clear()
        s.pending = None
        _win_event: WinEvent = {"kind": "win", "seat": seat, "side": side}
        ev.append(_win_event)
        return
    if u.type == "infiltrator":  # §12.3: mandatory plant
        plant_decoy(s, side, "infiltrator", ev)
    elif u.type == "warrior_priest":  # §8.16
        s.stack.append(("wp_draw", uid))


def plant_decoy(s: State, side: int, unit_type: str, ev: Events) -> None:
    """Move one decoy of ``unit_type`` from ``side``'s pool into the opponent's discard face up (§12.2)."""
    p = s.sides[side]
    if not p.decoys.get(unit_type):
        return
    take(p.decoys, unit_type)
    decoy = DECOY_INF if unit_type == "infiltrator" else "decoy:skirmisher"
    add(s.sides[1 - side].up, decoy)
    _decoy_event: DecoyEvent = {"kind": "decoy", "seat": s.seat_of(side), "side": side, "coin": decoy}
    ev.append(_decoy_event)


def attack(s: State, a: int, t: int, ev: Events) -> None:
    """Attack of the unit on ``a`` against the enemy unit on ``t`` (§9); legality checked by the caller.

    Step 2 (Pikeman counter) happens here; steps 3–5 are the tasks ``damage`` and ``after_attack``.
    """
    A, T = s.units[a], s.units[t]
    _attack_event: AttackEvent = {
        "kind": "attack",
        "seat": s.seat_of(A.owner),
        "side": A.owner,
        "unit": a,
        "target": t,
        "type": A.type,
        "target_type": T.type,
    }
    ev.append(_attack_event)
    s.stack.append(("after_attack", A.uid, T.owner, T.type, bool(T.poison)))
    if T.type == "pikeman" and DIST[a][t] == 1:  # §8.12
        seat = s.seat_of(T.owner)
        _counter_event: CounterEvent = {
            "kind": "counter",
            "seat": seat,
            "side": T.owner,
            "hex": a,
            "attacker_type": A.type,
        }
        ev.append(_counter_event)
        eliminate_from_unit(s, a, ev, countered=True)
    s.stack.append(("damage", T.uid))


def damage_top(s: State, t: int, ev: Events) -> None:
    T = s.units[t]
    _damage_event: DamageEvent = {
        "kind": "damage",
        "seat": s.seat_of(T.owner),
        "side": T.owner,
        "hex": t,
        "type": T.type,
    }
    ev.append(_damage_event)
    eliminate_from_unit(s, t, ev)


def recruit(s: State, side: int, type_: str, ev: Events) -> None:
    """Supply → own discard face up (§7.3), then the Mercenary/Saboteur trigger task (§8.11, §12.6)."""
    p = s.sides[side]
    take(p.supply, type_)
    add(p.up, type_)
    _recruit_event: RecruitEvent = {"kind": "recruit", "seat": s.seat_of(side), "side": side, "type": type_}
    ev.append(_recruit_event)
    if type_ in ("mercenary", "saboteur"):
        s.stack.append(("recruit_trigger", side, type_))


def poison(s: State, side: int, seal: int, t: int, ev: Events) -> None:
    """Put ``side``'s seal (bit) on the enemy unit on ``t``, moving it off any other unit (§12.1)."""
    for h, u in list(s.units.items()):
        if u.poison & seal and u.owner != side:
            s.units[h] = u._replace(poison=u.poison & ~seal)
    T = s.units[t]
    s.units[t] = T._replace(poison=T.poison | seal)
    _poison_event: PoisonEvent = {
        "kind": "poison",
        "seat": s.seat_of(side),
        "side": side,
        "hex": t,
        "type": T.type,
    }
    ev.append(_poison_event)


def move(s: State, frm: int, to: int, ev: Events, how: MoveHow = "move") -> None:
    """Step the unit on ``frm`` to ``to``; ``how``: why (a move, a Bannerman push, a decree), for the log."""
    u = s.units[frm]
    step_unit(s, frm, to)
    seat = s.seat_of(u.owner)
    e: MoveEvent = {
        "kind": "move",
        "seat": seat,
        "side": u.owner,
        "unit": frm,
        "to": to,
        "type": u.type,
        "how": how,
    }
    ev.append(e)  # a literal: a TypedDict call costs twice as much (the engine's hot path)
