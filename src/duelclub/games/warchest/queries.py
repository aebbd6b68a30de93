"""Read-only questions about a state: units, empty hexes, reachable hexes, attack legality (§4, §8, §9).

Nothing here mutates the state; every function is cheap enough for the bots' inner loops.
"""

from __future__ import annotations

from duelclub.games.warchest.actions import Action, act
from duelclub.games.warchest.board import IS_LOCATION, LINE2, LOCATION_HEXES, NEIGH
from duelclub.games.warchest.state import DRAFT, State, Unit
from duelclub.games.warchest.units import SABOTEUR_SEAL, TACTIC_ONLY_ATTACKERS


def hex_of(s: State, uid: int) -> int:
    """The hex of the unit with ``uid``, or −1 if it has left the board."""
    for h, u in s.units.items():
        if u.uid == uid:
            return h
    return -1


def own_units(s: State, side: int, type_: str | None = None) -> list[int]:
    """Hexes of ``side``'s units (of ``type_`` if given), ascending."""
    return sorted(h for h, u in s.units.items() if u.owner == side and (type_ is None or u.type == type_))


def steps1(s: State, h: int) -> list[int]:
    """Adjacent empty hexes of ``h`` (one step, G2)."""
    units = s.units
    return [n for n in NEIGH[h] if n not in units]


def _two_steps(h: int) -> tuple[tuple[int, bool, tuple[int, ...]], ...]:
    """For each hex ``e`` ≠ ``h`` two steps from ``h`` (ascending): ``e``, whether it is also one step away,
    and the middle hexes of those two steps."""
    ends: dict[int, list[int]] = {}
    for m in NEIGH[h]:
        for e in NEIGH[m]:
            if e != h:
                ends.setdefault(e, []).append(m)
    return tuple((e, e in NEIGH[h], tuple(ends[e])) for e in sorted(ends))


TWO_STEPS = tuple(_two_steps(h) for h in range(len(NEIGH)))


def exact2(s: State, h: int) -> list[int]:
    """End hexes of a 2-step move from ``h`` through empty hexes, other than ``h`` itself (D15, D34),
    ascending."""
    units = s.units
    out = []
    for e, _, mids in TWO_STEPS[h]:
        if e not in units:
            for m in mids:
                if m not in units:
                    out.append(e)
                    break
    return out


def reach12(s: State, h: int) -> list[int]:
    """End hexes of a 1- or 2-step move from ``h`` through empty hexes (start hex excluded, D34),
    ascending.

    The unit itself stands on ``h``; moving it vacates ``h`` but a 2-step move may not end there.
    """
    units = s.units
    out = []
    for e, near, mids in TWO_STEPS[h]:  # every neighbour of h is also two steps away (round a neighbour)
        if e not in units:
            if near:
                out.append(e)
                continue
            for m in mids:
                if m not in units:
                    out.append(e)
                    break
    return out


def can_hit(attacker_height: int, target: Unit) -> bool:
    """Knight/Bishop restrictions (§8.7, §11.1): may an attacker of this height hit ``target``?"""
    if target.type == "knight":
        return attacker_height >= 2
    if target.type == "bishop":
        return attacker_height == 1
    return True


def hittable(s: State, side: int, height: int) -> set[int]:
    """Hexes of ``side``'s enemies that an attacker of ``height`` may hit (:func:`can_hit` for each, §8.7,
    §11.1): one pass over the board for the tactics that test many hexes."""
    out = set()
    for t, v in s.units.items():
        if v.owner != side:
            vt = v.type
            if (height >= 2) if vt == "knight" else (height == 1) if vt == "bishop" else True:
                out.add(t)
    return out


def attack_targets(s: State, h: int, height: int | None = None) -> list[int]:
    """Hexes of enemy units the unit on ``h`` may hit with a normal (adjacent) attack (§9 step 1).

    ``height`` overrides the stack height (the Berserker's options after paying a coin, §8.2).
    Empty for the Archer and the Lancer, which attack only with their tactics.
    """
    u = s.units[h]
    if u.type in TACTIC_ONLY_ATTACKERS:
        return []
    hh = u.height if height is None else height
    units, owner = s.units, u.owner
    out = []
    for n in NEIGH[h]:
        t = units.get(n)
        if t is not None and t.owner != owner:
            tt = t.type  # can_hit inlined
            if (hh >= 2) if tt == "knight" else (hh == 1) if tt == "bishop" else True:
                out.append(n)
    return out


def basic_maneuvers(
    s: State, h: int, height: int | None = None, allow_move: bool | None = None
) -> list[Action]:
    """Free basic maneuvers (move, control, attack; G5) of the unit on ``h``, as coin-less actions.

    Moves are left out for a poisoned unit (§12.1) unless ``allow_move`` says otherwise.
    """
    u = s.units[h]
    out: list[Action] = []
    if allow_move if allow_move is not None else not u.poison:
        out.extend(act("move", unit=h, to=n) for n in steps1(s, h))
    if IS_LOCATION[h] and s.control[h] != u.owner:
        out.append(act("control", unit=h))
    out.extend(act("attack", unit=h, target=t) for t in attack_targets(s, h, height))
    return out


def saboteur_targets(s: State, h: int) -> list[int]:
    """Enemy units the Saboteur on ``h`` may poison (§12.6): distance 1, or 2 in a straight line."""
    side = s.units[h].owner
    cands = [n for n in NEIGH[h]] + [t for t, _ in LINE2[h]]
    out = []
    for t in cands:
        v = s.units.get(t)
        if v is not None and v.owner != side and not v.poison & SABOTEUR_SEAL:
            out.append(t)
    return sorted(out)


def deploy_hexes(s: State, side: int, type_: str) -> list[int]:
    """Where a coin of ``type_`` may be deployed now (§7.1), ignoring the one-unit limit."""
    units, control = s.units, s.control
    out = {h for h in LOCATION_HEXES if control[h] == side and h not in units}  # markers only on locations
    if type_ == "scout":
        for h, u in units.items():
            if u.owner == side:
                out.update(n for n in NEIGH[h] if n not in units)
    return sorted(out)


def can_deploy(s: State, side: int, type_: str) -> bool:
    """The one-unit limit (two for the Footman, §8.6)."""
    n = sum(1 for u in s.units.values() if u.owner == side and u.type == type_)
    return n < (2 if type_ == "footman" else 1)


def to_move_side(s: State) -> int | None:
    """The side that must act now, or None when the match is over."""
    if s.outcome is not None:
        return None
    if s.phase == DRAFT:
        return s.draft_order[0]
    if s.pending is not None:
        return s.pending.owner
    return s.turn
