"""The events of Артания и Куявия, typed (issue 15 §1): data only, worded by ``duelclub.words.artania``.

Seats are 0 and 1; cards are ids (``cards.IDS``); slots are 1–3; windows and steps are the engine's codes
(``W0``…``W4``, ``P1``…``P4``, ``state.STEPS``). A ``draw``'s ``cards`` go to the drawer only while the
match is on (``view.event_view`` drops them for everyone else), so a seen ``draw`` may lack them.

The engine builds these as plain dicts (TypedDicts: bots simulate with the engine, so no model per event);
:data:`EVENT_ADAPTER` validates a list of them (tests validate every event of random playouts).

>>> EVENT_ADAPTER.validate_python([{"kind": "turn_start", "turn": 2, "first": 1}])[0]["first"]
1
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypeAlias

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict

Reason = Literal["five_tokens", "deck_exhausted", "resign"]
"""Why a match ended (§End): five tokens, a deck ran out (more tokens win, equal is a draw), a resignation."""


class Placed(TypedDict):
    slot: int
    card: str


class ScoredSlot(TypedDict):
    """One slot as scored (``scoring.slot_json``): the base swords, the counter-class bonus and the Нектар
    swords apart (``nektar_by``: the seats that played Нектар on it), and their ``total``."""

    slot: int
    state: str
    card: str | None
    base: int
    bonus: int
    nektar: int
    nektar_by: list[int]
    total: int


class PlaceEvent(TypedDict):
    """A placement step (D9, D10, D33): ``cards`` put in slots, ``empty`` slots left with no warrior;
    ``automatic`` when the hand held no warrior."""

    kind: Literal["place"]
    seat: int
    step: str
    cards: list[Placed]
    empty: list[int]
    automatic: bool


class PassEvent(TypedDict):
    """A pass in ``window`` (``automatic`` for an empty hand, windows rule 6); ``closed``: the second pass in
    a row closed the window."""

    kind: Literal["pass"]
    seat: int
    window: str
    automatic: bool
    closed: bool


class NektarEvent(TypedDict):
    """Нектар могущества on ``card`` in ``target_seat``'s ``slot`` (+2 swords)."""

    kind: Literal["nektar"]
    seat: int
    window: str
    target_seat: int
    slot: int
    card: str


class IdolEvent(TypedDict):
    """Идол гнева: ``card`` in the opponent's (``target_seat``) ``slot`` goes to its discard."""

    kind: Literal["idol"]
    seat: int
    window: str
    target_seat: int
    slot: int
    card: str


class ChasyEvent(TypedDict):
    """Часы Базилевса discarded with ``discard``; a ``draw`` (reason ``chasy``) follows."""

    kind: Literal["chasy"]
    seat: int
    window: str
    discard: str


class DrawEvent(TypedDict):
    """``seat`` drew ``count`` cards (``cards``: the drawer only while the match is on)."""

    kind: Literal["draw"]
    seat: int
    cards: NotRequired[list[str]]
    count: int
    reason: Literal["turn", "chasy"]


class TurnScoredEvent(TypedDict):
    """§Scoring a turn: both rows as scored and each seat's total."""

    kind: Literal["turn_scored"]
    turn: int
    first: int
    slots: list[list[ScoredSlot]]
    totals: list[int]


class TiebreakEvent(TypedDict):
    """§Tie-break, one round: each deck's top (None: empty deck), its value, equipment that went to hand."""

    kind: Literal["tiebreak"]
    round: int
    cards: list[str | None]
    values: list[int]
    to_hand: list[str | None]


class TokenEvent(TypedDict):
    """The turn's token to ``seat`` (None: nobody, both decks ran dry); ``tokens`` after it."""

    kind: Literal["token"]
    seat: int | None
    tokens: list[int]


class CleanupEvent(TypedDict):
    """Clean-up: each seat's cards to its discard (battlefield, then tie-break warriors)."""

    kind: Literal["cleanup"]
    discarded: list[list[str]]


class TurnStartEvent(TypedDict):
    """A new turn; ``first`` acts first (D20)."""

    kind: Literal["turn_start"]
    turn: int
    first: int


class ResignEvent(TypedDict):
    kind: Literal["resign"]
    seat: int


class MatchEndEvent(TypedDict):
    """The end: ``winner`` (None: a draw), why, and the tokens then."""

    kind: Literal["match_end"]
    winner: int | None
    reason: Reason
    tokens: list[int]


Event: TypeAlias = Annotated[
    (
        PlaceEvent | PassEvent | NektarEvent | IdolEvent | ChasyEvent | DrawEvent | TurnScoredEvent |
        TiebreakEvent | TokenEvent | CleanupEvent | TurnStartEvent | ResignEvent | MatchEndEvent
    ),
    Field(discriminator="kind"),
]  # fmt: skip
"""One event of Артания и Куявия, told apart by ``kind``."""

EVENT_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])
"""Validates a list of events (as ``apply`` returns them, or as ``event_view`` shows them)."""

Events: TypeAlias = list[Event]
"""What ``apply`` returns (and every engine step appends to)."""
