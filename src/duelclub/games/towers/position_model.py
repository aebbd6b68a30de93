"""The declared Дві вежі position model (docs/positions/towers.md; schema docs/positions/towers.schema.json).

:class:`TowersPosition` validates the shape (strict types, bounded counters, card ids 1..102, tags) and the
cross-field rules of a reachable state: the deck kind and its piles, hand sizes per phase, «Граємо знову»
only at a forced discard, the normal deck holding each card once, the cards of the current turn agreeing
with the phase, the timeout counters (§9), and the outcome against the counters: a match in which a victory
condition holds is over (§7.2), and a finished one ended for the reason it gives (§7, §9, D29).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, Strict, model_validator

from duelclub.games.position_model import Pair, PositionModel, Seat, StreamModel, Version1, need
from duelclub.games.towers.battlefields import BATTLEFIELD_IDS, BATTLEFIELD_INDEX, BATTLEFIELDS
from duelclub.games.towers.cards import HAND_SIZE, N_CARDS
from duelclub.games.towers.rules import TIMEOUT_LOSS, TURN_LIMIT, satisfies
from duelclub.games.towers.state import TAGS

if TYPE_CHECKING:
    BattlefieldId = str
    Tag = str
else:
    BattlefieldId = Literal[BATTLEFIELD_IDS]
    Tag = Literal[TAGS]

VERSION = 1
MAX_COUNTER = 10**6
# «Граємо знову» chains have no fixed length (§5; with the normal deck at most 21 actions a turn); these
# bounds are far above anything a match produces and only keep a position's size finite.
MAX_LAST = 1000
MAX_HISTORY = 100_000
Card = Annotated[int, Field(ge=1, le=N_CARDS), Strict()]
Counter_ = Annotated[int, Field(ge=0, le=MAX_COUNTER)]
Pile = Annotated[list[Card], Field(max_length=N_CARDS)]
# Fixed-length arrays are tuples; JSON gives lists, which a lax tuple accepts (its items stay strict).
LastEntry = Annotated[tuple[Card, Tag], Field(strict=False)]
HistoryEntry = Annotated[tuple[Annotated[int, Field(ge=0, le=1), Strict()], Card, Tag], Field(strict=False)]
Reason = Literal["destruction", "tower", "resource", "timeout", "resign", "draw", "turn_limit"]


class Counters(PositionModel):
    """A player's eight counters (§1), in ``dsl.ATTRS`` order."""

    tower: Counter_
    wall: Counter_
    mines: Counter_
    monasteries: Counter_
    barracks: Counter_
    ore: Counter_
    mana: Counter_
    troops: Counter_

    def values(self) -> list[int]:
        return [
            self.tower,
            self.wall,
            self.mines,
            self.monasteries,
            self.barracks,
            self.ore,
            self.mana,
            self.troops,
        ]


class OutcomeModel(PositionModel):
    winner: Seat | None
    reason: Reason


class TowersPosition(PositionModel):
    """A complete Дві вежі position, version 1 (docs/positions/towers.md)."""

    game: Literal["towers"]
    version: Version1
    stream: StreamModel
    battlefield: BattlefieldId
    deck: Literal["normal", "infinite"]
    players: Pair[Counters]
    hands: Pair[Annotated[list[Card], Field(min_length=HAND_SIZE - 1, max_length=HAND_SIZE)]]
    pile: Pile | None
    discard: Pile | None
    pool: Pile | None
    active: Seat
    turn: Annotated[int, Field(ge=1, le=TURN_LIMIT)]
    phase: Literal["main", "extra", "forced_discard", "over"]
    again: bool
    timeouts: Pair[Annotated[int, Field(ge=0, le=TIMEOUT_LOSS)]]
    last: Pair[Annotated[list[LastEntry], Field(max_length=MAX_LAST)]]
    history: Annotated[list[HistoryEntry], Field(max_length=MAX_HISTORY)]
    outcome: OutcomeModel | None

    @model_validator(mode="after")
    def _consistent(self) -> TowersPosition:
        over = self.phase == "over"
        need(over == (self.outcome is not None), "outcome is set exactly when the phase is over")
        for seat in (0, 1):
            # A hand holds 6 at every decision point, also at the forced discard (play -1, draw +1; see
            # docs/positions/towers.md); a match that ended on a played card was not refilled (5).
            n = len(self.hands[seat])
            need(
                n == HAND_SIZE or over, f"seat {seat} holds {n} cards; a running match refills to {HAND_SIZE}"
            )
        # A match may end (resignation, timeout) during a forced discard, its «play again» still pending.
        need(
            self.phase in ("forced_discard", "over") or not self.again,
            "again is only pending at a forced discard",
        )
        self._check_deck()
        self._check_turn_cards()
        self._check_end()
        return self

    def _check_deck(self) -> None:
        piles = (self.pile, self.discard, self.pool)
        if self.deck == "infinite":
            need(all(p is None for p in piles), "the infinite deck has no pile, discard or pool")
            return
        need(
            self.pile is not None and self.discard is not None and self.pool is not None,
            "the normal deck has piles",
        )
        assert self.pile is not None and self.discard is not None and self.pool is not None
        every = Counter(self.hands[0] + self.hands[1] + self.pile + self.discard)
        need(
            len(every) == N_CARDS and max(every.values()) == 1,
            "the normal deck must hold each card 1..102 exactly once",
        )
        need(len(set(self.pool)) == len(self.pool), "pool lists a card twice")
        need(set(self.pile) <= set(self.pool), "every pile card must be in pool")

    def _check_turn_cards(self) -> None:
        mine = self.last[self.active]
        if self.phase == "main":
            need(not mine, "no card has left the active hand at the start of a turn (§5 step 1)")
        elif self.phase == "forced_discard":
            need(bool(mine) and mine[-1][1] == "play", "a forced discard follows a played card (§6 step 5)")
        elif self.phase == "extra":  # «Граємо знову» after a play, or after the forced discard of its card
            need(
                bool(mine) and mine[-1][1] in ("play", "forced_discard"),
                "the extra action follows a played card",
            )

    def _check_end(self) -> None:
        bf = BATTLEFIELDS[BATTLEFIELD_INDEX[self.battlefield]]
        p0, p1 = self.players[0].values(), self.players[1].values()
        won = (satisfies(p0, p1, bf.victory_tower, bf.victory_resource),
               satisfies(p1, p0, bf.victory_tower, bf.victory_resource))  # fmt: skip
        out = self.outcome
        if out is None:
            need(max(self.timeouts) < TIMEOUT_LOSS, "a third timed-out turn has already lost (§9)")
            if self.phase != "forced_discard":  # the card's victory check waits for the discard (§6 step 6)
                need(won == (None, None), f"a victory condition holds ({won}), so the match is over (§7.2)")
            return
        need(
            (out.winner is None) == (out.reason in ("draw", "turn_limit")),
            f"{out.reason} and winner disagree",
        )
        if out.reason == "draw":
            need(None not in won, "a draw needs both players to meet a victory condition (D17)")
        elif out.reason in ("destruction", "tower", "resource"):
            assert out.winner is not None
            need(won[out.winner] == out.reason and won[1 - out.winner] is None, f"{out.reason} does not hold")
        elif out.reason == "turn_limit":
            need(self.turn == TURN_LIMIT, f"turn_limit ends turn {TURN_LIMIT} only (§7.4)")
        elif out.reason == "timeout":
            loser = 1 - (out.winner or 0)
            need(
                self.timeouts[loser] == TIMEOUT_LOSS and self.active == loser,
                "a timeout loss needs 3 timeouts",
            )
        need(out.reason == "timeout" or max(self.timeouts) < TIMEOUT_LOSS, "3 timeouts end the match on time")
