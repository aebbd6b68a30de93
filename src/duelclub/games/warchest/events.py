"""The events of Сундук войны, typed (issue 15 §1): data only, worded by ``duelclub.words.warchest``.

Every event has ``kind``, ``seat`` (the acting seat) and ``side`` (0 Wolf, 1 Raven). Hexes are board
indexes (``board.HEXES``), unit types and coins their ids (``units.py``). ``secret`` (a drawn coin, the
coins of a draw, a face-down coin) goes only to the event's own seat: ``view.event_view`` folds it into the
event for that seat and drops it for everyone else, so the seen event carries ``coin``/``coins`` or not.

The engine builds these as plain dicts (TypedDicts: bots simulate with the engine, so no model per event);
:data:`EVENT_ADAPTER` validates a list of them (tests validate every event of random playouts).

>>> EVENT_ADAPTER.validate_python([{"kind": "decline", "seat": 0, "side": 1}])[0]["kind"]
'decline'
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypeAlias

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict

Reason = Literal["control", "round_limit", "resign"]
"""Why a match ended: all six markers on the board (§10), the round limit (D28, a draw), a resignation."""


class CoinSecret(TypedDict):
    coin: str


class CoinsSecret(TypedDict):
    coins: list[str]


class _Base(TypedDict):
    seat: int
    side: int


class PickEvent(_Base):
    """A draft pick (§5); ``dealt``: the last type of the eight-unit draft, Raven's without a choice."""

    kind: Literal["pick"]
    type: str
    dealt: bool


class DrawEvent(_Base):
    """§6 step 1: ``count`` coins drawn at the start of ``round`` (which: ``coins``, the drawer only)."""

    kind: Literal["draw"]
    round: int
    count: int
    secret: NotRequired[CoinsSecret]
    coins: NotRequired[list[str]]


class FaceDownEvent(_Base):
    """§7.3: a coin played face down for ``action`` (the coin: ``coin``, its owner only)."""

    kind: Literal["face_down"]
    action: Literal["initiative", "recruit", "pass"]
    secret: NotRequired[CoinSecret]
    coin: NotRequired[str]


class DeployEvent(_Base):
    """§7.1: a new unit of ``type`` on hex ``to``."""

    kind: Literal["deploy"]
    type: str
    to: int


class BolsterEvent(_Base):
    """A unit on hex ``unit`` grows by one coin: ``how`` "coin" (§7.2 bolster), "fortify" (the decree) or
    "herald" (the Herald's tactic, from the supply)."""

    kind: Literal["bolster"]
    unit: int
    type: str
    how: Literal["coin", "fortify", "herald"]


class PurgeEvent(_Base):
    """§12.2: a decoy coin leaves the game."""

    kind: Literal["purge"]
    coin: str


class CureEvent(_Base):
    """§12.1: the unit on hex ``unit`` loses its poison."""

    kind: Literal["cure"]
    unit: int
    type: str


class MoveEvent(_Base):
    """A unit of ``type`` goes from hex ``unit`` to ``to``: ``how`` "move" (a step or a tactic's move),
    "push" (pushed by the Bannerman), "redeploy" or "march" (the decrees). ``seat``/``side``: the unit's."""

    kind: Literal["move"]
    unit: int
    to: int
    type: str
    how: Literal["move", "push", "redeploy", "march"]


class ControlEvent(_Base):
    """§7.2: the unit of ``type`` on ``hex`` takes control of that location (``unit`` is the same hex)."""

    kind: Literal["control"]
    hex: int
    unit: int
    type: str


class WinEvent(_Base):
    """§10: all six markers of ``side`` are on the board."""

    kind: Literal["win"]


class AttackEvent(_Base):
    """§9: the unit of ``type`` on hex ``unit`` attacks the unit of ``target_type`` on ``target``."""

    kind: Literal["attack"]
    unit: int
    target: int
    type: str
    target_type: str


class CounterEvent(_Base):
    """§8.12: the Pikeman takes a coin off the adjacent attacker (of ``attacker_type``, on ``hex``)."""

    kind: Literal["counter"]
    hex: int
    attacker_type: str


class DamageEvent(_Base):
    """§9 step 3: the unit of ``type`` on ``hex`` loses its top coin."""

    kind: Literal["damage"]
    hex: int
    type: str


class UnitRemovedEvent(_Base):
    """§7.4: the unit of ``type`` on ``hex`` lost its last coin (``countered``: to the Pikeman's counter)."""

    kind: Literal["unit_removed"]
    hex: int
    type: str
    countered: bool


class RecruitEvent(_Base):
    """§7.3: a coin of ``type`` from the supply into the discard."""

    kind: Literal["recruit"]
    type: str


class PoisonEvent(_Base):
    """§12.1: a poison seal on the unit of ``type`` on ``hex``."""

    kind: Literal["poison"]
    hex: int
    type: str


class DecoyEvent(_Base):
    """§12.2: a decoy ``coin`` planted in the opponent's discard."""

    kind: Literal["decoy"]
    coin: str


class DecreeEvent(_Base):
    """§11.2: ``decree`` proclaimed."""

    kind: Literal["decree"]
    decree: str


class ReinforceEvent(_Base):
    """The Reinforce decree: an eliminated coin of ``type`` back to the supply."""

    kind: Literal["reinforce"]
    type: str


class TacticEvent(_Base):
    """§8: the tactic of ``type`` (the Royal Guard's for the Royal coin) by the unit on hex ``unit``."""

    kind: Literal["tactic"]
    unit: int
    type: str


class AssassinEvent(_Base):
    """§12.5: a supply coin of ``type`` (the poisoned target's) leaves the game."""

    kind: Literal["assassin"]
    type: str


class WpDrawEvent(_Base):
    """§8.16: the Warrior Priest draws a coin (which: ``coin``, its owner only)."""

    kind: Literal["wp_draw"]
    secret: NotRequired[CoinSecret]
    coin: NotRequired[str]


class DeclineEvent(_Base):
    """§16: an optional decision declined."""

    kind: Literal["decline"]


class AbsorbEvent(_Base):
    """§8.13: the Royal Guard loses a supply coin instead of one from its stack."""

    kind: Literal["absorb"]


class PayEvent(_Base):
    """§8.2: the Berserker discards a coin of its stack to maneuver again."""

    kind: Literal["pay"]


class ResignEvent(_Base):
    """The seat resigned."""

    kind: Literal["resign"]


Event: TypeAlias = Annotated[
    (
        PickEvent | DrawEvent | FaceDownEvent | DeployEvent | BolsterEvent | PurgeEvent | CureEvent |
        MoveEvent | ControlEvent | WinEvent | AttackEvent | CounterEvent | DamageEvent | UnitRemovedEvent |
        RecruitEvent | PoisonEvent | DecoyEvent | DecreeEvent | ReinforceEvent | TacticEvent |
        AssassinEvent | WpDrawEvent | DeclineEvent | AbsorbEvent | PayEvent | ResignEvent
    ),
    Field(discriminator="kind"),
]  # fmt: skip
"""One event of Сундук войны, told apart by ``kind``."""

EVENT_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(list[Event])
"""Validates a list of events (as ``apply`` returns them, or as ``event_view`` shows them)."""

Events: TypeAlias = list[Event]
"""What ``apply`` returns (and every engine step appends to)."""
