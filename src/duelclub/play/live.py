"""The in-memory match: a cache rebuilt by replay (DESIGN.md §Persistence — the match is its event log).

A :class:`LiveMatch` holds the stored row, the game state after ``seq`` actions, each action's engine events
(recomputed on replay, so ``state?since=N`` works after a restart) and a per-match asyncio lock. The state is
``game.new_match(match_key(S, G, a, b), options)`` plus every logged action, applied in seq order.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from duelclub.games.contract import AnyGame as AnyGame  # re-exported: play/ holds games as this
from duelclub.games.contract import IllegalAction, Seat
from duelclub.games.fairness import match_key
from duelclub.play.errors import PlayError
from duelclub.store.matches import ACTIVE, OPEN, ActionRecord, MatchRecord
from duelclub.words import words_for

JSON = dict[str, Any]


@dataclass(eq=False)
class LiveMatch:
    """A match row plus its replayed state. Mutated only under ``lock`` by the match service."""

    record: MatchRecord
    game: AnyGame
    names: tuple[str | None, str | None]
    state: Any = None
    actions: list[ActionRecord] = field(default_factory=list)
    events: list[Sequence[Mapping[str, Any]]] = field(default_factory=list)
    client_ids: dict[str, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    pushes: dict[tuple[Seat | None, int, str], tuple[JSON, str | None]] = field(default_factory=dict)
    """Payloads (and their socket messages) built for the current change, per (seat, since): see
    ``views.cached_payload``."""
    pushes_at: tuple[int, str, float] = (-1, "", 0.0)
    moved: set[Seat] = field(default_factory=set)
    """Seats that have made an action of their own (a player's or a bot's; the clock's does not count)."""
    first_move_seconds: float | None = None
    """The least time a seat's first move gets on the move clock: a tournament match's no-show grace
    (issue 26: a seat that has not moved yet gets max(move clock, grace)); None for other matches."""
    in_tournament: bool = False
    """Whether the match is a board of a tournament (whose no-show rule, not the abandonment claim, ends it
    while a player has not made a first move: play/presence.py)."""

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def seq(self) -> int:
        """Number of actions applied (the seq of the last one)."""
        return len(self.actions)

    @property
    def status(self) -> str:
        return self.record.status

    def seat_of(self, user_id: int | None) -> Seat | None:
        """The seat of ``user_id`` in this match, or None (spectator)."""
        if user_id is None:
            return None
        for seat, uid in enumerate(self.record.seat_users):
            if uid == user_id:
                return seat
        return None

    def key(self) -> bytes:
        """The match key ``K`` (rules/fairness.md §Match key)."""
        r = self.record
        return match_key(bytes.fromhex(r.server_seed), r.id, *r.client_seeds)

    def new_state(self) -> Any:
        return self.game.new_match(self.key(), self.game.parse_options(self.record.options))

    def between_members(self) -> bool:
        """Both seats are members (no bot, no empty seat)."""
        return all(u is not None for u in self.record.seat_users)

    def abortable(self, seq: int | None = None) -> bool:
        """Whether the match may still be aborted without a result (issue 14 §2): an active match between
        members in which not both players have made their own first action yet (after its first ``seq``
        actions: default all)."""
        if self.record.status != ACTIVE or not self.between_members():
            return False
        if seq is None or seq >= self.seq:
            return len(self.moved) < 2
        return len({a.seat for a in self.actions[:seq] if a.source != "clock"}) < 2

    def unplayed_with(self, seat: Seat, raw: JSON, source: str) -> bool:
        """Whether a final action ``raw`` of ``seat`` (by ``source``) would end this rated match before both
        players have made their first move (issue 31 §1, Lichess's rule): a resignation is no move, nor is
        the clock's. Such an end is an abort, never a rated result (a casual match ends as played)."""
        if not self.record.rated or not self.between_members() or len(self.moved) >= 2:
            return False
        counts = source != "clock" and raw.get("kind") != "resign"
        return len(self.moved | {seat}) < 2 if counts else True

    def to_move(self) -> frozenset[Seat]:
        if self.state is None or self.record.status != ACTIVE:
            return frozenset()
        return self.game.to_move(self.state)

    def refresh(self, record: MatchRecord, names: tuple[str | None, str | None]) -> None:
        """Take a newer row; start the state when the match has left ``open``."""
        self.record, self.names = record, names
        if self.state is None and record.status != OPEN and record.started_at is not None:
            self.state = self.new_state()

    def replay_stored(self, action: ActionRecord) -> None:
        """Apply one stored action (the next seq); raises PlayError ``replay_failed`` on a corrupt log."""
        if action.seq != self.seq + 1 or self.state is None:
            raise PlayError(500, "replay_failed", f"{self.id}: unexpected seq {action.seq}")
        try:
            parsed = self.game.parse_action(action.action)
            events = self.game.apply(self.state, action.seat, parsed)
        except IllegalAction as exc:
            raise PlayError(500, "replay_failed", f"{self.id}#{action.seq}: {exc}") from None
        self.commit(action, self.state, events)

    def commit(self, action: ActionRecord, state: Any, events: Sequence[Mapping[str, Any]]) -> None:
        """Record an applied action and the state after it."""
        self.state = state
        self.actions.append(action)
        self.events.append(events)
        if action.client_action_id is not None:
            self.client_ids[action.client_action_id] = action.seq
        if action.source != "clock":
            self.moved.add(action.seat)

    def ended(self, status: str, result: JSON | None, at: Any) -> None:
        self.record = dataclasses.replace(self.record, status=status, result=result, finished_at=at)

    def visible_events(
        self, seat: Seat | None, since: int, state: Any = None, upto: int | None = None
    ) -> list[JSON]:
        """Events of actions ``since+1 .. upto`` as ``seat`` may see them, each tagged with its ``seq`` and
        worded for the match log in the current language (``line``, :meth:`GameWords.describe`)."""
        state = self.state if state is None else state
        last = self.seq if upto is None else upto
        out: list[JSON] = []
        for seq in range(max(since, 0) + 1, last + 1):
            for event in self.events[seq - 1]:
                seen = self.game.event_view(state, cast(JSON, event), seat)
                if seen is not None:
                    out.append({**seen, "seq": seq})
        return words_for(self.game.slug).describe(out, seat, self.names)

    def state_at(self, seq: int) -> Any:
        """A fresh replay of the first ``seq`` actions (used to answer a resent client action id)."""
        state = self.new_state()
        for action in self.actions[:seq]:
            self.game.apply(state, action.seat, self.game.parse_action(action.action))
        return state


def build(
    record: MatchRecord, game: AnyGame, names: tuple[str | None, str | None], actions: list[ActionRecord]
) -> LiveMatch:
    """A LiveMatch replayed from its stored row and actions (run in a worker thread)."""
    live = LiveMatch(record=record, game=game, names=names)
    live.refresh(record, names)
    for action in actions:
        live.replay_stored(action)
    return live
