"""What every game's declared position model shares (docs/positions.md): strict pydantic models, the
fairness-stream and seat types, error wording, and the JSON Schema writer.

A game declares ``<Game>Position(PositionModel)`` in ``games/<slug>/position_model.py``; its
``from_position`` calls :func:`parse`, which validates the JSON (types, bounds, lengths, literals and the
model validators' cross-field checks) and raises ``ValueError("bad <slug> position: <where>: <what>")``.
``python -m duelclub.games.<slug>.position_model`` prints the model's JSON Schema, which is committed as
``docs/positions/<slug>.schema.json`` (a test compares the two).

>>> parse(StreamModel, {"key": "00" * 32, "position": 3}, "demo").position
3
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def _not_bool(v: object) -> object:
    # A Literal of ints compares by equality, so True would pass for 1: strict JSON types say no.
    if isinstance(v, bool):
        raise ValueError("must be an integer, not a boolean")
    return v


NoBool = BeforeValidator(_not_bool)
"""On an integer ``Literal``: rejects ``true``/``false`` (strict mode alone lets ``True == 1`` through)."""
Seat = Annotated[int, Field(ge=0, le=1)]
"""0 or 1 (contract.Seat); a strict int, so ``true`` is refused without a Python call."""
Version1 = Annotated[Literal[1], NoBool]
"""Every position format is at version 1."""
Pair = Annotated[list[T], Field(min_length=2, max_length=2)]
"""One entry per seat: ``[seat 0's, seat 1's]``."""
Triple = Annotated[list[T], Field(min_length=3, max_length=3)]
"""Exactly three entries (fields, slots)."""


class PositionModel(BaseModel):
    """Base of every position model: strict JSON types (no coercion, a bool is not an int), unknown keys
    rejected, immutable once validated. The validator is built on first use, not at import, so processes
    that never load a position (the web server) do not pay for it."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, defer_build=True)


class StreamModel(PositionModel):
    """The fairness stream (fairness.md): match key K in lowercase hex and the 32-bit words consumed."""

    key: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    position: Annotated[int, Field(ge=0, le=10**9)]


class PositionError(ValueError):
    """A position that is malformed or describes a state the engine can never reach."""


def fail(slug: str, what: str) -> PositionError:
    """The error ``from_position`` raises for a check done outside the model (on the rebuilt state)."""
    return PositionError(f"bad {slug} position: {what}")


def need(cond: bool, what: str) -> None:
    """For model validators: raise ``ValueError(what)`` unless ``cond``; :func:`parse` words it."""
    if not cond:
        raise ValueError(what)


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False)[:3]:
        where = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        if len(msg) > 160:
            msg = msg[:157] + "..."
        parts.append(f"{where}: {msg}" if where else msg)
    more = exc.error_count() - len(parts)
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def parse(model: type[M], pos: Any, slug: str) -> M:
    """Validate ``pos`` (parsed JSON) against ``model``; raises :class:`PositionError` (a ValueError) whose
    message names the game, the path of the first offending keys and the problem."""
    if not isinstance(pos, dict) or pos.get("game") != slug:
        raise fail(slug, f"game must be {slug!r}")
    try:
        return model.model_validate(pos)
    except ValidationError as exc:
        raise fail(slug, _describe(exc)) from None


def schema_text(model: type[BaseModel]) -> str:
    """The committed form of ``model``'s JSON Schema: indented, keys sorted, trailing newline."""
    return json.dumps(model.model_json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
