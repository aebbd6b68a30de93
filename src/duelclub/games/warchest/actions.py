"""Сундук войны actions and options as pydantic v2 models (rules/warchest.md §7, §16).

Every action is a complete, concrete choice; ``legal`` lists them all so a client can drive
pick-coin → pick-action → pick-hex from it alone. Hexes are board ids ``0..36`` (``board.HEXES``).

Action JSON (a union discriminated on ``kind``; absent fields are null and omitted in ``legal``)::

    {"kind": "pick", "type": "archer"}                                 # draft
    {"kind": "deploy", "coin": "scout", "to": 7}
    {"kind": "bolster", "coin": "knight", "unit": 7}
    {"kind": "move", "coin": "knight", "unit": 7, "to": 8}             # coin null: a free maneuver
    {"kind": "control", "coin": "knight", "unit": 7}
    {"kind": "attack", "coin": "knight", "unit": 7, "target": 13}
    {"kind": "tactic", "coin": "cavalry", "unit": 7, "to": 8, "target": 14}
    {"kind": "cure", "coin": "knight", "unit": 7}
    {"kind": "proclaim", "coin": "royal", "decree": "sortie", "unit": 7, "target": 13}
    {"kind": "purge", "coin": "decoy:infiltrator"}
    {"kind": "initiative" | "pass", "coin": "royal"}
    {"kind": "recruit", "coin": "royal", "type": "knight"}             # coin null: Enlist's 2nd recruit
    {"kind": "push", "target": 13, "to": 14}                           # Bannerman
    {"kind": "poison", "unit": 9, "target": 13}                        # Saboteur's free poison
    {"kind": "use_supply" | "plant_decoy" | "decline"}
    {"kind": "resign"}

Tactic parameters: ``unit`` is the unit whose coin is played (the first Footman for the Footman
tactic, which also names ``maneuver``); ``ally`` is the friendly unit moved by the Ensign, attacking
for the Marshal or bolstered by the Herald; ``to`` is a step / end hex; ``target`` an enemy unit;
``type`` the type recruited by the Bishop. ``act(...)`` returns cached instances, so the engine's
legal lists never construct pydantic objects twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter

Kind = Literal[
    "pick",
    "deploy",
    "bolster",
    "move",
    "control",
    "attack",
    "tactic",
    "cure",
    "proclaim",
    "purge",
    "initiative",
    "recruit",
    "pass",
    "push",
    "poison",
    "use_supply",
    "plant_decoy",
    "decline",
]


class Action(BaseModel):
    """One concrete action (see the module docstring for the shapes)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Kind
    coin: str | None = None
    unit: StrictInt | None = None
    to: StrictInt | None = None
    target: StrictInt | None = None
    ally: StrictInt | None = None
    maneuver: Literal["move", "control", "attack"] | None = None
    type: str | None = None
    decree: str | None = None


class Resign(BaseModel):
    """Platform resignation: always legal for a seated player while the match is on."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["resign"] = "resign"


WarchestAction = Action | Resign
ACTION_ADAPTER: TypeAdapter[WarchestAction] = TypeAdapter(
    Annotated[Action | Resign, Field(discriminator="kind")]
)
RESIGN = Resign()

Expansions = Literal["base", "nobility", "nightfall", "both"]


class WarchestOptions(BaseModel):
    """Match options chosen by the opener.

    ``expansions``: base only / + Знать / + Ночь / both. ``side``: the opener's side (``random`` = the
    lot of §5 step 1). ``draft``: ``club`` (1-2-2-2-1 from the whole pool), ``eight`` (eight-card draft)
    or ``random`` (random deal), §5 step 4.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    expansions: Expansions = "both"
    side: Literal["random", "wolf", "raven"] = "random"
    draft: Literal["club", "eight", "random"] = "club"

    @property
    def nobility(self) -> bool:
        return self.expansions in ("nobility", "both")

    @property
    def nightfall(self) -> bool:
        return self.expansions in ("nightfall", "both")


_CACHE: dict[tuple[object, ...], Action] = {}


def act(
    kind: Kind,
    coin: str | None = None,
    unit: int | None = None,
    to: int | None = None,
    target: int | None = None,
    ally: int | None = None,
    maneuver: Literal["move", "control", "attack"] | None = None,
    type: str | None = None,
    decree: str | None = None,
) -> Action:
    """The cached :class:`Action` with these fields."""
    key = (kind, coin, unit, to, target, ally, maneuver, type, decree)
    a = _CACHE.get(key)
    if a is None:
        a = _CACHE[key] = _construct(dict(zip(_FIELDS, key, strict=True)))
    return a


_FIELDS = tuple(Action.model_fields)  # kind, coin, unit, to, target, ally, maneuver, type, decree
_set = object.__setattr__


def _construct(fields: dict[str, Any]) -> Action:
    """``Action.model_construct(**fields)`` for a complete set of fields, without its per-field work (a
    bot's search makes thousands): pydantic's documented instance attributes set directly. Pinned equal to
    ``model_construct`` (fields, fields set, equality, hash, dump) by ``test_warchest_speed_pin.py``."""
    a = object.__new__(Action)
    _set(a, "__dict__", fields)
    _set(a, "__pydantic_fields_set__", set(fields))
    _set(a, "__pydantic_extra__", None)
    _set(a, "__pydantic_private__", None)
    return a


class ActionTable(dict[Any, Action]):
    """The :func:`act` instances of one shape, by their varying fields: ``MOVE[coin, unit, to]``.

    A plain dict look-up where the engine's hot loops would call :func:`act` with keywords; a missing key is
    made once by ``make(*key)`` (``make(key)`` for a key that is not a tuple), which must return
    :func:`act`'s instance, so a table and :func:`act` always give the same object.
    """

    __slots__ = ("_make",)

    def __init__(self, make: Callable[..., Action]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: Any) -> Action:
        a = self._make(*key) if type(key) is tuple else self._make(key)
        self[key] = a
        return a


def cached(key: tuple[object, ...]) -> Action | None:
    """The cached :func:`act` instance with this :func:`key_of` key, if one was made (none is added)."""
    return _CACHE.get(key)


def key_of(a: Action) -> tuple[object, ...]:
    """The hashable identity of an action (its fields in order)."""
    return (a.kind, a.coin, a.unit, a.to, a.target, a.ally, a.maneuver, a.type, a.decree)


DECLINE = act("decline")
