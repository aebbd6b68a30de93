"""The Сундук войны match state: slots classes of dicts, ints and tuples, fast to copy (§15).

- ``Side``: one side's coin zones as multisets ``{coin kind: count}`` (only positive counts are kept),
  its drafted types, marker reserve and decoy pool.
- ``Unit``: an immutable stack on a hex (owner side, type, height, poison seal bits, uid). Units are
  replaced, never mutated, so copying the board is a dict copy.
- ``Pending``: a decision in the middle of a turn (§16): owner side, kind, options, optional flag and a
  small data tuple (e.g. the coin drawn by the Warrior Priest).
- ``stack``: the continuation stack of tuples resolved depth-first by ``engine.run``.

Sides are 0 = Wolf, 1 = Raven; the seat that plays Wolf is ``wolf_seat``, so ``seat = side ^ wolf_seat``.
"""

from __future__ import annotations

from typing import NamedTuple

from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream
from duelclub.games.warchest.actions import Action
from duelclub.games.warchest.board import N_HEXES
from duelclub.games.warchest.events import Reason

DRAFT, PLAY, OVER = "draft", "play", "over"
Task = tuple[object, ...]


class Unit(NamedTuple):
    owner: int
    type: str
    height: int
    poison: int
    uid: int


class Pending(NamedTuple):
    owner: int
    kind: str
    options: tuple[Action, ...]
    optional: bool
    data: tuple[object, ...] = ()


def add(zone: dict[str, int], coin: str, n: int = 1) -> None:
    """Add ``n`` coins of ``coin`` to a multiset zone."""
    zone[coin] = zone.get(coin, 0) + n


def take(zone: dict[str, int], coin: str, n: int = 1) -> None:
    """Remove ``n`` coins of ``coin``; the caller has checked they are there."""
    left = zone[coin] - n
    if left:
        zone[coin] = left
    else:
        del zone[coin]


class Side:
    """One side's private and public zones (§15 per side)."""

    __slots__ = ("bag", "decoys", "down", "elim", "hand", "reserve", "supply", "types", "up")

    def __init__(self) -> None:
        self.types: list[str] = []
        self.bag: dict[str, int] = {}
        self.hand: dict[str, int] = {}
        self.up: dict[str, int] = {}
        self.down: dict[str, int] = {}
        self.supply: dict[str, int] = {}
        self.elim: dict[str, int] = {}
        self.decoys: dict[str, int] = {}
        self.reserve = 4

    def copy(self) -> Side:
        c = Side.__new__(Side)
        c.types = self.types[:]
        c.bag, c.hand, c.up, c.down = self.bag.copy(), self.hand.copy(), self.up.copy(), self.down.copy()
        c.supply, c.elim, c.decoys = self.supply.copy(), self.elim.copy(), self.decoys.copy()
        c.reserve = self.reserve
        return c


class State:
    """A whole match (see the module docstring)."""

    __slots__ = (
        "changed",
        "control",
        "decrees",
        "draft_order",
        "draft_pool",
        "draft_variant",
        "hidden_decrees",
        "initiative",
        "nightfall",
        "nobility",
        "outcome",
        "pending",
        "phase",
        "round",
        "sealed",
        "sides",
        "stack",
        "stream",
        "turn",
        "uid",
        "units",
        "wolf_seat",
    )

    def __init__(self, stream: Stream, nobility: bool, nightfall: bool, draft_variant: str) -> None:
        self.stream = stream
        self.nobility = nobility
        self.nightfall = nightfall
        self.draft_variant = draft_variant
        self.wolf_seat = 0
        self.phase = DRAFT
        self.draft_pool: list[str] = []  # types still available to pick
        self.draft_order: list[int] = []  # sides still to pick, next first
        self.decrees: list[str] = []
        self.hidden_decrees: list[str] = []
        self.sealed: tuple[set[str], set[str]] = (set(), set())
        self.sides: tuple[Side, Side] = (Side(), Side())
        self.control: list[int] = [-1] * N_HEXES
        self.units: dict[int, Unit] = {}
        self.initiative = 0
        self.changed = False
        self.round = 0
        self.turn = 0
        self.stack: list[Task] = []
        self.pending: Pending | None = None
        self.outcome: Outcome[Reason] | None = None
        self.uid = 0

    def copy(self) -> State:
        c = State.__new__(State)
        c.stream = self.stream.copy()
        c.nobility, c.nightfall, c.draft_variant = self.nobility, self.nightfall, self.draft_variant
        c.wolf_seat, c.phase = self.wolf_seat, self.phase
        c.draft_pool, c.draft_order = self.draft_pool[:], self.draft_order[:]
        c.decrees, c.hidden_decrees = self.decrees[:], self.hidden_decrees[:]
        c.sealed = (set(self.sealed[0]), set(self.sealed[1]))
        c.sides = (self.sides[0].copy(), self.sides[1].copy())
        c.control = self.control[:]
        c.units = self.units.copy()
        c.initiative, c.changed, c.round, c.turn = self.initiative, self.changed, self.round, self.turn
        c.stack = self.stack[:]
        c.pending = self.pending
        c.outcome = self.outcome
        c.uid = self.uid
        return c

    def seat_of(self, side: int) -> int:
        return side ^ self.wolf_seat

    def side_of(self, seat: int) -> int:
        return seat ^ self.wolf_seat
