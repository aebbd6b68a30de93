"""The declared Межа position model (docs/positions.md §mezha; schema docs/positions/mezha.schema.json).

:class:`MezhaPosition` validates a position's shape (strict types, bounds, list lengths, card and omen ids)
and every cross-field rule that needs no engine: houses, phase/turn/outcome agreement, the season results
(numbering, omens, starters, winners), a decided match loaded as still in play, passes, carried units
(корни, D3) and each seat's 20 cards. ``position.from_position`` adds the checks that need the rebuilt state
(half capacity, the automatic pass, D1).

``python -m duelclub.games.position_schemas`` writes the JSON Schema.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, model_validator

from duelclub.games.mezha.cards import (
    CARD_INDEX,
    CARDS,
    HAND_LIMIT,
    HAS_ROOTS,
    HAS_SHIELD,
    HIDDEN,
    HOUSE_KINDS,
    HOUSES,
    IDS,
    OMEN_IDS,
)
from duelclub.games.position_model import Pair, PositionModel, Seat, StreamModel, Triple, Version1, need

if TYPE_CHECKING:
    CardId = str
    OmenId = str
    House = str
else:
    CardId = Literal[IDS]
    OmenId = Literal[OMEN_IDS]
    House = Literal[HOUSES]

VERSION = 1
MAX_PLACEMENTS = 40  # D13: every unit put onto a field is one of the two 20-card decks
Reason = Literal["two_seasons", "more_seasons", "draw", "resign"]
Strength = Annotated[int, Field(ge=0, le=999)]
Cards = Annotated[list[CardId], Field(max_length=20)]


class UnitModel(PositionModel):
    """A unit on a field (docs/positions.md §mezha, "A unit")."""

    card: CardId
    strength: Annotated[int, Field(ge=1, le=999)]
    shield: bool
    placement: Annotated[int, Field(ge=1, le=MAX_PLACEMENTS)]
    face_down: bool
    season: Annotated[int, Field(ge=1, le=3)]
    thaw: bool = False
    rosa: Annotated[int, Field(ge=0, le=2)] = 0  # two Роса cards in Ольха's deck
    opps: Annotated[int, Field(ge=0, le=20)] = 0

    @model_validator(mode="after")
    def _abilities(self) -> UnitModel:
        kind = CARD_INDEX[self.card]
        need(not CARDS[kind].is_tactic, f"{self.card} is a tactic and cannot be on a field")
        need(HAS_SHIELD[kind] or not self.shield, f"{self.card} has no щит, so no shield")
        need(HIDDEN[kind] or not self.face_down, f"{self.card} has no тайник, so it cannot be face down")
        return self


class ResultModel(PositionModel):
    """One scored season (§Scoring a season): field winners, per-field totals ``[seat0, seat1]``, total
    strength over the fields and the season winner (a seat, or null for a drawn season)."""

    season: Annotated[int, Field(ge=1, le=3)]
    omen: OmenId
    starter: Seat
    fields: Triple[Seat | None]
    totals: Triple[Pair[Strength]]
    strength: Pair[Annotated[int, Field(ge=0, le=9999)]]
    winner: Seat | None

    @model_validator(mode="after")
    def _scored(self) -> ResultModel:
        for f, (a, b) in enumerate(self.totals):
            need(self.fields[f] == _higher(a, b), f"field {f}'s winner does not match its totals")
        need(self.strength == [sum(t[0] for t in self.totals), sum(t[1] for t in self.totals)], "strength")
        winner = _higher(self.fields.count(0), self.fields.count(1))
        if winner is None:
            winner = _higher(self.strength[0], self.strength[1])
        need(self.winner == winner, "the season winner does not follow from the fields and strength")
        return self


class OutcomeModel(PositionModel):
    winner: Seat | None
    reason: Reason


def _higher(a: int, b: int) -> Seat | None:
    return 0 if a > b else 1 if b > a else None


def match_result(wins: list[int], scored: int) -> tuple[Seat | None, Reason] | None:
    """D10 on ``wins`` after ``scored`` seasons: two wins; after three, more wins or a draw; else None."""
    for seat in (0, 1):
        if wins[seat] >= 2:
            return (0 if seat == 0 else 1), "two_seasons"
    if scored < 3:
        return None
    w = _higher(wins[0], wins[1])
    return (None, "draw") if w is None else (w, "more_seasons")


def _check_carried(u: UnitModel, kind: int, season: int, where: str) -> None:
    """D3: a unit from an earlier season is a корни unit put onto the field in the previous season."""
    need(HAS_ROOTS[kind], f"{where}: only a корни unit is carried over (D3)")
    need(u.season == season - 1, f"{where}: a корни unit stays one season only (D3)")
    need(not u.face_down, f"{where}: a carried unit was revealed at scoring")


class MezhaPosition(PositionModel):
    """A complete Межа position, version 1 (docs/positions.md §mezha)."""

    game: Literal["mezha"]
    version: Version1
    stream: StreamModel
    houses: Pair[House]
    omens: Annotated[list[OmenId], Field(min_length=4, max_length=4)]
    season: Annotated[int, Field(ge=1, le=3)]
    phase: Literal["season", "pause", "over"]
    starter: Seat
    turn: Seat | None
    passed: Pair[bool]
    auto_passed: Pair[bool]
    thaw_used: Pair[Triple[bool]]
    placements: Annotated[int, Field(ge=0, le=MAX_PLACEMENTS)]
    hands: Pair[Annotated[list[CardId], Field(max_length=HAND_LIMIT)]]
    decks: Pair[Cards]
    discards: Pair[Cards]
    fields: Triple[Pair[Annotated[list[UnitModel], Field(max_length=4)]]]
    results: Annotated[list[ResultModel], Field(max_length=3)]
    outcome: OutcomeModel | None

    @model_validator(mode="after")
    def _consistent(self) -> MezhaPosition:
        need(self.houses[0] != self.houses[1], "houses must be olkha and gorn, one each")
        need(len(set(self.omens)) == 4, "omens must be the four omens, each once")
        need(
            (self.phase == "season") == (self.turn is not None),
            "turn is set exactly while a season is played",
        )
        need(
            (self.phase == "over") == (self.outcome is not None),
            "outcome is set exactly when the phase is over",
        )
        self._check_results()
        self._check_passes()
        self._check_units()
        self._check_cards()
        return self

    def _check_results(self) -> None:
        n, season = len(self.results), self.season
        if self.phase == "season":
            need(n == season - 1, f"season {season} in play must follow {season - 1} scored seasons, not {n}")
        elif self.phase == "pause":
            need(n == season, f"the pause after season {season} needs {season} scored seasons, not {n}")
        else:
            need(n in (season - 1, season), f"{n} scored seasons do not fit season {season}")
        starter = None
        for i, r in enumerate(self.results):
            need(r.season == i + 1 and r.omen == self.omens[i], f"result {i} must be season {i + 1}'s")
            if starter is not None:
                need(r.starter == starter, f"season {i + 1}'s starter must be {starter}")
            starter = r.winner if r.winner is not None else 1 - r.starter
        if starter is not None and n == season - 1:
            need(self.starter == starter, f"season {season}'s starter must be {starter} (§Between seasons)")
        if n == season:
            need(self.starter == self.results[-1].starter, "starter must be the scored season's")
        wins = [sum(1 for r in self.results if r.winner == seat) for seat in (0, 1)]
        decided = match_result(wins, n)
        if self.outcome is None:
            need(decided is None, f"the match is decided ({decided}) but loaded as still in play")
        elif self.outcome.reason == "resign":
            need(self.outcome.winner is not None, "a resignation has a winner")
            need(decided is None, "the match was decided before the resignation")
        else:
            need(n == season, "a match decided by seasons ends when its last season is scored")
            need(decided == (self.outcome.winner, self.outcome.reason), f"outcome must be {decided}")

    def _check_passes(self) -> None:
        for seat in (0, 1):
            need(self.passed[seat] or not self.auto_passed[seat], f"seat {seat} auto-passed without passing")
        if self.phase == "season":
            need(not (self.passed[0] and self.passed[1]), "both passed but the season is not scored")
            need(self.turn is not None and not self.passed[self.turn], "the seat on turn has passed")
        elif self.phase == "pause":
            need(self.passed[0] and self.passed[1], "a season is scored only after both passed")

    def _check_units(self) -> None:
        cap = 3 if self.omens[self.season - 1] == "drought" else 4
        scored = len(self.results) == self.season
        placements = []
        for f, field in enumerate(self.fields):
            for seat, half in enumerate(field):
                kinds = HOUSE_KINDS[HOUSES.index(self.houses[seat])]
                carried = 0
                for u in half:
                    placements.append(u.placement)
                    kind = CARD_INDEX[u.card]
                    if kind not in kinds:
                        raise ValueError(f"field {f} seat {seat}: {u.card} is not of its house")
                    if u.season != self.season:
                        _check_carried(u, kind, self.season, f"field {f} seat {seat} unit {u.placement}")
                        carried += 1
                    if scored and u.face_down:
                        raise ValueError(
                            f"field {f} seat {seat}: {u.card} face down after scoring (§Scoring)"
                        )
                if len(half) > max(cap, carried):
                    raise ValueError(f"field {f} seat {seat}: more than {cap} units")
        need(len(set(placements)) == len(placements), "placement numbers must be distinct")
        need(all(p <= self.placements for p in placements), "a unit's placement exceeds the counter")

    def _check_cards(self) -> None:
        for seat in (0, 1):
            house = HOUSES.index(self.houses[seat])
            have = Counter(self.hands[seat] + self.decks[seat] + self.discards[seat])
            have.update(u.card for field in self.fields for u in field[seat])
            want = {IDS[k]: CARDS[k].copies for k in HOUSE_KINDS[house]}
            need(dict(have) == want, f"seat {seat}'s cards must be exactly house {HOUSES[house]}'s 20 cards")
