"""Information-set sampling (§17 last paragraph): re-sample what ``seat`` cannot see.

The opponent's coins that lie in no public zone — hand, bag, face-down discard and a coin drawn by its
Warrior Priest and not yet played — are pooled and dealt back with the same counts; the order of the
four unrevealed decrees is shuffled; the stream key is replaced, so future draws are unknown too.
"""

from __future__ import annotations

import random

from duelclub.games.fairness import Stream
from duelclub.games.warchest import coins
from duelclub.games.warchest.state import OVER, Pending, State, add
from duelclub.games.warchest.units import COIN_ORDER


def determinize(state: State, seat: int, rng: random.Random) -> State:
    s = state.copy()
    s.stream = Stream.at(rng.randbytes(32), state.stream.position)
    if s.phase == OVER:
        return s
    rest = sorted(s.hidden_decrees)
    rng.shuffle(rest)
    s.hidden_decrees = rest
    opp = 1 - s.side_of(seat)
    p = s.sides[opp]
    pd = s.pending
    wp = pd is not None and pd.kind == "wp_play" and pd.owner == opp
    pool = [c for z in (p.hand, p.bag, p.down) for c in COIN_ORDER for _ in range(z.get(c, 0))]
    if wp:
        assert pd is not None
        pool.append(str(pd.data[0]))
    pool.sort(key=COIN_ORDER.index)
    rng.shuffle(pool)
    sizes = [sum(p.hand.values()), sum(p.down.values())]
    p.hand, p.down, p.bag = {}, {}, {}
    i = 0
    for zone, n in ((p.hand, sizes[0]), (p.down, sizes[1])):
        for c in pool[i : i + n]:
            add(zone, c)
        i += n
    if wp:
        coin = pool[i]
        i += 1
        s.pending = Pending(opp, "wp_play", tuple(coins.coin_actions(s, opp, coin)), False, (coin,))
    for c in pool[i:]:
        add(p.bag, c)
    return s
