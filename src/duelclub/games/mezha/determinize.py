"""Information-set sampling for bots (DESIGN.md §The game contract — determinize).

``determinize(state, seat, rng)`` returns a copy in which everything ``seat`` cannot see is re-sampled
consistently with what it has seen (rules/mezha.md §What each player sees):

- the opponent's unseen cards (its 20 minus its face-up units and discards) are dealt again: first the
  identities of its face-down units, then its hand (same size), then its deck (same size, random order);
- a face-down unit must be a тайник card (Тень в листве or Сова-дозорная); the opponent never sees its
  growth events (``view.event_view``), so its identity is drawn from the unseen тайник cards and its
  strength recomputed from its public history (Оттепель, Роса count, later own entries on its field);
- ``seat``'s own deck order and the omens of later seasons are shuffled;
- the stream key is replaced by a random one (the real key would reveal the deal; Mezha never reads the
  stream after setup).

Not modelled: an automatic pass with cards in hand shows that the hand held no tactic at that moment; the
sample may put a tactic in such a hand (harmless for play: that player cannot act again this season).
"""

from __future__ import annotations

import random

from duelclub.games.fairness import Stream
from duelclub.games.mezha.cards import CARDS, HIDDEN, HOUSE_KINDS
from duelclub.games.mezha.state import OVER, State


def _pick(pool: list[int], kinds: list[int], rng: random.Random) -> int:
    """Remove and return one card of ``kinds`` from the count list ``pool``, weighted by count."""
    r = rng.randrange(sum(pool[k] for k in kinds))
    for k in kinds:
        if r < pool[k]:
            pool[k] -= 1
            return k
        r -= pool[k]
    raise AssertionError("unreachable: the real state is a witness")


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A re-sampled copy of ``state`` as ``seat`` may believe it is (a plain copy once over)."""
    s = state.copy()
    if s.phase == OVER:
        return s
    opp = 1 - seat
    # Sort before shuffling: shuffling the real order would let a caller who knows ``rng``'s seed undo it.
    s.decks[seat].sort()
    rng.shuffle(s.decks[seat])
    if s.season < 4:
        later = sorted(s.omens[s.season :])
        rng.shuffle(later)
        s.omens[s.season :] = later
    s.stream = Stream.at(rng.randbytes(32), state.stream.position)

    pool = [0] * len(CARDS)
    for k in HOUSE_KINDS[s.houses[opp]]:
        pool[k] = CARDS[k].copies
    for k in s.discards[opp]:
        pool[k] -= 1
    unknown = []
    for field in s.halves:
        for u in field[opp]:
            if u.face_down:
                unknown.append(u)
            else:
                pool[u.kind] -= 1
    cache_kinds = [k for k in HOUSE_KINDS[s.houses[opp]] if HIDDEN[k]]
    for u in unknown:
        u.kind = _pick(pool, cache_kinds, rng)
        u.strength = u.hidden_strength(u.kind)

    rest = [k for k, n in enumerate(pool) for _ in range(n)]  # canonical order, then shuffled
    rng.shuffle(rest)
    n_hand = sum(s.hands[opp])
    hand, bits = [0] * len(CARDS), 0
    for k in rest[:n_hand]:
        hand[k] += 1
        bits |= 1 << k
    s.hands[opp] = hand
    s.in_hand[opp] = bits
    s.decks[opp] = rest[n_hand:]
    return s
