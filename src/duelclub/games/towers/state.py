"""The Дві вежі match state: one ``__slots__`` class of small lists, fast to copy (no deepcopy).

Layout (docs/positions/towers.md gives the JSON form):

- ``p[seat]`` — the eight counters in ``dsl.ATTRS`` order (tower, wall, mines, monasteries, barracks, ore,
  mana, troops);
- ``hands[seat]`` — card ids in hand order (§5 step 3: drawn cards are appended);
- ``pile`` — the normal deck's draw pile with the **top at the end** (``pop()`` draws); ``discard`` — the
  shared discard pile in arrival order (§8.1). Both empty for the infinite deck;
- ``pool`` — bit ``c`` set for every card that was in the draw pile when it was last formed (the deal or the
  latest reshuffle); public, it lets ``determinize`` keep the opponent's older cards out of the pile;
- ``last[seat]`` — ``(card, tag)`` of the cards that left that seat's hand in its most recent turn (§8.3);
- ``history`` — every card that left a hand, newest first, as an immutable linked list
  ``(seat, card, tag, older)`` shared between copies.
"""

from __future__ import annotations

from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream
from duelclub.games.towers.events import Reason

MAIN, EXTRA, FORCED, OVER = 0, 1, 2, 3
PHASES: tuple[str, str, str, str] = ("main", "extra", "forced_discard", "over")
"""§1 phases: the turn's action, the extra action after «Граємо знову», the forced discard of draw_discard."""

PLAY, DISCARD, FORCED_DISCARD, TIMEOUT_DISCARD = 0, 1, 2, 3
TAGS: tuple[str, str, str, str] = ("play", "discard", "forced_discard", "timeout_discard")
"""How a card left a hand (§8.3)."""

History = tuple[int, int, int, "History"] | None
"""``(seat, card, tag, older)`` — newest first; None is the empty history."""

FULL_POOL = sum(1 << c for c in range(1, 103))


class State:
    """One match. Mutated in place by ``rules.apply``; :meth:`copy` is cheap."""

    __slots__ = (
        "active",
        "again",
        "discard",
        "field",
        "hands",
        "history",
        "infinite",
        "last",
        "outcome",
        "p",
        "phase",
        "pile",
        "pool",
        "stream",
        "timeouts",
        "turn",
    )

    stream: Stream
    field: int
    infinite: bool
    p: list[list[int]]
    hands: list[list[int]]
    pile: list[int]
    discard: list[int]
    pool: int
    active: int
    turn: int
    phase: int
    again: bool
    timeouts: list[int]
    last: list[list[tuple[int, int]]]
    history: History
    outcome: Outcome[Reason] | None

    def copy(self) -> State:
        s = State.__new__(State)
        s.stream = self.stream.copy()
        s.field, s.infinite = self.field, self.infinite
        s.p = [self.p[0][:], self.p[1][:]]
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.pile = self.pile[:]
        s.discard = self.discard[:]
        s.pool = self.pool
        s.active, s.turn, s.phase, s.again = self.active, self.turn, self.phase, self.again
        s.timeouts = self.timeouts[:]
        s.last = [self.last[0][:], self.last[1][:]]
        s.history = self.history
        s.outcome = self.outcome
        return s


def history_list(h: History) -> list[tuple[int, int, int]]:
    """The history oldest first as ``(seat, card, tag)``."""
    out: list[tuple[int, int, int]] = []
    while h is not None:
        out.append((h[0], h[1], h[2]))
        h = h[3]
    out.reverse()
    return out
