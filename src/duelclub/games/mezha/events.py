"""Межа's events as typed data (rules/mezha.md; issue 15 §1): one ``TypedDict`` per ``kind``.

``rules.apply`` returns ``list[Event]``: plain dicts (the engine never builds a model per event, bots simulate
with it), each one shaped as its ``TypedDict`` says; :data:`EVENT_ADAPTER` validates a list of them (tests,
and anyone who reads a stored log). ``seat`` is the acting player or the unit's owner; ``field`` is 0 Луг,
1 Брод, 2 Холм.

Privacy (``view.event_view``): the keys marked ``NotRequired`` are always present in what the engine emits,
and absent from another seat's view while they are secret — a face-down unit's ``card``, ``strength`` and
``amount``, a drawn card's ``card``. :data:`EVENT_ADAPTER` accepts both the engine's events and every seat's
view of them.

>>> EVENT_ADAPTER.validate_python([{"kind": "pass", "seat": 0, "automatic": False}])
[{'kind': 'pass', 'seat': 0, 'automatic': False}]
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict

Reason = Literal["two_seasons", "more_seasons", "draw", "resign"]
"""Why a match ended (§Between seasons and match end, D10; D9): two season wins, more season wins after
three seasons, as many wins each (a draw), a resignation."""

DrawReason = Literal["messenger", "fair", "season"]
"""Why a card is drawn: гонец, Ярмарка's first pass (D5), the two cards between seasons."""

Omen = Literal["thaw", "drought", "fair", "storm"]

_STRICT = ConfigDict(extra="forbid")


@with_config(_STRICT)
class PlayEvent(TypedDict):
    """A unit entered (D14 steps 1–2): placed face down when it has тайник."""

    kind: Literal["play"]
    seat: int
    field: int
    placement: int
    card: NotRequired[str]
    strength: NotRequired[int]
    face_down: bool


@with_config(_STRICT)
class BuffEvent(TypedDict):
    """A unit grew (Оттепель D16, одиночка, росток, Роса): ``amount`` the gain, ``strength`` the new one."""

    kind: Literal["thaw", "loner", "sprout", "rosa_buff"]
    seat: int
    field: int
    placement: int
    card: NotRequired[str]
    strength: NotRequired[int]
    face_down: bool
    amount: NotRequired[int]


@with_config(_STRICT)
class RallyTarget(TypedDict):
    placement: int
    card: str
    strength: int


@with_config(_STRICT)
class RallyEvent(TypedDict):
    """Клич (D12): +1 to each of ``targets``, the owner's other units then on that field (maybe none)."""

    kind: Literal["rally"]
    seat: int
    field: int
    placement: int
    card: str
    strength: int
    face_down: bool
    targets: list[RallyTarget]


@with_config(_STRICT)
class ShotEvent(TypedDict):
    """Выстрел: ``damage`` to the strongest face-up enemy unit on the field (or absorbed by its щит)."""

    kind: Literal["shot"]
    seat: int
    field: int
    placement: int
    card: str
    damage: int
    target_seat: int
    target_placement: int
    target_card: str
    target_strength: int
    shield_absorbed: bool
    burned: bool


@with_config(_STRICT)
class BurnEvent(TypedDict):
    """A unit burned (strength 0 or less) and went to its owner's discard."""

    kind: Literal["burn"]
    seat: int
    field: int
    placement: int
    card: str
    cause: Literal["shot", "podzhog", "lightning"]


@with_config(_STRICT)
class TacticEvent(TypedDict):
    """A tactic played on ``field`` (D6: any field); its ``rosa_buff``/``podzhog_hit`` events follow."""

    kind: Literal["rosa", "podzhog"]
    seat: int
    card: Literal["rosa", "podzhog"]
    field: int


@with_config(_STRICT)
class PodzhogHitEvent(TypedDict):
    """Поджог hit one face-up enemy unit (shaped like ``shot`` without the shooter)."""

    kind: Literal["podzhog_hit"]
    seat: int
    field: int
    target_seat: int
    target_placement: int
    target_card: str
    target_strength: int
    damage: int
    shield_absorbed: bool
    burned: bool


@with_config(_STRICT)
class DrawEvent(TypedDict):
    kind: Literal["draw"]
    seat: int
    card: NotRequired[str]
    reason: DrawReason


@with_config(_STRICT)
class DrawSkippedEvent(TypedDict):
    """D5: no card drawn, with 10 in hand or an empty deck."""

    kind: Literal["draw_skipped"]
    seat: int
    reason: DrawReason
    cause: Literal["hand_full", "deck_empty"]


@with_config(_STRICT)
class PassEvent(TypedDict):
    kind: Literal["pass"]
    seat: int
    automatic: bool


@with_config(_STRICT)
class RevealEvent(TypedDict):
    """§Scoring a season, step 1: a face-down unit turned face up."""

    kind: Literal["reveal"]
    seat: int
    field: int
    placement: int
    card: str
    strength: int
    face_down: bool


@with_config(_STRICT)
class LightningEvent(TypedDict):
    """Гроза (D15): lightning hit the strongest unit of a field."""

    kind: Literal["lightning"]
    seat: int
    field: int
    placement: int
    card: str
    strength: int
    face_down: bool
    damage: int
    shield_absorbed: bool
    burned: bool


@with_config(_STRICT)
class SeasonScoredEvent(TypedDict):
    """A season scored: ``fields[f]`` and ``winner`` are a seat or None, ``totals[f]`` ``[seat0, seat1]``,
    ``strength`` the two sums, ``wins`` the season wins so far."""

    kind: Literal["season_scored"]
    season: int
    omen: Omen
    starter: int
    fields: list[int | None]
    totals: list[list[int]]
    strength: list[int]
    winner: int | None
    wins: list[int]


@with_config(_STRICT)
class MatchEndEvent(TypedDict):
    kind: Literal["match_end"]
    winner: int | None
    reason: Reason


@with_config(_STRICT)
class SeatEvent(TypedDict):
    """``resign`` (D9) or ``next_season`` (D17) from ``seat``."""

    kind: Literal["resign", "next_season"]
    seat: int


@with_config(_STRICT)
class ClearedUnit(TypedDict):
    seat: int
    field: int
    placement: int
    card: str
    strength: NotRequired[int]  # carried units only


@with_config(_STRICT)
class ClearEvent(TypedDict):
    """Between seasons (D3, D4): units to the discards, корни units of the season just scored carried."""

    kind: Literal["clear"]
    discarded: list[ClearedUnit]
    carried: list[ClearedUnit]


@with_config(_STRICT)
class SeasonStartEvent(TypedDict):
    kind: Literal["season_start"]
    season: int
    omen: Omen
    starter: int


Event = Annotated[
    PlayEvent
    | BuffEvent
    | RallyEvent
    | ShotEvent
    | BurnEvent
    | TacticEvent
    | PodzhogHitEvent
    | DrawEvent
    | DrawSkippedEvent
    | PassEvent
    | RevealEvent
    | LightningEvent
    | SeasonScoredEvent
    | MatchEndEvent
    | SeatEvent
    | ClearEvent
    | SeasonStartEvent,
    Field(discriminator="kind"),
]
"""Any Межа event, told apart by ``kind``."""

Events = list[Event]

EVENT_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])
"""Validates a list of Межа events (the engine's, or one seat's view of them)."""
