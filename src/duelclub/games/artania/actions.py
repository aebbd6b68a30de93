"""Артания и Куявия actions and options as pydantic v2 models (rules/artania.md §Decision points and actions).

Action JSON (a discriminated union on ``kind``; slots are 1–3, seats 0–1)::

    {"kind": "place", "cards": ["vityaz_3", "geroy"]}   # the step's slots in order
    {"kind": "pass"}
    {"kind": "nektar", "seat": 1, "slot": 2}            # a class warrior on either side
    {"kind": "idol", "slot": 3}                         # an opponent's warrior
    {"kind": "chasy", "discard": "strazh_1"}            # the other card discarded with Часы
    {"kind": "resign"}

Options: ``{"deck": "artania" | "kuyavia" | "random"}`` — seat 0's deck (default ``"artania"``); seat 1
plays the other. ``"random"`` gives Артания to the seat that wins the first-player lot (see ``rules``).

Card ids, seats and slots are validated by the engine, not here, so a wrong id or slot is an
``IllegalAction`` with a stable code; a slot or seat that is not a JSON integer is ``malformed_action``.
The engine's legal-action lists use cached instances (``PASS``, ``nektar_action`` …), never new objects.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter

from duelclub.games.artania.cards import IDS


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Place(_Action):
    """A placement step: one warrior per slot of the step, in the step's slot order (§A turn)."""

    kind: Literal["place"] = "place"
    cards: tuple[str, ...]


class Pass(_Action):
    """Pass in an equipment window (§Equipment windows, rule 2)."""

    kind: Literal["pass"] = "pass"


class Nektar(_Action):
    """Нектар могущества on the class warrior in ``slot`` of ``seat`` (either side, D14)."""

    kind: Literal["nektar"] = "nektar"
    seat: StrictInt
    slot: StrictInt


class Idol(_Action):
    """Идол гнева: the opponent discards the warrior in their ``slot`` (D15)."""

    kind: Literal["idol"] = "idol"
    slot: StrictInt


class Chasy(_Action):
    """Часы Базилевса: discard them with the card ``discard`` from hand, then draw 3 (D16)."""

    kind: Literal["chasy"] = "chasy"
    discard: str


class Resign(_Action):
    """Platform resignation: legal for either seat at any time while the match is running."""

    kind: Literal["resign"] = "resign"


ArtaniaAction = Place | Pass | Nektar | Idol | Chasy | Resign
ACTION_ADAPTER: TypeAdapter[ArtaniaAction] = TypeAdapter(
    Annotated[Place | Pass | Nektar | Idol | Chasy | Resign, Field(discriminator="kind")]
)


class ArtaniaOptions(BaseModel):
    """Match options: seat 0's deck (D29: the opener picks, the other seat gets the other deck)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deck: Literal["artania", "kuyavia", "random"] = "artania"


PASS = Pass()
RESIGN = Resign()
NEKTARS: tuple[tuple[Nektar, ...], ...] = tuple(
    tuple(Nektar(seat=seat, slot=k + 1) for k in range(3)) for seat in (0, 1)
)
IDOLS: tuple[Idol, ...] = tuple(Idol(slot=k + 1) for k in range(3))
CHASYS: tuple[Chasy, ...] = tuple(Chasy(discard=cid) for cid in IDS)
_PLACES: dict[tuple[int, ...], Place] = {}


def place_action(cards: tuple[int, ...]) -> Place:
    """The cached ``Place`` of the card indexes ``cards`` (in slot order)."""
    p = _PLACES.get(cards)
    if p is None:
        p = _PLACES[cards] = Place(cards=tuple(IDS[c] for c in cards))
    return p
