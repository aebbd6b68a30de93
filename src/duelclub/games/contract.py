"""The game contract every rules engine implements (DESIGN.md §The game contract).

A game is a stateless :class:`Game` object; all match data lives in its ``State`` value.
Seats are ``0`` (the player who opened the match) and ``1``. Everything here is pure: no I/O.

Typical use (what the match service and the bots do)::

    game = get_game("mezha")
    state = game.new_match(key, game.parse_options({"house": "olkha"}))
    seat = next(iter(game.to_move(state)))
    events = game.apply(state, seat, game.legal_actions(state, seat)[0])
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Protocol, Self

from pydantic import BaseModel, TypeAdapter, ValidationError
from typing_extensions import TypeVar

Seat = int
"""0 or 1. Seat 0 opened the match (vs a bot: the human); seat 1 joined (fairness.md §Values)."""

JSON = dict[str, Any]


class MatchState(Protocol):
    """What the contract needs of every game's ``State``: its result (None while the match goes on) and a
    fast independent copy (bots copy on every simulation)."""

    @property
    def outcome(self) -> Outcome[str] | None: ...

    def copy(self) -> Self: ...


StateT = TypeVar("StateT", bound=MatchState)
ActionT = TypeVar("ActionT", bound=BaseModel)
OptionsT = TypeVar("OptionsT", bound=BaseModel)
EventT_co = TypeVar("EventT_co", bound=Mapping[str, Any], default=Mapping[str, Any], covariant=True)
"""A game's events: the union of its ``TypedDict`` events (``games/<slug>/events.py``: ``Event``)."""
ReasonT_co = TypeVar("ReasonT_co", bound=str, default=str, covariant=True)
"""A game's end reasons: its ``Reason`` ``Literal``. Both are covariant (the contract only returns them), so
every game is a ``Game[Any, Any, Any]``, whose events are mappings and reasons strings (:data:`AnyGame`)."""

SEATS: tuple[Seat, Seat] = (0, 1)

PlatformReason = Literal[
    "resign",
    "timeout",
    "aborted",
    "abort",
    "cancelled",
    "player_abort",
    "no_first_move",
    "unplayed",
    "abandoned",
    "tournament_cancelled",
]
"""End reasons the platform (``play/``) sets whatever the game: ``resign`` (a player resigned; every game's
rules also end with it), ``timeout`` (a clock ran out), ``aborted``/``abort`` (an admin aborted the match;
``abort`` is the old spelling in stored matches), ``cancelled`` (an invite withdrawn), ``player_abort`` (a
player called the match off before both first moves), ``no_first_move`` (a clock ran out before a player's
first move), ``unplayed`` (a match between members ended — by resignation, an abandonment claim, the clock
or a rule — before both players had made their first move: aborted, never rated, issue 31 §1), ``abandoned``
(the opponent left, play/presence.py), ``tournament_cancelled`` (the match's tournament was cancelled while
it was in play: aborted, no result). ``duelclub.words`` words each of them."""

ClockMode = Literal["none", "optional", "required", "correspondence"]
"""See :attr:`Game.clock_mode`."""


class IllegalAction(Exception):
    """An action was rejected; the state is unchanged.

    ``code`` is a stable machine code (``not_your_turn``, ``card_not_in_hand``, ``half_full``,
    ``match_over``, ``malformed_action``, ``bad_options``, …); ``message`` is for people.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Outcome(Generic[ReasonT_co]):
    """How a match ended: ``winner`` is a seat, or None for a draw; ``reason`` a stable code.

    ``reason`` is one of the game's own codes — each game declares them as a ``Reason`` ``Literal`` in its
    package and lists them in :attr:`Game.reason_codes` (e.g. Межа's ``two_seasons``, Артания's
    ``five_tokens``) — or one of the platform's (:data:`PlatformReason`). Codes are data: the words for each
    live in ``duelclub.words`` (``GameWords.reasons``), never here. A game's own outcomes are
    ``Outcome[Reason]``; the platform's (``play/``) are ``Outcome[str]``, which every ``Outcome[Reason]`` is.
    """

    winner: Seat | None
    reason: ReasonT_co

    def to_json(self) -> JSON:
        return {"winner": self.winner, "reason": self.reason}


class Game(ABC, Generic[StateT, ActionT, OptionsT, EventT_co, ReasonT_co]):
    """Static facts and rules of one game; every method is a pure function of its arguments.

    The type parameters are the game's ``State``, its action and options models, its events (the union of
    its event ``TypedDict``s) and its ``Reason`` ``Literal``; the last two default to plain mappings and
    ``str`` (:data:`AnyGame`: any game, as the platform holds them).

    Subclasses set ``slug``, ``options_model``, ``action_adapter``, ``bot_levels``, ``reason_codes`` and
    ``position_model``; the clock reads ``clock_mode`` and :meth:`clock_only`, the ratings ``rated``, the
    registry ``lobby_order``. A club game wires its methods from its modules (:mod:`duelclub.games.modular`).
    Nothing here is words: the game's title, lobby texts, option texts, UI catalog, reasons and event lines
    live in ``duelclub.words`` (``words_for(slug)``, issue 15 §1–§2).
    """

    slug: ClassVar[str]
    options_model: ClassVar[type[BaseModel]]
    action_adapter: ClassVar[TypeAdapter[Any]]
    bot_levels: ClassVar[tuple[str, ...]] = ()
    reason_codes: ClassVar[tuple[str, ...]] = ()
    """Every reason code the game's rules can put in an :class:`Outcome`: ``typing.get_args`` of the game's
    ``Reason`` ``Literal`` (e.g. ``("two_seasons", "more_seasons", "draw", "resign")``), platform codes
    included where the rules end a match with one themselves (``resign``, ``timeout``). Empty in the base
    class; tests/test_words_contract.py checks each game lists some and its words cover every one."""
    clock_mode: ClassVar[ClockMode] = "none"
    """Per-move clock between members: ``none`` (never), ``optional`` (the opener may set seconds per move),
    ``required`` (every match between members has one), ``correspondence`` (none unless the opener sets a
    correspondence clock of 1 to 7 days per move). Matches against a bot never run a clock."""
    rated: ClassVar[bool] = True
    """Whether matches between members may be rated (Glicko-2, issue 14); against a bot never."""
    lobby_order: ClassVar[int] = 100
    """Where the game stands among the club's games (``games.registry``): smaller first, ties by slug."""
    position_model: ClassVar[type[BaseModel] | None] = None
    """The pydantic model of :meth:`to_position`'s JSON (``games/<slug>/position_model.py``), whose JSON
    Schema is committed as ``docs/positions/<slug>.schema.json`` (``games.position_schemas``). Every club
    game declares one; None for a game without a documented position format (the tests' toy games)."""

    # -- parsing at the boundary -------------------------------------------------------------
    def parse_options(self, raw: Any) -> OptionsT:
        """Validate match options; raises IllegalAction("bad_options") with the pydantic message."""
        try:
            return self.options_model.model_validate(raw if raw is not None else {})  # type: ignore[return-value]
        except ValidationError as exc:
            raise IllegalAction("bad_options", _first_error(exc)) from None

    def parse_action(self, raw: Any) -> ActionT:
        """Validate an action body (one element of ``legal``); raises IllegalAction("malformed_action")."""
        try:
            return self.action_adapter.validate_python(raw)  # type: ignore[no-any-return]
        except ValidationError as exc:
            raise IllegalAction("malformed_action", _first_error(exc)) from None

    def action_to_json(self, action: ActionT) -> JSON:
        """The JSON form of an action, as stored in the log and sent in ``legal``."""
        return action.model_dump(mode="json")

    def clock_only(self, action: ActionT) -> bool:
        """True for an action only the clock may play (``timeout_action``'s kind where it differs from every
        player action); the platform refuses it from a player with ``clock_only``."""
        return False

    # -- the rules ---------------------------------------------------------------------------
    @abstractmethod
    def new_match(self, key: bytes, options: OptionsT) -> StateT:
        """Deterministic initial state from the 32-byte match key ``K`` (fairness.md) and options."""

    @abstractmethod
    def to_move(self, state: StateT) -> frozenset[Seat]:
        """Seats that may act now (empty when the match is over)."""

    @abstractmethod
    def legal_actions(self, state: StateT, seat: Seat) -> list[ActionT]:
        """Complete list of legal actions for ``seat`` now, resignation excluded (it is always legal)."""

    @abstractmethod
    def apply(self, state: StateT, seat: Seat, action: ActionT) -> Sequence[EventT_co]:
        """Validate and apply ``action`` for ``seat``, mutating ``state``; return the events: the game's
        typed events (``games/<slug>/events.py``: TypedDicts discriminated on ``kind``, plain dicts at run
        time). Raises IllegalAction and leaves ``state`` untouched if the action is illegal."""

    @abstractmethod
    def view(self, state: StateT, seat: Seat | None) -> JSON:
        """Everything ``seat`` may know, JSON-ready; ``None`` is a spectator."""

    @abstractmethod
    def full_view(self, state: StateT) -> JSON:
        """Everything (finished-match replays and admins)."""

    @abstractmethod
    def event_view(self, state: StateT, event: JSON, seat: Seat | None) -> JSON | None:
        """``event`` as ``seat`` may see it (hidden cards and private draws redacted), or None when the
        event's mere existence would tell ``seat`` something it may not know."""

    @abstractmethod
    def determinize(self, state: StateT, seat: Seat, rng: random.Random) -> StateT:
        """A copy where all ``seat`` cannot see is re-sampled consistently with what it has seen."""

    def outcome(self, state: StateT) -> Outcome[ReasonT_co] | None:
        """The result, or None while the match goes on."""
        return state.outcome  # type: ignore[return-value]  # MatchState only knows Outcome[str]

    @abstractmethod
    def timeout_action(self, state: StateT, seat: Seat) -> ActionT:
        """What the clock plays for ``seat`` when its time runs out."""

    @abstractmethod
    def to_position(self, state: StateT) -> JSON:
        """Complete versioned JSON position (docs/positions.md), RNG stream position included."""

    @abstractmethod
    def from_position(self, position: JSON) -> StateT:
        """Inverse of :meth:`to_position`; raises ValueError on a malformed position."""

    def copy(self, state: StateT) -> StateT:
        """An independent copy (fast: bots copy on every simulation)."""
        return state.copy()

    # -- helpers shared by every game --------------------------------------------------------
    def replay(self, key: bytes, options: OptionsT, log: Iterable[tuple[Seat, ActionT]]) -> StateT:
        """``new_match`` then every logged action in order; raises IllegalAction if the log is corrupt."""
        state = self.new_match(key, options)
        for seat, action in log:
            self.apply(state, seat, action)
        return state


AnyGame = Game[Any, Any, Any]
"""Any game, as the platform (``play/``, ``web/``) and the registry hold them: its events are read as
``Mapping[str, Any]`` and its reasons as ``str``."""


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ()))
    return f"{loc}: {err.get('msg', 'invalid')}" if loc else str(err.get("msg", "invalid"))
