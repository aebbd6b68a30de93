"""Дві вежі's events as typed data (rules/towers.md; issue 15 §1): one ``TypedDict`` per ``kind``.

``rules.apply`` returns ``list[Event]``: plain dicts (the engine never builds a model per event, bots simulate
with it), each one shaped as its ``TypedDict`` says; :data:`EVENT_ADAPTER` validates a list of them. ``seat``
is the player concerned; cards are ids 1..102.

Privacy (``view.event_view``): a ``draw``'s ``card`` is always present in what the engine emits and absent
from the other seat's view until the match is over (hence ``NotRequired``).

>>> EVENT_ADAPTER.validate_python([{"kind": "again", "seat": 1}])
[{'kind': 'again', 'seat': 1}]
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict

from duelclub.games.towers.actions import BattlefieldId

WinReason = Literal["destruction", "tower", "resource"]
"""The victory conditions of §7.1 (checked in the order of D38): the other tower destroyed, the own tower at
the battlefield's goal, a resource stock at its goal."""

Reason = Literal["destruction", "tower", "resource", "draw", "turn_limit", "timeout", "resign"]
"""Why a match ended: a :data:`WinReason`; ``draw`` (both players met a condition at once, D17);
``turn_limit`` (turn 500, §7.4); ``timeout`` (a third consecutive timed-out turn, §9); ``resign``."""

DiscardTag = Literal["discard", "forced_discard", "timeout_discard"]

_STRICT = ConfigDict(extra="forbid")


@with_config(_STRICT)
class TurnEvent(TypedDict):
    """A turn started (§5 step 1): ``produced`` is ``[ore, mana, troops]`` just added."""

    kind: Literal["turn"]
    seat: int
    turn: int
    produced: list[int]


@with_config(_STRICT)
class PlayEvent(TypedDict):
    """A card was paid for and resolved: ``delta[s]`` is the change of seat ``s``'s eight counters
    (``dsl.ATTRS`` order) made by the effect, the cost excluded."""

    kind: Literal["play"]
    seat: int
    card: int
    delta: list[list[int]]


@with_config(_STRICT)
class DiscardEvent(TypedDict):
    kind: Literal["discard"]
    seat: int
    card: int
    tag: DiscardTag


@with_config(_STRICT)
class DrawEvent(TypedDict):
    kind: Literal["draw"]
    seat: int
    card: NotRequired[int]


@with_config(_STRICT)
class ReshuffleEvent(TypedDict):
    """The discard pile of ``cards`` cards became the draw pile (D21)."""

    kind: Literal["reshuffle"]
    cards: int


@with_config(_STRICT)
class SeatEvent(TypedDict):
    """``again`` («Граємо знову»: an extra action follows), ``forced`` (pick the card to discard, §6 step 5)
    or ``resign``."""

    kind: Literal["again", "forced", "resign"]
    seat: int


@with_config(_STRICT)
class TimeoutEvent(TypedDict):
    """The clock expired; ``count`` consecutive timed-out turns (3 loses, §9)."""

    kind: Literal["timeout"]
    seat: int
    count: int


@with_config(_STRICT)
class MatchEndEvent(TypedDict):
    """The match ended; ``battlefield`` names the field whose goals (tower, resource) were played for."""

    kind: Literal["match_end"]
    winner: int | None
    reason: Reason
    battlefield: BattlefieldId


Event = Annotated[
    TurnEvent
    | PlayEvent
    | DiscardEvent
    | DrawEvent
    | ReshuffleEvent
    | SeatEvent
    | TimeoutEvent
    | MatchEndEvent,
    Field(discriminator="kind"),
]
"""Any Дві вежі event, told apart by ``kind``."""

Events = list[Event]

EVENT_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])
"""Validates a list of Дві вежі events (the engine's, or one seat's view of them)."""
