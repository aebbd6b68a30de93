"""Information-set sampling for bots and privacy tests (DESIGN.md §The game contract — determinize).

``determinize(state, seat, rng)`` returns a copy in which everything ``seat`` cannot see is re-sampled
consistently with what it has seen (rules/artania.md §What each player sees):

- ``seat``'s own deck order is shuffled (its content is known: 33 cards minus hand, field and discards);
- the opponent's unseen cards (33 minus its battlefield, discards and publicly known hand cards, D35) are
  dealt again: its hand keeps its size and its known cards, its deck its size, in a random order;
- when a placement showed that the opponent's hand holds no warrior (``no_warrior``, D10), its unknown hand
  cards are drawn from the unseen equipment only (the real state is a witness that this is possible);
- the stream key is replaced by a random one (the real key would reveal the deal; the game never reads the
  stream after setup).
"""

from __future__ import annotations

import random

from duelclub.games.artania.cards import EQUIPMENT_MASK, FULL_DECK_MASK, N_CARDS, mask_indexes
from duelclub.games.artania.state import OVER, State
from duelclub.games.fairness import Stream

_DRAWS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1)) for n in range(N_CARDS + 1)
)
"""``_DRAWS[n]``: ``random.shuffle``'s steps on ``n`` items: swap ``i`` with a ``j <= i`` drawn as
``getrandbits(k)`` until one is ``<= i``, with ``k`` the bit length of ``i + 1`` (its ``_randbelow``)."""


def _shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, draw for draw (the same ``getrandbits`` calls, so the same order and the same
    ``rng`` afterwards) at twice its speed; another generator class than ``random.Random`` (whose
    ``shuffle`` may draw otherwise) gets its own ``shuffle``."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i, k in _DRAWS[len(x)]:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _seen(state: State, seat: int) -> int:
    """The cards of ``seat``'s deck-of-33 whose place everyone knows: battlefield and discards."""
    m = 0
    for c in state.slots[seat]:
        if c >= 0:
            m |= 1 << c
    for c in state.discards[seat]:
        m |= 1 << c
    return m


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A re-sampled copy of ``state`` as ``seat`` may believe it is (a plain copy once over)."""
    s = state.copy()
    if s.step == OVER:
        return s
    # Sort before shuffling: shuffling the real order would let a caller who knows ``rng``'s seed undo it.
    own = sorted(s.decks[seat])
    _shuffle(rng, own)
    s.decks[seat] = own
    s.stream = Stream.at(rng.randbytes(32), state.stream.position)

    opp = 1 - seat
    known = s.known[opp]
    unseen = FULL_DECK_MASK & ~_seen(s, opp) & ~known
    n_hidden = s.hands[opp].bit_count() - known.bit_count()
    if s.no_warrior[opp]:
        hand_pool = mask_indexes(unseen & EQUIPMENT_MASK)
        pick = rng.sample(hand_pool, n_hidden)
    else:
        pool = mask_indexes(unseen)
        _shuffle(rng, pool)
        pick = pool[:n_hidden]
    hand = known
    for c in pick:
        hand |= 1 << c
    rest = mask_indexes(unseen & ~hand)  # canonical order, then shuffled
    _shuffle(rng, rest)
    s.hands[opp] = hand
    s.decks[opp] = rest
    return s
