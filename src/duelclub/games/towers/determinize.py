"""Information-set sampling for bots (DESIGN.md §The game contract — determinize; rules/towers.md §8.3).

``determinize(state, seat, rng)`` returns a copy in which everything ``seat`` cannot see is re-sampled
consistently with what it has seen:

- normal deck: the unseen cards (not in ``seat``'s hand, not in the public discard pile) are the draw pile
  plus the opponent's hand. An unseen card outside ``pool`` (the pile as last formed, public) cannot be in
  the pile, so it stays in the opponent's hand; the rest of that hand is drawn uniformly from the unseen
  ``pool`` cards and the remainder becomes the pile in random order;
- infinite deck: the opponent's hand is re-drawn uniformly (with replacement, D22);
- the stream key is replaced by a random one, so future reshuffles and infinite draws are unknown too.
"""

from __future__ import annotations

import random

from duelclub.games.fairness import Stream
from duelclub.games.towers.cards import IDS, N_CARDS
from duelclub.games.towers.state import FULL_POOL, OVER, State


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A re-sampled copy of ``state`` as ``seat`` may believe it is (a plain copy once over)."""
    s = state.copy()
    if s.phase == OVER:
        return s
    opp = 1 - seat
    s.stream = Stream.at(rng.randbytes(32), state.stream.position)
    n = len(s.hands[opp])
    if s.infinite:
        s.hands[opp] = [rng.randint(1, N_CARDS) for _ in range(n)]
        return s
    seen = {*s.hands[seat], *s.discard}
    pool = s.pool
    kept: list[int] = []
    free: list[int]  # canonical order, then shuffled: the real order must not leak through rng
    if pool == FULL_POOL:  # no reshuffle yet: every unseen card may be in the pile
        free = [c for c in IDS if c not in seen]
    else:
        free = []
        for c in IDS:
            if c not in seen:
                (free if pool >> c & 1 else kept).append(c)
    rng.shuffle(free)
    hand = kept + free[: n - len(kept)]
    rng.shuffle(hand)
    s.hands[opp] = hand
    s.pile = free[n - len(kept) :]
    return s
