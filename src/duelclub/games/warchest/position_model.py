"""The declared Сундук войны position model (docs/positions/warchest.md; schema
docs/positions/warchest.schema.json).

:class:`WarchestPosition` validates the shape (strict types, bounded counts, coin, unit, decree and task
ids, hex ids) and the cross-field rules of a reachable state: the draft agreeing with the phase (§5), the
decrees of Знать (§11) and the pieces of Ночь (§12) only with their expansion, each side's control markers
(6 in all, §10) and coins (every coin of a drafted type somewhere, §2), the units on the board, and the
outcome: a side with all six markers placed has won (§10), a finished match has no pending decision, a
round-limit draw ends round 100 (D28).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, Strict, model_validator

from duelclub.games.position_model import Pair, PositionModel, Seat, StreamModel, Version1, need
from duelclub.games.warchest.actions import Action
from duelclub.games.warchest.board import IS_LOCATION, N_HEXES
from duelclub.games.warchest.engine import ROUND_LIMIT, TASKS
from duelclub.games.warchest.units import COIN_ORDER, DECOYS_PER_UNIT, DECREE_IDS, ROYAL, UNIT, UNIT_IDS

if TYPE_CHECKING:
    CoinId = str
    UnitId = str
    DecreeId = str
    TaskName = str
else:
    CoinId = Literal[COIN_ORDER]
    UnitId = Literal[UNIT_IDS]
    DecreeId = Literal[DECREE_IDS]
    TaskName = Literal[tuple(TASKS)]

VERSION = 1
MARKERS = 6  # §2: control markers per side
Count = Annotated[int, Field(ge=1, le=9)]  # a zone lists positive counts only; a ×5 type has 5 coins
Hex = Annotated[int, Field(ge=0, le=N_HEXES - 1)]
Decoy = Literal["infiltrator", "skirmisher"]
Scalar = Annotated[str, Strict()] | Annotated[bool, Strict()] | Annotated[int, Strict()]


class SideModel(PositionModel):
    """One side's drafted types, marker reserve and coin zones as multisets (docs/positions/warchest.md)."""

    types: Annotated[list[UnitId], Field(max_length=4)]
    reserve: Annotated[int, Field(ge=0, le=MARKERS)]
    bag: dict[CoinId, Count]
    hand: dict[CoinId, Count]
    up: dict[CoinId, Count]
    down: dict[CoinId, Count]
    supply: dict[UnitId, Count]
    elim: dict[UnitId, Count]
    decoys: dict[Decoy, Annotated[int, Field(ge=1, le=DECOYS_PER_UNIT)]]


class UnitModel(PositionModel):
    """A stack on the board: owner side, type, coins in it, poison seal bits (1 Assassin's, 2 Saboteur's)."""

    hex: Hex
    owner: Seat
    type: UnitId
    height: Annotated[int, Field(ge=1, le=5)]
    poison: Annotated[int, Field(ge=0, le=3)]
    uid: Annotated[int, Field(ge=1, le=10**6)]


class PendingModel(PositionModel):
    """The decision waiting for an answer (§16)."""

    owner: Seat
    kind: Annotated[str, Field(pattern=r"^[a-z_]{1,32}$")]
    options: Annotated[list[Action], Field(min_length=1, max_length=500)]
    optional: bool
    data: Annotated[list[Scalar], Field(max_length=4)]


class OutcomeModel(PositionModel):
    winner: Seat | None
    reason: Literal["control", "round_limit", "resign"]


class WarchestPosition(PositionModel):
    """A complete Сундук войны position, version 1 (docs/positions/warchest.md)."""

    game: Literal["warchest"]
    version: Version1
    stream: StreamModel
    nobility: bool
    nightfall: bool
    draft_variant: Literal["club", "eight", "random"]
    wolf_seat: Seat
    phase: Literal["draft", "play", "over"]
    draft_pool: Annotated[list[UnitId], Field(max_length=len(UNIT_IDS))]
    draft_order: Annotated[list[Seat], Field(max_length=8)]
    decrees: Annotated[list[DecreeId], Field(max_length=3)]
    hidden_decrees: Annotated[list[DecreeId], Field(max_length=4)]
    sealed: Pair[Annotated[list[DecreeId], Field(max_length=3)]]
    sides: Pair[SideModel]
    control: Annotated[
        list[Annotated[int, Field(ge=-1, le=1)]], Field(min_length=N_HEXES, max_length=N_HEXES)
    ]
    units: Annotated[list[UnitModel], Field(max_length=N_HEXES)]
    initiative: Seat
    changed: bool
    round: Annotated[int, Field(ge=0, le=ROUND_LIMIT)]
    turn: Seat
    stack: Annotated[
        list[Annotated[list[TaskName | Scalar], Field(min_length=1, max_length=6)]], Field(max_length=64)
    ]
    pending: PendingModel | None
    outcome: OutcomeModel | None
    uid: Annotated[int, Field(ge=0, le=10**6)]

    @model_validator(mode="after")
    def _consistent(self) -> WarchestPosition:
        need(
            (self.phase == "over") == (self.outcome is not None),
            "outcome is set exactly when the phase is over",
        )
        self._check_draft()
        self._check_expansions()
        self._check_board()
        for side in (0, 1):
            self._check_coins(side)
        self._check_end()
        return self

    def _check_draft(self) -> None:
        if self.phase == "draft" or (
            self.phase == "over" and self.draft_order
        ):  # over: resigned in the draft
            need(bool(self.draft_order), "a draft in progress has a side to pick (§5)")
            need(len(self.draft_pool) >= len(self.draft_order), "more picks than types left")
            need(self.round == 0 and not self.units, "nothing is on the board during the draft")
        else:
            need(not self.draft_order and not self.draft_pool, "the draft is over once play starts")
            need(all(len(p.types) == 4 for p in self.sides), "each side drafted 4 unit types (§2)")
            need(self.round >= 1, "play starts with round 1")
        drafted = self.sides[0].types + self.sides[1].types + self.draft_pool
        need(len(set(drafted)) == len(drafted), "a unit type is drafted once")
        for t in self.stack:
            need(isinstance(t[0], str) and t[0] in TASKS, f"unknown task {t[0]!r}")

    def _check_expansions(self) -> None:
        decrees = self.decrees + self.hidden_decrees
        if self.nobility:
            need(
                len(self.decrees) == 3 and sorted(decrees) == sorted(DECREE_IDS),
                "Знать: 3 revealed + 4 hidden",
            )
        else:
            need(not decrees and not any(self.sealed), "decrees only with Знать (§11)")
        for side in (0, 1):
            seals = self.sealed[side]
            need(
                len(set(seals)) == len(seals) and set(seals) <= set(self.decrees),
                "seals lie on revealed decrees",
            )
        if not self.nightfall:
            need(not any(p.decoys for p in self.sides), "decoys only with Ночь (§12)")
            need(not any(u.poison for u in self.units), "poison only with Ночь (§12)")

    def _check_board(self) -> None:
        for h, c in enumerate(self.control):
            if c != -1 and not IS_LOCATION[h]:
                raise ValueError(f"hex {h} is not a location and cannot be controlled")
        for side in (0, 1):
            on_board = self.control.count(side)
            need(
                on_board + self.sides[side].reserve == MARKERS,
                f"side {side}: {MARKERS} control markers in all (§2)",
            )
        hexes = [u.hex for u in self.units]
        uids = [u.uid for u in self.units]
        need(len(set(hexes)) == len(hexes), "one unit per hex")
        need(
            len(set(uids)) == len(uids) and all(u <= self.uid for u in uids),
            "unit uids are distinct and issued",
        )
        for u in self.units:
            if u.type not in self.sides[u.owner].types:
                raise ValueError(f"the unit on hex {u.hex} is not of its owner's types")

    def _check_coins(self, side: int) -> None:
        p = self.sides[side]
        held = [p.bag, p.hand, p.up, p.down]
        for zone in held:
            for coin in zone:
                if coin in UNIT and coin not in p.types:
                    raise ValueError(f"side {side} holds a {coin} coin it did not draft")
        if self.draft_order:  # the coins go into the bags when the draft ends (§5 steps 5–6)
            need(not any(held) and not p.supply and not p.elim, "coins before the draft ended")
            return
        count: dict[str, int] = {}
        for zone in (*held, p.supply, p.elim):
            for coin, n in zone.items():
                count[coin] = count.get(coin, 0) + n
        for u in self.units:
            if u.owner == side:
                count[u.type] = count.get(u.type, 0) + u.height
        pd = self.pending
        if pd is not None and pd.kind == "wp_play" and pd.owner == side and isinstance(pd.data[0], str):
            count[pd.data[0]] = count.get(pd.data[0], 0) + 1  # drawn by the Warrior Priest, not yet played
        for t in p.types:
            if count.get(t, 0) != UNIT[t].coins:
                raise ValueError(f"side {side} has {count.get(t, 0)} {t} coins, not {UNIT[t].coins} (§3)")
        if count.get(ROYAL, 0) != 1:
            raise ValueError(f"side {side} has {count.get(ROYAL, 0)} Royal coins, not 1 (§2)")

    def _check_end(self) -> None:
        out = self.outcome
        if out is None:
            need(all(p.reserve > 0 for p in self.sides), "a side with all six markers placed has won (§10)")
            return
        need(self.pending is None and not self.stack, "a finished match has nothing pending (§10)")
        if out.reason == "control":
            need(
                out.winner is not None and self.sides[out.winner ^ self.wolf_seat].reserve == 0,
                "control needs 6 markers",
            )
        elif out.reason == "round_limit":
            need(
                out.winner is None and self.round == ROUND_LIMIT,
                f"round_limit is a draw after round {ROUND_LIMIT}",
            )
        else:
            need(out.winner is not None, "a resignation has a winner")
