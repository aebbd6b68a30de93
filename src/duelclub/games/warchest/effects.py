"""State mutations shared by every action: coin zones, steps, attacks, control, recruits, draws.

Nothing here raises a decision. Where a rule needs a follow-up (a trigger, the damage choice, the
Warrior Priest draw) it pushes a task onto ``s.stack``; ``engine.run`` pops tasks depth-first (G3).
A caller that must continue *after* such a follow-up pushes its own continuation first.

Every function appends JSON events to ``ev``; an event may carry a ``secret`` dict that only its
``seat`` sees (``view.event_view``).
"""

from __future__ import annotations

from duelclub.games.contract import JSON, Outcome
from duelclub.games.warchest.board import DIST, IS_LOCATION
from duelclub.games.warchest.state import State, Unit, add, take
from duelclub.games.warchest.units import COIN_RANK, DECOY_INF
from duelclub.games.warchest.words import (
    Say,
    coin,
    coins,
    decree,
    done,
    event_text,
    hex_,
    is_feminine,
    say,
    unit,
)
from duelclub.i18n import N_

__all__ = ["coin", "coins", "decree", "done", "hex_", "is_feminine", "say", "unit"]

Events = list[JSON]


def event(s: State, side: int, kind: str, words: Say, **fields: object) -> JSON:
    """A public event of ``side`` (its seat is recorded): its ``words`` (words.py) and their Russian
    ``text``; ``view.event_view`` renders the text again in the reader's language."""
    e: JSON = {"kind": kind, "seat": s.seat_of(side), "side": side, "text": event_text(side, words, "ru")}
    e["say"] = words
    e.update(fields)
    return e


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
        words = (
            say(
                N_("%(unit)s уходит с поля (контратака %(by)s)"), unit=unit(u.type), by=unit("pikeman", "gen")
            )
            if countered
            else say(N_("%(unit)s уходит с поля (нет монет)"), unit=unit(u.type))
        )
        ev.append(event(s, u.owner, "unit_removed", words, hex=h))
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


def control(s: State, uid: int, h: int, ev: Events) -> None:
    """Take control of location ``h`` with the unit ``uid`` standing there (§7.2 order (1)–(3))."""
    u = s.units[h]
    side = u.owner
    prev = s.control[h]
    if prev >= 0:
        s.sides[prev].reserve += 1
    s.control[h] = side
    s.sides[side].reserve -= 1
    words = say(N_("%(unit)s берёт под контроль %(hex)s"), unit=unit(u.type), hex=hex_(h))
    ev.append(event(s, side, "control", words, hex=h, unit=h))
    if s.sides[side].reserve == 0:  # §10: all 6 markers on the board
        s.outcome = Outcome(s.seat_of(side), "control")
        s.stack.clear()
        s.pending = None
        ev.append(event(s, side, "win", say(N_("все маркеры на поле — победа"))))
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
    words = say(N_("%(coin)s подброшена в сброс противника"), coin=coin(decoy))
    ev.append(event(s, side, "decoy", words, coin=decoy))


def attack(s: State, a: int, t: int, ev: Events) -> None:
    """Attack of the unit on ``a`` against the enemy unit on ``t`` (§9); legality checked by the caller.

    Step 2 (Pikeman counter) happens here; steps 3–5 are the tasks ``damage`` and ``after_attack``.
    """
    A, T = s.units[a], s.units[t]
    words = say(N_("%(unit)s атакует %(target)s"), unit=unit(A.type), target=unit(T.type, "acc"))
    ev.append(event(s, A.owner, "attack", words, unit=a, target=t))
    s.stack.append(("after_attack", A.uid, T.owner, T.type, bool(T.poison)))
    if T.type == "pikeman" and DIST[a][t] == 1:  # §8.12
        words = say(
            N_("%(unit)s снимает монету с %(attacker)s"), unit=unit("pikeman"), attacker=unit(A.type, "gen")
        )
        ev.append(event(s, T.owner, "counter", words, hex=a))
        eliminate_from_unit(s, a, ev, countered=True)
    s.stack.append(("damage", T.uid))


def damage_top(s: State, t: int, ev: Events) -> None:
    T = s.units[t]
    ev.append(event(s, T.owner, "damage", say(N_("%(unit)s: −1 монета"), unit=unit(T.type)), hex=t))
    eliminate_from_unit(s, t, ev)


def recruit(s: State, side: int, type_: str, ev: Events) -> None:
    """Supply → own discard face up (§7.3), then the Mercenary/Saboteur trigger task (§8.11, §12.6)."""
    p = s.sides[side]
    take(p.supply, type_)
    add(p.up, type_)
    ev.append(event(s, side, "recruit", say(N_("нанимает %(unit)s"), unit=unit(type_, "acc")), type=type_))
    if type_ in ("mercenary", "saboteur"):
        s.stack.append(("recruit_trigger", side, type_))


def poison(s: State, side: int, seal: int, t: int, ev: Events) -> None:
    """Put ``side``'s seal (bit) on the enemy unit on ``t``, moving it off any other unit (§12.1)."""
    for h, u in list(s.units.items()):
        if u.poison & seal and u.owner != side:
            s.units[h] = u._replace(poison=u.poison & ~seal)
    T = s.units[t]
    s.units[t] = T._replace(poison=T.poison | seal)
    ev.append(
        event(s, side, "poison", done(T.type, N_("%(unit)s отравлен"), N_("%(unit)s отравлена")), hex=t)
    )


def move(s: State, frm: int, to: int, ev: Events, how: str = N_("%(unit)s перемещается на %(hex)s")) -> None:
    """Step the unit on ``frm`` to ``to``; ``how``: the log's msgid with ``%(unit)s`` and ``%(hex)s``."""
    u = s.units[frm]
    step_unit(s, frm, to)
    ev.append(event(s, u.owner, "move", say(how, unit=unit(u.type), hex=hex_(to)), unit=frm, to=to))


def is_location(h: int) -> bool:
    return IS_LOCATION[h]
