"""A tiny game for testing the generic bots: Nim with a hidden, irrelevant secret and an optional pause.

A pile of stones; the seat to move takes 1–3; whoever takes the last stone wins. Each seat holds a secret
number only it sees (``determinize`` re-samples the opponent's). With ``pause_at`` set, the first time the
pile drops to that size or below the match pauses: both seats are to move and the only action is ``next``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter

from duelclub.games.contract import JSON, Game, IllegalAction, Outcome, Seat


class Take(BaseModel):
    kind: Literal["take"] = "take"
    n: int


class Next(BaseModel):
    kind: Literal["next"] = "next"


Action = Annotated[Take | Next, Field(discriminator="kind")]


class NimOptions(BaseModel):
    pile: int = 7
    pause_at: int | None = None
    first: Seat = 0


@dataclass
class NimState:
    pile: int
    turn: Seat
    pause_at: int | None
    paused: bool = False
    secrets: list[int] = field(default_factory=lambda: [0, 0])
    winner: Seat | None = None


class Nim(Game[NimState, Any, NimOptions]):
    slug: ClassVar[str] = "nim"
    title: ClassVar[str] = "Nim"
    options_model: ClassVar[type[BaseModel]] = NimOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(Action)
    bot_levels: ClassVar[tuple[str, ...]] = ("random",)

    def new_match(self, key: bytes, options: NimOptions) -> NimState:
        rng = random.Random(key)
        secrets = [rng.randrange(100), rng.randrange(100)]
        return NimState(options.pile, options.first, options.pause_at, secrets=secrets)

    def to_move(self, state: NimState) -> frozenset[Seat]:
        if state.winner is not None:
            return frozenset()
        return frozenset({0, 1}) if state.paused else frozenset({state.turn})

    def legal_actions(self, state: NimState, seat: Seat) -> list[Any]:
        if seat not in self.to_move(state):
            return []
        if state.paused:
            return [Next()]
        return [Take(n=n) for n in (1, 2, 3) if n <= state.pile]

    def apply(self, state: NimState, seat: Seat, action: Any) -> list[JSON]:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("illegal", f"{action!r} for seat {seat}")
        if isinstance(action, Next):
            state.paused = False
            state.pause_at = None
            return [{"kind": "next"}]
        state.pile -= action.n
        if state.pile == 0:
            state.winner = seat
        else:
            state.turn = 1 - seat
            if state.pause_at is not None and state.pile <= state.pause_at:
                state.paused = True
        return [{"kind": "take", "n": action.n}]

    def view(self, state: NimState, seat: Seat | None) -> JSON:
        return {
            "pile": state.pile,
            "turn": state.turn,
            "paused": state.paused,
            "secret": None if seat is None else state.secrets[seat],
        }

    def full_view(self, state: NimState) -> JSON:
        return {**self.view(state, None), "secrets": list(state.secrets)}

    def event_view(self, state: NimState, event: JSON, seat: Seat | None) -> JSON:
        return event

    def determinize(self, state: NimState, seat: Seat, rng: random.Random) -> NimState:
        copy = self.copy(state)
        copy.secrets[1 - seat] = rng.randrange(100)
        return copy

    def outcome(self, state: NimState) -> Outcome | None:
        return None if state.winner is None else Outcome(state.winner, "last_stone")

    def timeout_action(self, state: NimState, seat: Seat) -> Any:
        return self.legal_actions(state, seat)[0]

    def to_position(self, state: NimState) -> JSON:
        return {"v": 1, **self.full_view(state), "pause_at": state.pause_at, "winner": state.winner}

    def from_position(self, position: JSON) -> NimState:
        return NimState(
            position["pile"],
            position["turn"],
            position["pause_at"],
            position["paused"],
            list(position["secrets"]),
            position["winner"],
        )

    def copy(self, state: NimState) -> NimState:
        return NimState(
            state.pile, state.turn, state.pause_at, state.paused, list(state.secrets), state.winner
        )


NIM = Nim()


def nim(pile: int, *, first: Seat = 0, pause_at: int | None = None) -> NimState:
    """A fresh Nim match (the key only fixes the secrets)."""
    return NIM.new_match(b"k" * 32, NimOptions(pile=pile, first=first, pause_at=pause_at))
