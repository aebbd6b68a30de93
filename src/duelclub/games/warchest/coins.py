"""Playing one coin (§7): the complete list of a coin's uses and their resolution.

``coin_actions(s, side, coin)`` is used for the normal turn (each distinct coin in hand) and for the
Warrior Priest's drawn coin (``wp_play``). ``play_coin`` assumes the coin has already left the hand
(or the draw) and puts it where §7.4 says before carrying out the effect.
"""

from __future__ import annotations

from typing import NamedTuple

from duelclub.games.warchest import decrees, tactics
from duelclub.games.warchest import effects as fx
from duelclub.games.warchest.actions import Action, ActionTable, act
from duelclub.games.warchest.board import IS_LOCATION, LOCATION_HEXES, N_HEXES, NEIGH
from duelclub.games.warchest.events import (
    BolsterEvent,
    CureEvent,
    DeployEvent,
    Events,
    FaceDownEvent,
    PurgeEvent,
)
from duelclub.games.warchest.queries import (
    can_deploy,
    deploy_hexes,
)
from duelclub.games.warchest.state import State, add
from duelclub.games.warchest.units import COIN_RANK, DECOY_INF, DECOY_SKI, ROYAL, TACTIC_ONLY_ATTACKERS

# The engine's actions by their varying fields (the same instances as ``act``'s).
INITIATIVE = ActionTable(lambda coin: act("initiative", coin))
PASS = ActionTable(lambda coin: act("pass", coin))
RECRUIT = ActionTable(lambda coin, t: act("recruit", coin, type=t))
DEPLOY = ActionTable(lambda coin, h: act("deploy", coin, to=h))
BOLSTER = ActionTable(lambda coin, h: act("bolster", coin, h))
MOVE = ActionTable(lambda coin, h, d: act("move", coin, h, to=d))
CONTROL = ActionTable(lambda coin, h: act("control", coin, h))
ATTACK = ActionTable(lambda coin, h, t: act("attack", coin, h, target=t))
CURE = ActionTable(lambda coin, h: act("cure", coin, h))


class UnitUses(NamedTuple):
    """A unit coin's uses by its unit on one hex (the actions of :func:`unit_actions`, made once)."""

    bolster: Action
    control: Action
    cure: Action
    moves: tuple[tuple[int, Action], ...]  # (neighbour, the move there), in NEIGH order
    attacks: tuple[tuple[int, Action], ...]  # (neighbour, the attack on it), in NEIGH order


def unit_uses(coin: str, h: int) -> UnitUses:
    """The :class:`UnitUses` of ``coin``'s unit on hex ``h``, made once (``USES[coin][h]``)."""
    row = USES[coin]
    uses = row[h]
    if uses is None:
        row[h] = uses = UnitUses(
            BOLSTER[coin, h],
            CONTROL[coin, h],
            CURE[coin, h],
            tuple((d, MOVE[coin, h, d]) for d in NEIGH[h]),
            tuple((d, ATTACK[coin, h, d]) for d in NEIGH[h]),
        )
    return uses


class _UsesTable(dict[str, list[UnitUses | None]]):
    """``USES[coin][h]``: the :class:`UnitUses` of a unit coin's unit on hex ``h``, or None until
    :func:`unit_uses` first makes it (a unit visits few of the 37 hexes: the actions are made as needed)."""

    def __missing__(self, coin: str) -> list[UnitUses | None]:
        out: list[UnitUses | None] = [None] * N_HEXES
        self[coin] = out
        return out


USES = _UsesTable()


class _FaceDownByCoin(dict[str, tuple[Action, ...]]):
    """:func:`face_down`'s list as a tuple, by coin, for one (initiative open, recruitable types)."""

    __slots__ = ("initiative_open", "recruitable")

    def __init__(self, initiative_open: bool, recruitable: tuple[str, ...]) -> None:
        super().__init__()
        self.initiative_open, self.recruitable = initiative_open, recruitable

    def __missing__(self, coin: str) -> tuple[Action, ...]:
        first = (INITIATIVE[coin],) if self.initiative_open else ()
        self[coin] = out = (*first, *(RECRUIT[coin, t] for t in self.recruitable), PASS[coin])
        return out


class _FaceDownTable(dict[tuple[bool, tuple[str, ...]], _FaceDownByCoin]):
    """``FACE_DOWN[initiative_open, recruitable][coin]``: :func:`face_down`'s list as a tuple, by what it
    depends on (whether the initiative may be taken, the types with coins in the supply), then by coin."""

    def __missing__(self, key: tuple[bool, tuple[str, ...]]) -> _FaceDownByCoin:
        self[key] = out = _FaceDownByCoin(*key)
        return out


FACE_DOWN = _FaceDownTable()
PURGE = ActionTable(lambda coin: act("purge", coin))


def face_down(s: State, side: int, coin: str) -> list[Action]:
    """§7.3: initiative (not the holder, not changed this round), recruit per type, pass."""
    out = [INITIATIVE[coin]] if s.initiative != side and not s.changed else []
    p = s.sides[side]
    supply = p.supply
    out += [RECRUIT[coin, t] for t in p.types if supply.get(t)]
    out.append(PASS[coin])
    return out


def unit_coin_actions(s: State, side: int, coin: str) -> list[Action]:
    """Face-up uses of a coin of unit type ``coin`` (§7.1, §7.2, Cure)."""
    out: list[Action] = []
    own = [h for h, u in s.units.items() if u.owner == side and u.type == coin]  # one scan: own_units
    if len(own) < (2 if coin == "footman" else 1):  # can_deploy (§8.6)
        out += [DEPLOY[coin, h] for h in deploy_hexes(s, side, coin)]
    if len(own) > 1:
        own.sort()
    for h in own:
        out += unit_actions(s, side, coin, h)
    return out


def unit_actions(s: State, side: int, coin: str, h: int) -> list[Action]:
    """Face-up uses of a ``coin`` by ``side``'s own unit of that type on hex ``h`` (§7.2, Cure).

    The moves and attacks are ``queries.steps1`` and ``queries.attack_targets`` inlined."""
    units = s.units
    u = units[h]
    uses = USES[coin][h] or unit_uses(coin, h)
    if u.poison:
        out: list[Action] = []
    else:
        out = [uses.bolster]
        for d, a in uses.moves:  # a loop: cheaper than a comprehension for six items
            if d not in units:
                out.append(a)
    if IS_LOCATION[h] and s.control[h] != side:
        out.append(uses.control)
    if u.type not in TACTIC_ONLY_ATTACKERS:
        owner, height = u.owner, u.height
        for n, a in uses.attacks:
            t = units.get(n)
            if t is not None and t.owner != owner:
                tt = t.type  # can_hit inlined (§8.7, §11.1)
                if (height >= 2) if tt == "knight" else (height == 1) if tt == "bishop" else True:
                    out.append(a)
    tactic = tactics.OPTIONS.get(u.type)  # tactics.options, without its call
    if tactic is not None:
        out += tactic(s, h)
    if u.poison:
        out.append(uses.cure)
    return out


def royal_actions(s: State, side: int) -> list[Action]:
    """Face-up uses of the Royal coin: the Royal Guard tactic and proclamations (§8.13, §11.2)."""
    out = tactics.royal_guard_options(s, side) if "royal_guard" in s.sides[side].types else []
    if s.nobility and len(s.sealed[side]) < 3:
        for d in s.decrees:
            if d not in s.sealed[side]:
                out.extend(decrees.options(s, side, d, ROYAL))
    return out


def candidates(s: State, side: int, a: Action) -> list[Action]:
    """The uses of hand coin ``a.coin`` that could equal ``a``: a sublist of ``coin_actions`` holding
    every one of them with ``a``'s fields (what validating one action needs, without listing them all).
    Empty when the coin is not in ``side``'s hand."""
    coin = a.coin
    if coin is None or coin not in COIN_RANK or not s.sides[side].hand.get(coin):
        return []
    k = a.kind
    if k in ("initiative", "recruit", "pass"):
        return face_down(s, side, coin)
    if coin == ROYAL:
        return royal_actions(s, side)
    if coin in (DECOY_INF, DECOY_SKI):
        return [PURGE[coin]]
    if k == "deploy":
        if not can_deploy(s, side, coin):
            return []
        return [DEPLOY[coin, h] for h in deploy_hexes(s, side, coin)]
    h = a.unit
    u = s.units.get(h) if isinstance(h, int) else None
    if h is None or u is None or u.owner != side or u.type != coin:
        return []
    return unit_actions(s, side, coin, h)


def coin_actions(s: State, side: int, coin: str) -> list[Action]:
    """Every legal use of one coin of kind ``coin`` by ``side`` (face-up first, then face-down)."""
    if coin == ROYAL:
        up = royal_actions(s, side)
    elif coin in (DECOY_INF, DECOY_SKI):
        up = [PURGE[coin]]
    else:
        up = unit_coin_actions(s, side, coin)
    return up + face_down(s, side, coin)


def hand_actions(s: State, side: int) -> list[Action]:
    """Every legal use of every coin in ``side``'s hand, the coins in canonical order (a normal turn):
    :func:`coin_actions` of each, with the face-down part computed once for the hand."""
    p = s.sides[side]
    supply = p.supply
    face_down_by_coin = FACE_DOWN[
        s.initiative != side and not s.changed, tuple([t for t in p.types if supply.get(t)])
    ]
    out: list[Action] = []
    hand = p.hand  # coins only, positive counts only (position model)
    in_hand = sorted(hand, key=COIN_RANK.__getitem__) if len(hand) > 1 else hand
    units, control = s.units, s.control
    own: dict[str, list[int]] = {}  # this side's units of the hand's types, in one scan (own_units)
    for h, u in units.items():
        if u.owner == side and u.type in hand:
            hexes = own.get(u.type)
            if hexes is None:
                own[u.type] = [h]
            else:
                hexes.append(h)
    free: list[int] | None = None  # deploy_hexes of a type other than the Scout, computed once
    for c in in_hand:
        if c == ROYAL:
            out += royal_actions(s, side)
        elif c in (DECOY_INF, DECOY_SKI):
            out.append(PURGE[c])
        else:  # unit_coin_actions
            hexes = own.get(c)
            if hexes is None or len(hexes) < (2 if c == "footman" else 1):  # can_deploy (§8.6)
                if c == "scout":
                    out += [DEPLOY[c, h] for h in deploy_hexes(s, side, c)]
                else:
                    if free is None:
                        free = [h for h in LOCATION_HEXES if control[h] == side and h not in units]
                    out += [DEPLOY[c, h] for h in free]
            if hexes is not None:
                if len(hexes) > 1:
                    hexes.sort()
                for h in hexes:
                    out += unit_actions(s, side, c, h)
        out += face_down_by_coin[c]
    return out


def play_coin(s: State, side: int, a: Action, ev: Events) -> None:
    """Put the coin where §7.4 says, then carry out action ``a``."""
    p = s.sides[side]
    coin = a.coin
    assert coin is not None
    k = a.kind
    seat = s.seat_of(side)
    if k == "initiative" or k == "recruit" or k == "pass":
        add(p.down, coin)
        e: FaceDownEvent = {
            "kind": "face_down",
            "seat": seat,
            "side": side,
            "action": k,
            "secret": {"coin": coin},
        }
        ev.append(e)  # a literal: a TypedDict call costs twice as much (the engine's hot path)
        if k == "initiative":
            s.initiative, s.changed = side, True
        elif k == "recruit":
            assert a.type is not None
            fx.recruit(s, side, a.type, ev)
        return
    if k == "deploy":
        assert a.to is not None
        fx.new_unit(s, side, coin, a.to)
        _deploy_event: DeployEvent = {"kind": "deploy", "seat": seat, "side": side, "type": coin, "to": a.to}
        ev.append(_deploy_event)
        if coin == "earl":
            s.stack.append(("earl_step", s.units[a.to].uid))
        return
    if k == "bolster":
        assert a.unit is not None
        u = s.units[a.unit]
        s.units[a.unit] = u._replace(height=u.height + 1)
        _bolster_event: BolsterEvent = {
            "kind": "bolster",
            "seat": seat,
            "side": side,
            "unit": a.unit,
            "type": coin,
            "how": "coin",
        }
        ev.append(_bolster_event)
        return
    if k == "purge":
        _purge_event: PurgeEvent = {"kind": "purge", "seat": seat, "side": side, "coin": coin}
        ev.append(_purge_event)
        return
    add(p.up, coin)  # every other use is face up (§7.4)
    if k == "cure":
        assert a.unit is not None
        u = s.units[a.unit]
        s.units[a.unit] = u._replace(poison=0)
        _cure_event: CureEvent = {"kind": "cure", "seat": seat, "side": side, "unit": a.unit, "type": u.type}
        ev.append(_cure_event)
    elif k in ("move", "control", "attack"):
        assert a.unit is not None
        tactics.do_basic(s, a.unit, a, ev)
    elif k == "tactic":
        tactics.execute(s, a, ev)
    elif k == "proclaim":
        assert a.decree is not None
        s.stack.append(("after_decree", side, a.decree, True))
        decrees.execute(s, side, a, ev)
    else:  # pragma: no cover
        raise AssertionError(k)
