"""Дві вежі actions and options as pydantic v2 models (rules/towers.md §5 step 3, §6 step 5, §9, D40).

Action JSON (a discriminated union on ``kind``)::

    {"kind": "play", "card": 43}      # play card id 43 (the earliest copy in hand order, D40)
    {"kind": "discard", "card": 43}   # discard it (main/extra action, or the forced discard of draw_discard)
    {"kind": "timeout"}               # clock only: the move time ran out (§9); never in ``legal``
    {"kind": "resign"}

Options: ``{"battlefield": "<id>", "deck": "normal" | "infinite"}`` (§2, §8).
The move time ``T`` is a platform clock setting, not an engine option.

``play_action(id)``, ``discard_action(id)`` (or ``PLAYS[id]``, ``DISCARDS[id]``), ``TIMEOUT`` and ``RESIGN``
are cached instances, so legal-action lists never build pydantic objects. ``card`` is validated by the engine
(``card_not_in_hand``), not here; a ``card`` that is not a JSON integer (``"4"``, ``4.0``, ``true``) is
``malformed_action``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter

from duelclub.games.towers.cards import N_CARDS


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Play(_Action):
    """Play a card from the hand (§5 step 3, §6): it must be affordable."""

    kind: Literal["play"] = "play"
    card: StrictInt


class Discard(_Action):
    """Discard a card from the hand: the turn's action, or the forced discard of «Візьміть карту…» (§6.5)."""

    kind: Literal["discard"] = "discard"
    card: StrictInt


class Timeout(_Action):
    """The clock's action when the move time runs out (§9): worst-card discard or the third-timeout loss."""

    kind: Literal["timeout"] = "timeout"


class Resign(_Action):
    """Resignation (§7.4, D28): legal for either seat at any moment while there is no result."""

    kind: Literal["resign"] = "resign"


TowersAction = Play | Discard | Timeout | Resign
ACTION_ADAPTER: TypeAdapter[TowersAction] = TypeAdapter(
    Annotated[Play | Discard | Timeout | Resign, Field(discriminator="kind")]
)

BattlefieldId = Literal[
    "archmage_citadel",
    "crystal_garden",
    "seaside_fortress",
    "azure_valley",
    "misty_harbour",
    "wind_square",
    "free_steppe",
    "mirror_labyrinth",
]


class TowersOptions(BaseModel):
    """Match options chosen by seat A (§4 step 1): the battlefield and the deck type."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    battlefield: BattlefieldId = "archmage_citadel"
    deck: Literal["normal", "infinite"] = "normal"


TIMEOUT = Timeout()
RESIGN = Resign()
PLAYS: tuple[Play, ...] = tuple(Play(card=i) for i in range(N_CARDS + 1))
"""The cached ``Play`` of each card id (index 0 unused)."""
DISCARDS: tuple[Discard, ...] = tuple(Discard(card=i) for i in range(N_CARDS + 1))
"""The cached ``Discard`` of each card id (index 0 unused)."""


def play_action(card: int) -> Play:
    """The cached ``Play`` of card id ``card`` (1..102)."""
    return PLAYS[card]


def discard_action(card: int) -> Discard:
    """The cached ``Discard`` of card id ``card`` (1..102)."""
    return DISCARDS[card]
