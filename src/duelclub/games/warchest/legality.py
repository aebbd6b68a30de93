"""Validating one action without listing every legal action (issue 17 §5): :func:`is_legal`.

``apply`` must accept exactly the members of ``engine.legal``. Listing them all to check one action was half
of the engine's time, so the check looks only where the action could be: the draft picks, the pending
decision's options, or the uses of the action's own coin (``coins.candidates``). In a normal turn the
engine's own instance of a common use (``act``'s, as ``legal`` lists them) is checked directly against the
conditions of ``coins.face_down`` / ``coins.unit_actions`` (:func:`turn_use_is_legal`). A rejected action
changes nothing.
"""

from __future__ import annotations

from duelclub.games.warchest import coins, draft, tactics
from duelclub.games.warchest.actions import DECLINE, Action, cached, key_of
from duelclub.games.warchest.board import IS_LOCATION, N_HEXES
from duelclub.games.warchest.queries import can_hit, to_move_side
from duelclub.games.warchest.state import DRAFT, State
from duelclub.games.warchest.units import COIN_RANK, DECOY_INF, DECOY_SKI, ROYAL, TACTIC_ONLY_ATTACKERS


def is_legal(s: State, side: int, a: Action) -> bool:
    """Is ``a`` (by its fields) a member of ``legal(s, side)``? Checks only the uses of ``a``'s own coin
    (or the pending options, or the draft picks) instead of listing every legal action."""
    if to_move_side(s) != side or not isinstance(a, Action):
        return False
    if s.phase == DRAFT:
        pool = draft.pick_actions(s)
    elif s.pending is not None:
        if s.pending.optional and key_of(a) == key_of(DECLINE):
            return True
        pool = list(s.pending.options)
    else:
        fast = turn_use_is_legal(s, side, a)
        if fast is not None:
            return fast
        pool = coins.candidates(s, side, a)
    k = key_of(a)
    same = cached(k)  # the engine lists cached instances: compare by identity first
    if same is not None and any(x is same for x in pool):
        return True
    return any(key_of(x) == k for x in pool)


def turn_use_is_legal(s: State, side: int, a: Action) -> bool | None:
    """:func:`is_legal` in a normal turn for the engine's own instance (``act``'s, as ``legal`` lists them) of
    a common use of a hand coin, without listing the coin's uses: the conditions of ``coins.face_down`` and
    ``coins.unit_actions`` (the moves and attacks of ``queries.steps1`` / ``attack_targets``) checked
    directly, the tactics among the unit's. ``None``: another instance or use, for the general check."""
    coin = a.coin
    if coin is None or not s.sides[side].hand.get(coin) or coin not in COIN_RANK:
        return False  # not a coin in the hand: no use of it is legal (coins.candidates is empty)
    kind = a.kind
    if kind == "pass":
        return True if coins.PASS.get(coin) is a else None
    if kind == "initiative":
        return (s.initiative != side and not s.changed) if coins.INITIATIVE.get(coin) is a else None
    if kind == "recruit":
        t = a.type
        if coins.RECRUIT.get((coin, t)) is not a:
            return None
        p = s.sides[side]
        return t in p.types and bool(p.supply.get(t or ""))
    if coin in (ROYAL, DECOY_INF, DECOY_SKI):
        return None
    h = a.unit
    if type(h) is not int or not 0 <= h < N_HEXES:
        return None
    units = s.units
    u = units.get(h)
    if u is None or u.owner != side or u.type != coin:
        return None
    uses = coins.USES[coin][h] or coins.unit_uses(coin, h)
    if kind == "move":
        for d, m in uses.moves:
            if m is a:
                return not u.poison and d not in units
    elif kind == "attack":
        for n, m in uses.attacks:
            if m is a:
                v = units.get(n)
                if v is None or v.owner == side or u.type in TACTIC_ONLY_ATTACKERS:
                    return False
                return can_hit(u.height, v)
    elif kind == "bolster":
        return not u.poison if uses.bolster is a else None
    elif kind == "control":
        return (IS_LOCATION[h] and s.control[h] != side) if uses.control is a else None
    elif kind == "cure":
        return bool(u.poison) if uses.cure is a else None
    elif kind == "tactic":
        for x in tactics.options(s, h):
            if x is a:
                return True
    return None
