"""The Артания и Куявия match state: one ``__slots__`` class of ints and short lists, fast to copy.

Layout (docs/positions/artania.md gives the JSON form):

- ``hands[seat]`` — a 33-bit mask over card indexes (cards.py); ``known[seat]`` ⊆ ``hands[seat]`` are the
  cards everyone saw go into that hand (an equipment card from a tie-break, D35);
- ``no_warrior[seat]`` — public knowledge that the hand holds no warrior (a placement left a slot empty,
  D10) until the hand next receives a card; ``determinize`` honours it;
- ``decks[seat]`` — card indexes, index 0 the top; ``discards[seat]`` — in arrival order (D24);
- ``slots[seat][k]`` — slot ``k + 1``: a card index, or ``PENDING`` (its step has not come), ``EMPTY``
  (its step left it empty, D10) or ``REMOVED`` (Идол гнева took its card, D15);
- ``nektar[seat][k]`` — owners of the Нектары on that slot's card: bit 0 seat 0's, bit 1 seat 1's (D14);
- ``step`` — index into ``STEPS`` (W0 P1 W1 P2 W2 P3 W3 P4 W4) or ``OVER``; in a window ``actor`` is the
  player to act and ``passes`` the count of consecutive passes (§Equipment windows, rule 3);
- ``first`` — F of the current turn (D20); ``turn`` counts from 1;
- ``plays`` — this turn's public equipment plays; ``results`` — one record per scored turn (never mutated).
"""

from __future__ import annotations

from typing import Any

from duelclub.games.artania.events import Reason
from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream

PENDING, EMPTY, REMOVED = -1, -2, -3
SLOT_STATES: dict[int, str] = {PENDING: "pending", EMPTY: "empty", REMOVED: "removed"}

STEPS: tuple[str, ...] = ("W0", "P1", "W1", "P2", "W2", "P3", "W3", "P4", "W4")
OVER = len(STEPS)
LAST_WINDOW = OVER - 1
# rules/artania.md §A turn: a placement step's slots (0-based), in the step's order; True = F places.
PLACE_SLOTS: dict[int, tuple[int, ...]] = {1: (0,), 3: (0, 1), 5: (1, 2), 7: (2,)}
F_PLACES: dict[int, bool] = {1: True, 3: False, 5: True, 7: False}
# A window's first actor is the player who did not just place (D12): F in W0, W2, W4; S in W1, W3.
F_OPENS: dict[int, bool] = {0: True, 2: False, 4: True, 6: False, 8: True}
# The same as a role per step (0 = F, 1 = S): who places in a placement step, who opens a window; so the seat
# is ``first ^ ROLE[step]``.
ROLE: tuple[int, ...] = tuple(
    (0 if F_PLACES[step] else 1) if step % 2 else (0 if F_OPENS[step] else 1) for step in range(OVER)
)

JSONDict = dict[str, Any]


class State:
    """One match. Mutated in place by ``rules.apply``; :meth:`copy` is cheap (no deepcopy)."""

    __slots__ = (
        "actor",
        "decks",
        "discards",
        "first",
        "hands",
        "known",
        "nektar",
        "no_warrior",
        "outcome",
        "passes",
        "plays",
        "results",
        "seat_decks",
        "slots",
        "step",
        "stream",
        "tokens",
        "turn",
    )

    stream: Stream
    seat_decks: tuple[int, int]
    hands: list[int]
    known: list[int]
    no_warrior: list[bool]
    decks: list[list[int]]
    discards: list[list[int]]
    slots: list[list[int]]
    nektar: list[list[int]]
    tokens: list[int]
    turn: int
    first: int
    step: int
    actor: int
    passes: int
    plays: list[JSONDict]
    results: list[JSONDict]
    outcome: Outcome[Reason] | None

    def copy(self) -> State:
        s = State.__new__(State)
        s.stream = self.stream
        s.seat_decks = self.seat_decks
        s.hands = self.hands[:]
        s.known = self.known[:]
        s.no_warrior = self.no_warrior[:]
        s.decks = [self.decks[0][:], self.decks[1][:]]
        s.discards = [self.discards[0][:], self.discards[1][:]]
        s.slots = [self.slots[0][:], self.slots[1][:]]
        s.nektar = [self.nektar[0][:], self.nektar[1][:]]
        s.tokens = self.tokens[:]
        s.turn, s.first, s.step, s.actor, s.passes = self.turn, self.first, self.step, self.actor, self.passes
        s.plays = self.plays[:]  # play records are never mutated once recorded
        s.results = self.results[:]
        s.outcome = self.outcome
        return s

    @property
    def second(self) -> int:
        return 1 - self.first

    def to_act(self) -> int:
        """The seat due to act now (-1 once over)."""
        step = self.step
        if step == OVER:
            return -1
        return self.first ^ ROLE[step] if step & 1 else self.actor
