"""The Межа match state: plain ``__slots__`` classes and compact lists, fast to copy (no deepcopy).

Layout (see docs/positions.md §mezha for the JSON form):

- ``hands[seat]`` — 20 counts indexed by card kind (a hand is a multiset, D18); ``in_hand[seat]`` — the same
  hand as a bit set (bit ``k`` set while ``hands[seat][k] > 0``), kept in step by every change of a hand
  (:func:`take_card`, ``effects.draw``, :func:`hand_bits`) so legal actions are a table look-up;
- ``decks[seat]`` — card kinds, index 0 the top; ``discards[seat]`` — kinds in arrival order;
- ``halves[field][seat]`` — the :class:`Unit` list of that half, in placement order (D13); ``room[seat]`` —
  bit ``f`` set while that seat's half of field ``f`` has a free slot this season (:func:`refresh_room`
  after every change of a half's length or of the capacity);
- ``omens`` — the 4 omen indexes in drawn order, season ``n`` uses ``omens[n - 1]`` (D7);
- ``thaw_used[seat][field]`` — whether that player already put a unit onto that field this season (D16).
"""

from __future__ import annotations

from duelclub.games.contract import Outcome
from duelclub.games.fairness import Stream
from duelclub.games.mezha.cards import (
    DROUGHT,
    DROUGHT_SLOTS,
    HALF_SLOTS,
    HAS_SHIELD,
    HAS_SPROUT,
    IS_TACTIC,
    STRENGTH,
)
from duelclub.games.mezha.events import Reason

SEASON, PAUSE, OVER = 0, 1, 2
PHASES: tuple[str, str, str] = ("season", "pause", "over")
JSONDict = dict[str, object]


class Unit:
    """A unit on a field.

    ``shield`` is True while an unspent щит remains; ``season`` is the season it was put onto the field
    (a carried root unit keeps it, D3). ``thaw``, ``rosa`` and ``opps`` record its public history while face
    down (Оттепель bonus received, Роса count, other own units that entered its field since), so
    ``determinize`` can give a re-sampled face-down identity the matching strength.
    """

    __slots__ = ("face_down", "kind", "opps", "placement", "rosa", "season", "shield", "strength", "thaw")

    def __init__(self, kind: int, placement: int, face_down: bool, season: int) -> None:
        self.kind = kind
        self.strength = STRENGTH[kind]
        self.shield = HAS_SHIELD[kind]
        self.placement = placement
        self.face_down = face_down
        self.season = season
        self.thaw = False
        self.rosa = 0
        self.opps = 0

    def clone(self) -> Unit:
        u = Unit.__new__(Unit)
        u.kind, u.strength, u.shield, u.placement = self.kind, self.strength, self.shield, self.placement
        u.face_down, u.season, u.thaw, u.rosa, u.opps = (
            self.face_down,
            self.season,
            self.thaw,
            self.rosa,
            self.opps,
        )
        return u

    def hidden_strength(self, kind: int) -> int:
        """The strength this face-down unit would have if it were ``kind`` (same public history).

        A face-down unit is never damaged (§Abilities — Тайник) and only Ольха's own buffs reach it:
        base + Оттепель + Роса (+2 for росток, else +1) + one per росток trigger (D14 step 6).
        """
        sprout = HAS_SPROUT[kind]
        return (
            STRENGTH[kind]
            + (2 if self.thaw else 0)
            + self.rosa * (2 if sprout else 1)
            + (self.opps if sprout else 0)
        )


class State:
    """One Межа match. Mutated in place by ``rules.apply``; :meth:`copy` is cheap."""

    __slots__ = (
        "auto",
        "decks",
        "discards",
        "halves",
        "hands",
        "houses",
        "in_hand",
        "omens",
        "outcome",
        "passed",
        "phase",
        "placements",
        "results",
        "room",
        "season",
        "starter",
        "stream",
        "thaw_used",
        "turn",
        "wins",
    )

    stream: Stream
    houses: tuple[int, int]
    hands: list[list[int]]
    in_hand: list[int]
    decks: list[list[int]]
    discards: list[list[int]]
    halves: list[list[list[Unit]]]
    room: list[int]
    omens: list[int]
    season: int
    phase: int
    starter: int
    turn: int
    passed: list[bool]
    auto: list[bool]
    thaw_used: list[list[bool]]
    placements: int
    results: list[JSONDict]
    wins: list[int]
    outcome: Outcome[Reason] | None

    def copy(self) -> State:
        s = State.__new__(State)
        s.stream = self.stream.copy()
        s.houses = self.houses
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.in_hand = self.in_hand[:]
        s.decks = [self.decks[0][:], self.decks[1][:]]
        s.discards = [self.discards[0][:], self.discards[1][:]]
        clone = Unit.clone
        (a0, a1), (b0, b1), (c0, c1) = self.halves
        s.halves = [
            [list(map(clone, a0)), list(map(clone, a1))],
            [list(map(clone, b0)), list(map(clone, b1))],
            [list(map(clone, c0)), list(map(clone, c1))],
        ]
        s.room = self.room[:]
        s.omens = self.omens[:]
        s.season, s.phase, s.starter, s.turn = self.season, self.phase, self.starter, self.turn
        s.passed = self.passed[:]
        s.auto = self.auto[:]
        s.thaw_used = [self.thaw_used[0][:], self.thaw_used[1][:]]
        s.placements = self.placements
        s.results = self.results[:]  # result dicts are never mutated once recorded
        s.wins = self.wins[:]
        s.outcome = self.outcome
        return s

    @property
    def omen(self) -> int:
        """The current season's omen index (cards.OMENS)."""
        return self.omens[self.season - 1]

    def capacity(self) -> int:
        """Units per half this season: 4, or 3 under Засуха (§Omens — Засуха)."""
        return DROUGHT_SLOTS if self.omens[self.season - 1] == DROUGHT else HALF_SLOTS

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def has_legal_play(self, seat: int) -> bool:
        """False exactly when the automatic pass applies (§A season — Passing; D1: a tactic is a play)."""
        bits = self.in_hand[seat]
        return bool(bits & TACTIC_BITS or (bits and self.room[seat]))


def refresh_room(state: State) -> None:
    """Recompute :attr:`State.room` from the halves and this season's capacity."""
    cap = state.capacity()
    luh, brod, kholm = state.halves
    state.room = [
        (len(luh[0]) < cap) | (len(brod[0]) < cap) << 1 | (len(kholm[0]) < cap) << 2,
        (len(luh[1]) < cap) | (len(brod[1]) < cap) << 1 | (len(kholm[1]) < cap) << 2,
    ]


TACTIC_BITS = sum(1 << k for k, tactic in enumerate(IS_TACTIC) if tactic)
"""The bits of :attr:`State.in_hand` that are tactics (Роса, Поджог)."""


def hand_bits(hand: list[int]) -> int:
    """A hand's counts as the :attr:`State.in_hand` bit set."""
    bits = 0
    for k, n in enumerate(hand):
        if n:
            bits |= 1 << k
    return bits


def take_card(state: State, seat: int, kind: int) -> None:
    """One card ``kind`` leaves ``seat``'s hand (the caller has checked it is there)."""
    hand = state.hands[seat]
    left = hand[kind] - 1
    hand[kind] = left
    if not left:
        state.in_hand[seat] &= ~(1 << kind)


def result_copy(result: JSONDict) -> JSONDict:
    """A copy of a season result record whose lists are not shared with the state."""
    out = dict(result)
    for key in ("fields", "strength"):
        value = out.get(key)
        if isinstance(value, list):
            out[key] = list(value)
    totals = out.get("totals")
    if isinstance(totals, list):
        out["totals"] = [list(t) for t in totals]
    return out
