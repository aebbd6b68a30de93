"""A tiny fake game for the server tests (``duel``), so they do not depend on Mezha's rules.

Each seat holds 3 of the cards 1..10, dealt from the match stream (rules/fairness.md); per round the seat to
move plays a card face down, then the other; the higher card wins the round and leads the next. With the
``pause`` option both seats may send ``continue`` between rounds (like Mezha's D17). ``resign`` always works.
The clock is optional (``clock_mode``); a seat's third consecutive timeout loses (reason ``timeout``), like
Дві вежі §9 — a seat's own action resets its count.
Hidden information: the opponent's hand, and the opponent's played card until the round resolves.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from duelclub.games.contract import JSON, ClockMode, Game, IllegalAction, Outcome, Seat
from duelclub.games.fairness import Stream
from duelclub.words import GameWords, register_words
from duelclub.words.base import NO_NAMES, Names


class _A(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Play(_A):
    kind: Literal["play"] = "play"
    card: int


class Continue(_A):
    kind: Literal["continue"] = "continue"


class Resign(_A):
    kind: Literal["resign"] = "resign"


class Timeout(_A):
    """Clock-only: plays the seat's lowest card, or continues in a pause."""

    kind: Literal["timeout"] = "timeout"


class DuelOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rounds: int = Field(default=3, ge=1, le=3)
    pause: bool = False


@dataclass
class DuelState:
    hands: list[list[int]]
    turn: int
    rounds: int
    pause: bool
    played: list[int | None] = field(default_factory=lambda: [None, None])
    score: list[int] = field(default_factory=lambda: [0, 0])
    timeouts: list[int] = field(default_factory=lambda: [0, 0])
    round: int = 1
    paused: bool = False
    outcome: Outcome | None = None


class Duel(Game[DuelState, Any, DuelOptions]):
    """Each seat holds 3 of the cards 1..10 (dealt from the match stream); per round the seat to move plays
    a card face down, then the other; the higher card wins the round and leads the next. With
    ``pause`` both seats may send ``continue`` between rounds. Most rounds won wins."""

    slug: ClassVar[str] = "duel"
    title: ClassVar[str] = "Duel"
    options_model: ClassVar[type[BaseModel]] = DuelOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(
        Annotated[Play | Continue | Resign | Timeout, Field(discriminator="kind")]
    )
    bot_levels: ClassVar[tuple[str, ...]] = ("easy",)
    reason_codes: ClassVar[tuple[str, ...]] = ("score", "resign", "timeout")
    clock_mode: ClassVar[ClockMode] = "optional"

    def new_match(self, key: bytes, options: DuelOptions) -> DuelState:
        st = Stream(key)
        first = st.randint(2)
        deck = st.shuffled(list(range(1, 11)))
        return DuelState([sorted(deck[:3]), sorted(deck[3:6])], first, options.rounds, options.pause)

    def to_move(self, state: DuelState) -> frozenset[Seat]:
        if state.outcome is not None:
            return frozenset()
        return frozenset((0, 1)) if state.paused else frozenset((state.turn,))

    def legal_actions(self, state: DuelState, seat: Seat) -> list[Any]:
        if seat not in self.to_move(state):
            return []
        return [Continue()] if state.paused else [Play(card=c) for c in state.hands[seat]]

    def apply(self, state: DuelState, seat: Seat, action: Any) -> list[JSON]:
        if state.outcome is not None:
            raise IllegalAction("match_over", "the match is over")
        if action.kind == "resign":
            state.outcome = Outcome(1 - seat, "resign")
            return [{"kind": "resign", "seat": seat}]
        if action.kind == "timeout":
            if seat not in self.to_move(state):
                raise IllegalAction("not_your_turn", "the clock runs only for a seat to move")
            state.timeouts[seat] += 1
            if state.timeouts[seat] >= 3:
                state.outcome = Outcome(1 - seat, "timeout")
                return [{"kind": "timeout", "seat": seat, "count": 3}]
            action = Continue() if state.paused else Play(card=min(state.hands[seat]))
        else:
            state.timeouts[seat] = 0
        if action.kind == "continue":
            if not state.paused:
                raise IllegalAction("not_paused", "nothing to continue")
            state.paused = False
            return [{"kind": "continue", "seat": seat}]
        if state.paused or seat != state.turn:
            raise IllegalAction("not_your_turn", "wait for your turn")
        if action.card not in state.hands[seat]:
            raise IllegalAction("card_not_in_hand", f"no card {action.card} in hand")
        state.hands[seat].remove(action.card)
        state.played[seat] = action.card
        events: list[JSON] = [{"kind": "played", "seat": seat, "card": action.card}]
        if state.played[1 - seat] is None:
            state.turn = 1 - seat
            return events
        a, b = state.played
        winner = 0 if (a or 0) > (b or 0) else 1
        state.score[winner] += 1
        events.append({"kind": "round", "cards": [a, b], "winner": winner})
        state.played, state.turn, state.round = [None, None], winner, state.round + 1
        if state.score[winner] > state.rounds // 2 or state.round > state.rounds:
            s0, s1 = state.score
            state.outcome = Outcome(None if s0 == s1 else (0 if s0 > s1 else 1), "score")
        elif state.pause:
            state.paused = True
        return events

    def view(self, state: DuelState, seat: Seat | None) -> JSON:
        if state.outcome is not None:
            return self.full_view(state)
        played = [c if (c is None or s == seat) else "hidden" for s, c in enumerate(state.played)]
        return {
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in state.hands],
            "played": played,
            "score": list(state.score),
            "round": state.round,
            "turn": state.turn,
            "paused": state.paused,
        }

    def full_view(self, state: DuelState) -> JSON:
        return {
            "hands": [list(h) for h in state.hands],
            "played": list(state.played),
            "score": list(state.score),
            "round": state.round,
            "outcome": state.outcome.to_json() if state.outcome else None,
        }

    def event_view(self, state: DuelState, event: JSON, seat: Seat | None) -> JSON:
        if event["kind"] == "played" and event["seat"] != seat and state.outcome is None:
            return {"kind": "played", "seat": event["seat"]}
        return dict(event)

    def determinize(self, state: DuelState, seat: Seat, rng: random.Random) -> DuelState:
        return self.copy(state)

    def outcome(self, state: DuelState) -> Outcome | None:
        return state.outcome

    def timeout_action(self, state: DuelState, seat: Seat) -> Any:
        return Timeout()

    def clock_only(self, action: Any) -> bool:
        return bool(action.kind == "timeout")

    def to_position(self, state: DuelState) -> JSON:
        """Every field of the state (bot jobs carry a determinized state in this form)."""
        return {
            "version": 1,
            "hands": [list(h) for h in state.hands],
            "turn": state.turn,
            "rounds": state.rounds,
            "pause": state.pause,
            "played": list(state.played),
            "score": list(state.score),
            "timeouts": list(state.timeouts),
            "round": state.round,
            "paused": state.paused,
            "outcome": state.outcome.to_json() if state.outcome else None,
        }

    def from_position(self, position: JSON) -> DuelState:
        if position.get("version") != 1:
            raise ValueError("unknown duel position version")
        p = copy.deepcopy(position)
        outcome = p["outcome"]
        return DuelState(
            hands=p["hands"],
            turn=p["turn"],
            rounds=p["rounds"],
            pause=p["pause"],
            played=p["played"],
            score=p["score"],
            timeouts=p["timeouts"],
            round=p["round"],
            paused=p["paused"],
            outcome=Outcome(outcome["winner"], outcome["reason"]) if outcome else None,
        )

    def copy(self, state: DuelState) -> DuelState:
        return copy.deepcopy(state)


DUEL = Duel()


class DuelWords(GameWords):
    """The fake game's words (plugged in with ``register_words``: the club does not list it)."""

    slug: ClassVar[str] = "duel"
    title: ClassVar[str] = "Duel"
    reasons: ClassVar[dict[str, str]] = {"score": "больше выигранных раундов"}

    def options_text(self, options: BaseModel, seat: Seat | None) -> str:
        assert isinstance(options, DuelOptions)
        return f"раундов: {options.rounds}" + (" (вы открыли)" if seat == 0 else "")

    def event_lines(
        self, events: list[JSON], seat: Seat | None, names: Names = NO_NAMES
    ) -> list[JSON | None]:
        return [None] * len(events)


register_words(DuelWords())


class FirstLegalBot:
    """A fake bot: the first legal action (or a random one with ``randomize``)."""

    level = "easy"

    def choose(self, game: Any, state: Any, seat: Seat, rng: random.Random) -> Any:
        actions = game.legal_actions(state, seat)
        if not actions:
            raise ValueError("nothing to choose")
        return actions[0]
