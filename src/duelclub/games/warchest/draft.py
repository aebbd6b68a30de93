"""Setup and the draft (§5): side lot, decrees, the three draft variants, coins into bags.

Stream consumers in fairness.md order: (1) ``randint(2)`` = the seat playing Wolf (read even when the
opener chose a side, so the later consumers never move); (2) Nobility: shuffle the 7 decrees;
(3) random deal / eight-card draft: shuffle the pool.
"""

from __future__ import annotations

from duelclub.games.fairness import Stream
from duelclub.games.warchest.actions import Action, WarchestOptions, act
from duelclub.games.warchest.board import RAVEN, START_LOCATIONS, WOLF
from duelclub.games.warchest.events import Events, PickEvent
from duelclub.games.warchest.state import PLAY, State, add
from duelclub.games.warchest.units import DECOYS_PER_UNIT, DECREE_IDS, ROYAL, UNIT, UNIT_IDS, pool_types

CLUB_ORDER = (RAVEN, WOLF, WOLF, RAVEN, RAVEN, WOLF, WOLF, RAVEN)  # D4: 1-2-2-2-1, Raven first


def new_state(key: bytes, options: WarchestOptions) -> State:
    """The state before the first pick (or, for the random deal, at the start of round 1 minus the draw)."""
    s = State(Stream(key), options.nobility, options.nightfall, options.draft)
    lot = s.stream.randint(2)
    s.wolf_seat = {"random": lot, "wolf": 0, "raven": 1}[options.side]
    for side in (WOLF, RAVEN):
        for h in START_LOCATIONS[side]:
            s.control[h] = side
    if s.nobility:
        order = s.stream.shuffled(DECREE_IDS)
        s.decrees, s.hidden_decrees = order[:3], order[3:]
    pool = pool_types(s.nobility, s.nightfall)
    if options.draft == "random":
        dealt = s.stream.shuffled(pool)
        s.sides[WOLF].types = dealt[0:4]
        s.sides[RAVEN].types = dealt[4:8]
        finish(s)
    elif options.draft == "eight":
        revealed = s.stream.shuffled(pool)[:8]
        s.draft_pool = [t for t in UNIT_IDS if t in revealed]
        s.draft_order = list(CLUB_ORDER[:7])
    else:
        s.draft_pool = pool
        s.draft_order = list(CLUB_ORDER)
    return s


def finish(s: State) -> None:
    """§5 steps 5–6: two coins of each type and the Royal coin into the bag, the rest to supply."""
    for side in (WOLF, RAVEN):
        p = s.sides[side]
        for t in p.types:
            p.bag[t] = 2
            p.supply[t] = UNIT[t].coins - 2
            if t in ("infiltrator", "skirmisher"):
                p.decoys[t] = DECOYS_PER_UNIT
        add(p.bag, ROYAL)
    s.phase = PLAY
    s.draft_pool, s.draft_order = [], []


def pick_actions(s: State) -> list[Action]:
    return [act("pick", type=t) for t in s.draft_pool]


def pick(s: State, side: int, a: Action, ev: Events) -> None:
    """One draft pick (legality checked by the caller); ends the draft after the last one."""
    assert a.type is not None
    s.draft_pool.remove(a.type)
    s.draft_order.pop(0)
    s.sides[side].types.append(a.type)
    ev.append(PickEvent(kind="pick", seat=s.seat_of(side), side=side, type=a.type, dealt=False))
    if not s.draft_order:
        if s.draft_variant == "eight":
            last = s.draft_pool[0]
            s.sides[RAVEN].types.append(last)
            ev.append(PickEvent(kind="pick", seat=s.seat_of(RAVEN), side=RAVEN, type=last, dealt=True))
        finish(s)
