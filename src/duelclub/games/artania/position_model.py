"""The declared Артания и Куявия position model (docs/positions/artania.md; schema
docs/positions/artania.schema.json).

:class:`ArtaniaPosition` validates the shape (strict types, bounds, card ids, list lengths) and every
cross-field rule of a reachable state: each seat's 33 cards, slots filled exactly by their steps, Нектар
only on class warriors (D14), ``known`` only equipment from a tie-break (D35), ``no_warrior`` only for a hand
without warriors (D10), the automatic pass for an empty hand already taken (windows rule 6), the turn records
(numbering, alternating F, token arithmetic) and the outcome (five tokens end the game at once, D22, D23).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import ConfigDict, Field, model_validator, with_config
from typing_extensions import TypedDict

from duelclub.games.artania.cards import (
    CLASS_OF,
    DECKS,
    IDS,
    INDEX,
    IS_WARRIOR,
    N_CARDS,
    TOKEN_POOL,
    TOKENS_TO_WIN,
)
from duelclub.games.artania.state import STEPS
from duelclub.games.position_model import (
    Pair,
    PositionModel,
    Seat,
    StreamModel,
    Triple,
    Version1,
    need,
)

if TYPE_CHECKING:
    CardId = str
    Deck = str
    Step = str
    Window = str
else:
    CardId = Literal[IDS]
    Deck = Literal[DECKS]
    Step = Literal[(*STEPS, "over")]
    Window = Literal[STEPS[::2]]

VERSION = 1
_SORTED_IDS = sorted(IDS)
MAX_TURNS = 11  # §End of the game — Termination: a game lasts at most 11 turns
# The step at which each slot is filled: [F slots, S slots] (rules/artania.md §A turn).
FILL_STEP = ((1, 5, 5), (3, 3, 7))
SlotCode = Literal["pending", "empty", "removed"]
Tokens = Annotated[int, Field(ge=0, le=TOKENS_TO_WIN)]
Cards = Annotated[list[CardId], Field(max_length=N_CARDS)]
Swords = Annotated[int, Field(ge=0, le=99)]


# The records below are TypedDicts: they validate straight into the plain dicts the state keeps (records
# are never mutated), which is several times faster than models dumped back to dicts.
_RECORD = ConfigDict(strict=True, extra="forbid")


@with_config(_RECORD)
class ScoredSlot(TypedDict):
    """One slot as scored (``scoring.slot_json``): base swords, counter-class bonus, Нектар swords."""

    slot: Annotated[int, Field(ge=1, le=3)]
    state: Literal["card", "empty", "removed"]
    card: CardId | None
    base: Annotated[int, Field(ge=0, le=4)]
    bonus: Annotated[int, Field(ge=0, le=2)]
    nektar: Annotated[int, Field(ge=0, le=4)]
    nektar_by: Annotated[list[Seat], Field(max_length=2)]
    total: Swords


@with_config(_RECORD)
class TiebreakRound(TypedDict):
    """One tie-break round (§Tie-break): the revealed deck tops, their values, equipment sent to a hand."""

    round: Annotated[int, Field(ge=1, le=N_CARDS)]
    cards: Pair[CardId | None]
    values: Pair[Annotated[int, Field(ge=0, le=4)]]
    to_hand: Pair[CardId | None]


@with_config(_RECORD)
class TurnResult(TypedDict):
    """One scored turn (``scoring.finish_turn``)."""

    turn: Annotated[int, Field(ge=1, le=MAX_TURNS)]
    first: Seat
    slots: Pair[Triple[ScoredSlot]]
    totals: Pair[Swords]
    tiebreak: Annotated[list[TiebreakRound], Field(max_length=N_CARDS)]
    winner: Seat | None
    tokens: Pair[Tokens]


@with_config(_RECORD)
class TargetPlay(TypedDict):
    """A Нектар or Идол гнева played this turn (its event): the target seat, slot and card."""

    kind: Literal["nektar", "idol"]
    seat: Seat
    window: Window
    target_seat: Seat
    slot: Annotated[int, Field(ge=1, le=3)]
    card: CardId


@with_config(_RECORD)
class ChasyPlay(TypedDict):
    """Часы Базилевса played this turn: the card discarded with it (the drawn cards are private)."""

    kind: Literal["chasy"]
    seat: Seat
    window: Window
    discard: CardId


EquipmentPlay = Annotated[TargetPlay | ChasyPlay, Field(discriminator="kind")]


class OutcomeModel(PositionModel):
    winner: Seat | None
    reason: Literal["five_tokens", "deck_exhausted", "resign"]


class ArtaniaPosition(PositionModel):
    """A complete Артания и Куявия position, version 1 (docs/positions/artania.md)."""

    game: Literal["artania"]
    version: Version1
    stream: StreamModel
    sides: Pair[Deck]
    turn: Annotated[int, Field(ge=1, le=MAX_TURNS)]
    first: Seat
    step: Step
    actor: Seat | None
    passes: Annotated[int, Field(ge=0, le=1)]
    tokens: Pair[Tokens]
    hands: Pair[Cards]
    known: Pair[Annotated[list[CardId], Field(max_length=3)]]
    no_warrior: Pair[bool]
    decks: Pair[Cards]
    discards: Pair[Cards]
    slots: Pair[Triple[CardId | SlotCode]]
    nektar: Pair[Triple[Annotated[list[Seat], Field(max_length=2)]]]
    plays: Annotated[list[EquipmentPlay], Field(max_length=6)]
    results: Annotated[list[TurnResult], Field(max_length=MAX_TURNS)]
    outcome: OutcomeModel | None

    def overs(self) -> bool:
        return self.step == "over"

    def window(self) -> bool:
        return not self.overs() and STEPS.index(self.step) % 2 == 0

    @model_validator(mode="after")
    def _consistent(self) -> ArtaniaPosition:
        need(self.sides[0] != self.sides[1], "sides must be artania and kuyavia, one each")
        need(self.overs() == (self.outcome is not None), "outcome is set exactly when the step is over")
        need(self.window() == (self.actor is not None), "actor is set exactly in a window")
        need(self.window() or self.passes == 0, "passes count only in a window")
        for seat in (0, 1):
            self._check_cards(seat)
            self._check_slots(seat)
        self._check_automatic()
        self._check_results()
        self._check_outcome()
        return self

    def _check_cards(self, seat: int) -> None:
        hand = set(self.hands[seat])
        need(len(hand) == len(self.hands[seat]), f"seat {seat}'s hand lists a card twice")
        need(set(self.known[seat]) <= hand, f"seat {seat}'s known cards must be in its hand")
        need(
            not any(IS_WARRIOR[INDEX[c]] for c in self.known[seat]),
            f"seat {seat}'s known cards can only be equipment from a tie-break (D35)",
        )
        need(
            not (self.no_warrior[seat] and any(IS_WARRIOR[INDEX[c]] for c in hand)),
            f"seat {seat} is marked as holding no warrior but holds one (D10)",
        )
        have = self.hands[seat] + self.decks[seat] + self.discards[seat]
        have += [c for c in self.slots[seat] if c in INDEX]
        if sorted(have) != _SORTED_IDS:
            raise ValueError(f"seat {seat}'s cards must be exactly its 33 cards")

    def _check_slots(self, seat: int) -> None:
        role = 0 if seat == self.first else 1
        step = len(STEPS) if self.overs() else STEPS.index(self.step)
        for k in range(3):
            c, owners = self.slots[seat][k], self.nektar[seat][k]
            if c in INDEX and not IS_WARRIOR[INDEX[c]]:
                raise ValueError(f"slot {k + 1} of seat {seat} must hold a warrior")
            if step < len(STEPS) and (c == "pending") != (FILL_STEP[role][k] >= step):
                raise ValueError(f"slot {k + 1} of seat {seat} is filled exactly once its step has come")
            if not owners:
                continue
            need(len(set(owners)) == len(owners), "a seat's Нектар lies on a card once")
            need(
                not owners or (c in INDEX and CLASS_OF[INDEX[c]] >= 0), "Нектар only on a class warrior (D14)"
            )
            for o in owners:
                need(
                    self.discards[o].count("nektar") == 1,
                    "a Нектар on the field must be in its owner's discard",
                )

    def _check_automatic(self) -> None:
        # Windows rule 6: the engine passes at once for an empty hand. (A placer without a warrior, D33, is
        # not rejected: the opponent's determinized sample of that hand may hold none, and the bot workers
        # load such samples; the engine then places nothing for it.)
        if self.window():
            need(
                self.actor is not None and bool(self.hands[self.actor]),
                f"seat {self.actor} acts in {self.step} with an empty hand; "
                "the engine passes for it (windows rule 6)",
            )

    def _check_results(self) -> None:
        n = len(self.results)
        if self.outcome is None or self.outcome.reason == "resign":
            need(n == self.turn - 1, f"turn {self.turn} must follow {self.turn - 1} scored turns, not {n}")
        else:
            need(
                n == self.turn,
                f"a game that ended at turn {self.turn}'s clean-up has {self.turn} scored turns",
            )
        tokens = [0, 0]
        for i, r in enumerate(self.results):
            turn, t0, t1 = r["turn"], r["totals"][0], r["totals"][1]
            if turn != i + 1:
                raise ValueError(f"result {i} must be turn {i + 1}'s")
            if r["first"] != self.first ^ ((self.turn - turn) % 2):
                raise ValueError(f"turn {turn}'s F must alternate (D20)")
            for row in r["slots"]:
                for x in row:
                    if (x["state"] == "card") != (x["card"] is not None):
                        raise ValueError(f"turn {turn}: a scored slot names its card exactly if filled")
                    if x["total"] != x["base"] + x["bonus"] + x["nektar"]:
                        raise ValueError(f"turn {turn}: a slot's total is base + bonus + nektar")
            if t0 != t1 and r["winner"] != (0 if t0 > t1 else 1):
                raise ValueError(f"turn {turn}: the higher total wins")
            if r["winner"] is not None:
                tokens[r["winner"]] += 1
            if r["tokens"] != tokens:
                raise ValueError(f"turn {turn}'s tokens must count its winners")
        need(self.tokens == tokens, f"tokens must be {tokens}, one per scored turn won")
        need(sum(self.tokens) <= TOKEN_POOL, "more tokens than the pool holds")

    def _check_outcome(self) -> None:
        t0, t1 = self.tokens
        out = self.outcome
        if out is None or out.reason == "resign":
            need(max(t0, t1) < TOKENS_TO_WIN, "a seat with five tokens has already won (§End of the game)")
            need(out is None or out.winner is not None, "a resignation has a winner")
        elif out.reason == "five_tokens":
            need(
                out.winner is not None and self.tokens[out.winner] == TOKENS_TO_WIN,
                "five_tokens needs 5 tokens",
            )
            need(min(t0, t1) < TOKENS_TO_WIN, "only one seat can take five tokens")
        else:
            need(max(t0, t1) < TOKENS_TO_WIN, "five tokens end the game before the deck check (clean-up 2)")
            need(not self.decks[0] or not self.decks[1], "deck_exhausted needs an empty deck (D22)")
            need(
                out.winner == (None if t0 == t1 else 0 if t0 > t1 else 1),
                "deck_exhausted: more tokens wins (D23)",
            )
