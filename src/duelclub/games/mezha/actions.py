"""Межа actions and options as pydantic v2 models (rules/mezha.md §Decision points and actions).

Action JSON (a discriminated union on ``kind``)::

    {"kind": "play", "card": "sova", "field": 2}   # field 0 Луг, 1 Брод, 2 Холм
    {"kind": "pass"}
    {"kind": "next_season"}
    {"kind": "resign"}

Options: ``{"house": "olkha" | "gorn"}`` — seat 0's house (default ``"olkha"``); seat 1 gets the other.

``play_action(kind, field)``, ``PASS``, ``NEXT_SEASON`` and ``RESIGN`` are cached instances, so the engine's
legal-action lists never build pydantic objects. ``card`` and ``field`` are validated by the engine, not here,
so a wrong id or field is an ``IllegalAction`` with a stable code (``card_not_in_hand``, ``bad_field``);
a ``field`` that is not a JSON integer (``"0"``, ``0.0``, ``true``) is ``malformed_action``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter

from duelclub.games.mezha.cards import CARDS


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Play(_Action):
    """Play a card from hand: a unit onto the own half of ``field``, or a tactic on ``field``."""

    kind: Literal["play"] = "play"
    card: str
    # Strict: ``"0"``, ``0.0`` or ``true`` is not field 0 — a client that sends them has a bug to see.
    field: StrictInt


class Pass(_Action):
    """Pass for the rest of the season (§A season — Passing)."""

    kind: Literal["pass"] = "pass"


class NextSeason(_Action):
    """«Следующий сезон»: ends the pause between seasons (D17); either seat may send it."""

    kind: Literal["next_season"] = "next_season"


class Resign(_Action):
    """Platform resignation (D9): legal for either seat in any phase while the match is not over."""

    kind: Literal["resign"] = "resign"


MezhaAction = Play | Pass | NextSeason | Resign
ACTION_ADAPTER: TypeAdapter[MezhaAction] = TypeAdapter(
    Annotated[Play | Pass | NextSeason | Resign, Field(discriminator="kind")]
)


class MezhaOptions(BaseModel):
    """Match options: seat 0's house (§Houses and decks: the opener picks, the other seat gets the other)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    house: Literal["olkha", "gorn"] = "olkha"


PASS = Pass()
NEXT_SEASON = NextSeason()
RESIGN = Resign()
_PLAYS: tuple[tuple[Play, Play, Play], ...] = tuple(
    (Play(card=c.id, field=0), Play(card=c.id, field=1), Play(card=c.id, field=2)) for c in CARDS
)


def play_action(kind: int, field: int) -> Play:
    """The cached ``Play`` of card kind ``kind`` on ``field`` (0–2)."""
    return _PLAYS[kind][field]
