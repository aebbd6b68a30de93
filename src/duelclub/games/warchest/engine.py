"""Turn flow: the continuation stack, pending decisions (§16), rounds (§6), ``legal_actions`` and ``apply``.

A played coin's effect pushes tasks; :func:`run` pops them depth-first until a task raises a
decision (``s.pending``) or the stack is empty, which ends the turn (§6 step 2). A decision whose only
answer would be ``decline`` is never raised (§16), except ``wp_play``.
"""

from __future__ import annotations

from collections.abc import Callable

from duelclub.games.contract import IllegalAction, Outcome
from duelclub.games.warchest import coins, decrees, draft, tactics
from duelclub.games.warchest import effects as fx
from duelclub.games.warchest.actions import DECLINE, Action, act
from duelclub.games.warchest.board import NEIGH
from duelclub.games.warchest.events import (
    AbsorbEvent,
    AssassinEvent,
    DeclineEvent,
    DrawEvent,
    Events,
    PayEvent,
    WpDrawEvent,
)
from duelclub.games.warchest.legality import is_legal, turn_use_is_legal
from duelclub.games.warchest.queries import (
    attack_targets,
    basic_maneuvers,
    hex_of,
    own_units,
    saboteur_targets,
    steps1,
    to_move_side,
)
from duelclub.games.warchest.state import DRAFT, OVER, Pending, State, Task, add, take
from duelclub.games.warchest.units import (
    COIN_ORDER,
    SABOTEUR_SEAL,
    SEAL_OF,
    UNIT,
)

ROUND_LIMIT = 100  # D28


def raise_decision(
    s: State, owner: int, kind: str, options: list[Action], optional: bool, *data: object
) -> None:
    """Suspend the effect on decision ``kind`` unless it has no option (§16)."""
    if options:
        s.pending = Pending(owner, kind, tuple(options), optional, tuple(data))


# -- tasks ------------------------------------------------------------------------------------


def _after_man(s: State, t: Task, ev: Events) -> None:
    """Berserker repeat / Bannerman push after a maneuver (§8.2, §11.1, G4)."""
    uid = t[1]
    assert isinstance(uid, int)
    h = hex_of(s, uid)
    if h < 0:
        return
    u = s.units[h]
    if u.type == "berserker" and u.height >= 2:
        raise_decision(s, u.owner, "berserker_repeat", basic_maneuvers(s, h, u.height - 1), True, uid)
    elif u.type == "bannerman":
        opts: list[Action] = []
        for e in NEIGH[h]:
            v = s.units.get(e)
            if v is not None and v.owner != u.owner:
                opts.extend(act("push", target=e, to=d) for d in steps1(s, e))
        raise_decision(s, u.owner, "bannerman_push", opts, True, uid)


def _damage(s: State, t: Task, ev: Events) -> None:
    """§9 step 3: the target's owner may absorb the hit (Royal Guard supply, Skirmisher decoy)."""
    uid = t[1]
    assert isinstance(uid, int)
    h = hex_of(s, uid)
    T = s.units[h]
    o = s.sides[T.owner]
    if T.type == "royal_guard" and o.supply.get("royal_guard"):
        raise_decision(s, T.owner, "guard_damage", [act("use_supply")], True, uid)
    elif T.type == "skirmisher" and o.decoys.get("skirmisher"):
        raise_decision(s, T.owner, "skirmisher_damage", [act("plant_decoy")], True, uid)
    else:
        fx.damage_top(s, h, ev)


def _after_attack(s: State, t: Task, ev: Events) -> None:
    """§9 steps 4–5: Assassin bonus, then Swordsman step or Warrior Priest draw."""
    _, uid, t_owner, t_type, was_poisoned = t
    assert isinstance(uid, int) and isinstance(t_owner, int) and isinstance(t_type, str)
    h = hex_of(s, uid)
    if h < 0:
        return  # removed by the Pikeman counter (D36)
    u = s.units[h]
    if u.type == "assassin" and was_poisoned:
        sup = s.sides[t_owner].supply
        if sup.get(t_type):
            take(sup, t_type)
            add(s.sides[t_owner].elim, t_type)
            _assassin_event: AssassinEvent = {
                "kind": "assassin",
                "seat": s.seat_of(u.owner),
                "side": u.owner,
                "type": t_type,
            }
            ev.append(_assassin_event)
    elif u.type == "swordsman" and not u.poison:
        opts = [act("move", unit=h, to=d) for d in steps1(s, h)]
        raise_decision(s, u.owner, "swordsman_step", opts, True, uid)
    elif u.type == "warrior_priest":
        s.stack.append(("wp_draw", uid))


def _wp_draw(s: State, t: Task, ev: Events) -> None:
    """§8.16: draw one coin and offer all its uses (``wp_play`` is always raised, §16)."""
    uid = t[1]
    assert isinstance(uid, int)
    h = hex_of(s, uid)
    if h < 0:
        return
    side = s.units[h].owner
    coin = fx.draw_one(s, side)
    if coin is None:
        return
    _wp_draw_event: WpDrawEvent = {
        "kind": "wp_draw",
        "seat": s.seat_of(side),
        "side": side,
        "secret": {"coin": coin},
    }
    ev.append(_wp_draw_event)
    s.pending = Pending(side, "wp_play", tuple(coins.coin_actions(s, side, coin)), False, (coin,))


def _recruit_trigger(s: State, t: Task, ev: Events) -> None:
    """Mercenary free maneuver (§8.11) / Saboteur free poison (§12.6)."""
    _, side, type_ = t
    assert isinstance(side, int)
    for h in own_units(s, side, str(type_)):
        if type_ == "mercenary":
            raise_decision(s, side, "mercenary_maneuver", basic_maneuvers(s, h), True, s.units[h].uid)
        else:
            opts = [act("poison", unit=h, target=x) for x in saboteur_targets(s, h)]
            raise_decision(s, side, "saboteur_poison", opts, True)


def _earl_step(s: State, t: Task, ev: Events) -> None:
    uid = t[1]
    assert isinstance(uid, int)
    h = hex_of(s, uid)
    if h >= 0 and not s.units[h].poison:
        raise_decision(
            s, s.units[h].owner, "earl_step", [act("move", unit=h, to=d) for d in steps1(s, h)], True
        )


def _footman_next(s: State, t: Task, ev: Events) -> None:
    uid = t[1]
    assert isinstance(uid, int)
    h = hex_of(s, uid)
    if h >= 0:
        raise_decision(s, s.units[h].owner, "footman_next", basic_maneuvers(s, h), False, uid)


def _bishop_follow(s: State, t: Task, ev: Events) -> None:
    uid = t[1]
    assert isinstance(uid, int)
    h = hex_of(s, uid)
    if h < 0:
        return
    u = s.units[h]
    opts = [] if u.poison else [act("move", unit=h, to=d) for d in steps1(s, h)]
    opts += [act("attack", unit=h, target=x) for x in attack_targets(s, h)]
    raise_decision(s, u.owner, "bishop_follow", opts, False, uid)


def decree_choices(s: State, side: int) -> list[Action]:
    """Every executable revealed decree with its parameters, for the Earl (no seal, seals ignored)."""
    out: list[Action] = []
    for d in s.decrees:
        out.extend(decrees.options(s, side, d, None))
    return out


def _earl_decree(s: State, t: Task, ev: Events) -> None:
    side = t[1]
    assert isinstance(side, int)
    raise_decision(s, side, "earl_decree", decree_choices(s, side), False)


def _after_decree(s: State, t: Task, ev: Events) -> None:
    """§11.2 steps (3) seal and (4) the Herald's free maneuver."""
    _, side, decree, sealed = t
    assert isinstance(side, int) and isinstance(decree, str)
    if sealed:
        s.sealed[side].add(decree)
    for h in own_units(s, side, "herald"):
        raise_decision(s, side, "herald_maneuver", basic_maneuvers(s, h), True, s.units[h].uid)


def _enlist_second(s: State, t: Task, ev: Events) -> None:
    side = t[1]
    assert isinstance(side, int)
    p = s.sides[side]
    opts = [act("recruit", type=x) for x in p.types if p.supply.get(x)]
    raise_decision(s, side, "enlist_second", opts, True)


TASKS: dict[str, Callable[[State, Task, Events], None]] = {
    "after_man": _after_man,
    "damage": _damage,
    "after_attack": _after_attack,
    "wp_draw": _wp_draw,
    "recruit_trigger": _recruit_trigger,
    "earl_step": _earl_step,
    "footman_next": _footman_next,
    "bishop_follow": _bishop_follow,
    "earl_decree": _earl_decree,
    "after_decree": _after_decree,
    "enlist_second": _enlist_second,
}


# -- answering decisions ----------------------------------------------------------------------


def answer(s: State, a: Action, ev: Events) -> None:
    """Resolve the pending decision with option ``a`` (already checked to be legal)."""
    pd = s.pending
    assert pd is not None
    s.pending = None
    side, kind = pd.owner, pd.kind
    if kind == "wp_play":
        coins.play_coin(s, side, a, ev)
        return
    if a.kind == "decline":
        _decline_event: DeclineEvent = {"kind": "decline", "seat": s.seat_of(side), "side": side}
        ev.append(_decline_event)
        if kind in ("guard_damage", "skirmisher_damage"):
            uid = pd.data[0]
            assert isinstance(uid, int)
            fx.damage_top(s, hex_of(s, uid), ev)
        return
    if kind == "guard_damage":
        take(s.sides[side].supply, "royal_guard")
        add(s.sides[side].elim, "royal_guard")
        _absorb_event: AbsorbEvent = {"kind": "absorb", "seat": s.seat_of(side), "side": side}
        ev.append(_absorb_event)
    elif kind == "skirmisher_damage":
        fx.plant_decoy(s, side, "skirmisher", ev)
    elif kind == "berserker_repeat":
        assert a.unit is not None
        u = s.units[a.unit]
        s.units[a.unit] = u._replace(height=u.height - 1)
        add(s.sides[side].up, "berserker")
        _pay_event: PayEvent = {"kind": "pay", "seat": s.seat_of(side), "side": side}
        ev.append(_pay_event)
        tactics.do_basic(s, a.unit, a, ev)
    elif kind == "bannerman_push":
        assert a.target is not None and a.to is not None
        fx.move(s, a.target, a.to, ev, how="push")
    elif kind in ("mercenary_maneuver", "herald_maneuver", "footman_next"):
        assert a.unit is not None
        tactics.do_basic(s, a.unit, a, ev)
    elif kind in ("swordsman_step", "earl_step"):
        assert a.unit is not None and a.to is not None
        fx.move(s, a.unit, a.to, ev)
    elif kind == "bishop_follow":
        assert a.unit is not None
        if a.kind == "move":
            assert a.to is not None
            fx.move(s, a.unit, a.to, ev)
        else:
            assert a.target is not None
            fx.attack(s, a.unit, a.target, ev)
    elif kind == "saboteur_poison":
        assert a.target is not None
        fx.poison(s, side, SEAL_OF["saboteur"], a.target, ev)
    elif kind == "enlist_second":
        assert a.type is not None
        fx.recruit(s, side, a.type, ev)
    elif kind == "earl_decree":
        assert a.decree is not None
        s.stack.append(("after_decree", side, a.decree, False))
        decrees.execute(s, side, a, ev)
    else:  # pragma: no cover
        raise AssertionError(kind)


# -- rounds and turns -------------------------------------------------------------------------


def start_round(s: State, ev: Events) -> None:
    """§6 step 1: Wolf draws all its coins, then Raven; the initiative holder plays first."""
    s.round += 1
    s.changed = False
    for side in (0, 1):
        drawn = fx.draw_coins(s, side, 3)
        hand = s.sides[side].hand
        for c in drawn:
            hand[c] = hand.get(c, 0) + 1
        e: DrawEvent = {  # a literal: a TypedDict call costs twice as much (the engine's hot path)
            "kind": "draw",
            "seat": side ^ s.wolf_seat,
            "side": side,
            "round": s.round,
            "count": len(drawn),
            "secret": {"coins": drawn},
        }
        ev.append(e)
    s.turn = s.initiative


def end_turn(s: State, ev: Events) -> None:
    """Pass the turn (a side with an empty hand is skipped); end the round when both hands are empty."""
    cur = s.turn
    if s.sides[1 - cur].hand:  # a hand keeps positive counts only
        s.turn = 1 - cur
    elif s.sides[cur].hand:
        s.turn = cur
    elif s.round >= ROUND_LIMIT:
        s.outcome = Outcome(None, "round_limit")
        s.phase = OVER
    else:
        start_round(s, ev)


def run(s: State, ev: Events) -> None:
    """Resolve tasks until a decision is pending, the match is won, or the turn ends."""
    while s.outcome is None and s.pending is None:
        if s.stack:
            t = s.stack.pop()
            TASKS[str(t[0])](s, t, ev)
        else:
            end_turn(s, ev)
            return
    if s.outcome is not None:
        s.phase = OVER
        s.stack.clear()
        s.pending = None


# -- the contract's entry points ----------------------------------------------------------------


def legal(s: State, side: int) -> list[Action]:
    """Complete list of ``side``'s legal actions now (resign excluded)."""
    if s.outcome is not None:  # to_move_side, inlined: who acts decides what is listed
        return []
    if s.phase == DRAFT:
        return draft.pick_actions(s) if s.draft_order[0] == side else []
    pd = s.pending
    if pd is not None:
        if pd.owner != side:
            return []
        opts = list(pd.options)
        return [*opts, DECLINE] if pd.optional else opts
    return coins.hand_actions(s, side) if s.turn == side else []


def apply(s: State, side: int, a: Action) -> Events:
    """Validate ``a`` (:func:`is_legal`: a member of :func:`legal`) and apply it; IllegalAction leaves
    ``s`` untouched."""
    if s.outcome is not None:
        raise IllegalAction("match_over", "the match is over")
    if to_move_side(s) != side:
        raise IllegalAction("not_your_turn", "it is not your turn")
    ok = (
        turn_use_is_legal(s, side, a)
        if s.pending is None and s.phase != DRAFT and type(a) is Action
        else None
    )  # is_legal's own first step, without its repeated checks
    if not (is_legal(s, side, a) if ok is None else ok):
        raise IllegalAction("illegal_action", f"{a.kind} is not legal now")
    ev: Events = []
    if s.phase == DRAFT:
        draft.pick(s, side, a, ev)
        if s.phase != DRAFT:
            start_round(s, ev)
        return ev
    if s.pending is not None:
        answer(s, a, ev)
    else:
        assert a.coin is not None
        take(s.sides[side].hand, a.coin)
        coins.play_coin(s, side, a, ev)
    run(s, ev)
    return ev


def timeout(s: State, side: int) -> Action:
    """The clock's move (§16): first draft pick; decline (Pass for ``wp_play``); first mandatory option;
    in a normal turn Pass with the first hand coin in canonical order."""
    if s.phase == DRAFT:
        return draft.pick_actions(s)[0]
    pd = s.pending
    if pd is not None:
        if pd.kind == "wp_play":
            return act("pass", str(pd.data[0]))
        return DECLINE if pd.optional else pd.options[0]
    hand = s.sides[side].hand
    first = next(c for c in COIN_ORDER if hand.get(c))
    return act("pass", first)


__all__ = ["SABOTEUR_SEAL", "UNIT", "apply", "is_legal", "legal", "timeout", "to_move_side"]
