"""What each seat sees (§17, D39): ``view``, ``full_view`` and ``event_view``.

Hidden from the opponent and spectators: hand contents, bag contents, the face-down discard (a count
only), the coin drawn by the Warrior Priest, the options of a pending decision, the order of the
unrevealed decrees (count only until the match ends) and the stream.
"""

from __future__ import annotations

from duelclub.games.contract import JSON
from duelclub.games.warchest.board import SIDE_NAMES
from duelclub.games.warchest.state import OVER, State
from duelclub.games.warchest.units import ASSASSIN_SEAL, COIN_ORDER, SABOTEUR_SEAL, sort_coins

_SEALS = (("assassin", ASSASSIN_SEAL), ("saboteur", SABOTEUR_SEAL))


def _zone(z: dict[str, int]) -> dict[str, int]:
    return {c: z[c] for c in COIN_ORDER if z.get(c)}


def _coins(z: dict[str, int]) -> list[str]:
    return sort_coins([c for c, n in z.items() for _ in range(n)])


def _poison_seals_free(s: State, side: int) -> list[str]:
    """Own poison seals not lying on an enemy unit (§17: public)."""
    out = []
    for t, bit in (("assassin", ASSASSIN_SEAL), ("saboteur", SABOTEUR_SEAL)):
        if t in s.sides[side].types and not any(u.poison & bit for u in s.units.values() if u.owner != side):
            out.append(t)
    return out


def _side(s: State, side: int, secret: bool) -> JSON:
    p = s.sides[side]
    out: JSON = {
        "side": SIDE_NAMES[side],
        "seat": s.seat_of(side),
        "types": p.types[:],
        "hand_count": sum(p.hand.values()),
        "bag_count": sum(p.bag.values()),
        "discard_up": _zone(p.up),
        "discard_down_count": sum(p.down.values()),
        "supply": _zone(p.supply),
        "eliminated": _zone(p.elim),
        "decoys": _zone(p.decoys),
        "reserve": p.reserve,
        "markers_on_board": 6 - p.reserve,
        "seals_left": 3 - len(s.sealed[side]) if s.nobility else 0,
        "poison_seals_free": _poison_seals_free(s, side),
    }
    if secret:
        out["hand"] = _coins(p.hand)
        out["bag"] = _zone(p.bag)
        out["discard_down"] = _zone(p.down)
    return out


def _base(s: State, seat: int | None, omniscient: bool) -> JSON:
    me = None if seat is None else s.side_of(seat)
    pd = s.pending
    pending: JSON | None = None
    if pd is not None:
        pending = {"kind": pd.kind, "seat": s.seat_of(pd.owner), "side": SIDE_NAMES[pd.owner]}
        if pd.kind == "wp_play" and (omniscient or pd.owner == me):
            pending["coin"] = pd.data[0]
    from duelclub.games.warchest.engine import to_move_side

    mover = to_move_side(s)
    over = s.phase == OVER
    return {
        "phase": s.phase,
        "you": None if me is None else SIDE_NAMES[me],
        "your_seat": seat,
        "wolf_seat": s.wolf_seat,
        "expansions": {"nobility": s.nobility, "nightfall": s.nightfall},
        "draft": {"variant": s.draft_variant, "pool": s.draft_pool[:],
                  "order": [SIDE_NAMES[x] for x in s.draft_order]},
        "round": s.round,
        "turn": None if mover is None else SIDE_NAMES[mover],
        "to_move_seat": None if mover is None else s.seat_of(mover),
        "initiative": SIDE_NAMES[s.initiative],
        "initiative_changed": s.changed,
        "units": [
            {
                "hex": h,
                "side": SIDE_NAMES[u.owner],
                "type": u.type,
                "height": u.height,
                "poison": [n for n, b in _SEALS if u.poison & b],
            }
            for h, u in sorted(s.units.items())
        ],
        "control": {str(h): SIDE_NAMES[c] for h, c in enumerate(s.control) if c >= 0},
        "decrees": [
            {"id": d, "seals": [SIDE_NAMES[x] for x in (0, 1) if d in s.sealed[x]]} for d in s.decrees
        ],
        "hidden_decrees": s.hidden_decrees[:] if (omniscient or over) else len(s.hidden_decrees),
        "sides": [
            _side(s, x, omniscient or x == me) for x in (0, 1)
        ],
        "pending": pending,
        "outcome": None if s.outcome is None else s.outcome.to_json(),
    }  # fmt: skip


def view(state: State, seat: int | None) -> JSON:
    """What ``seat`` may know (None: a spectator), JSON-ready (§17)."""
    return _base(state, seat, False)


def full_view(state: State) -> JSON:
    """Everything (replays of finished matches, admins)."""
    return _base(state, None, True)


def event_view(state: State, event: JSON, seat: int | None) -> JSON:
    """The event without its ``secret`` part, whose fields (a drawn or face-down coin) are folded in for the
    event's own ``seat`` only."""
    out = {k: v for k, v in event.items() if k != "secret"}
    secret = event.get("secret")
    if secret is not None and seat is not None and seat == event.get("seat"):
        out.update(secret)
    return out
