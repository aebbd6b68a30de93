"""Pydantic payloads the match service returns (DESIGN.md §Public JSON API); the web layer sends them as is.

``seq`` counts the actions applied so far (0 before the first). An action is sent with the ``seq`` of the
state it was chosen in and becomes action ``seq + 1``. Events carry the ``seq`` of the action that
caused them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel

JSON = dict[str, Any]


class SeatInfo(BaseModel):
    """Who sits at ``seat``: a user (``username``) or a bot (``bot`` = level); both None while open."""

    seat: int
    username: str | None = None
    bot: str | None = None


class ClientSeeds(BaseModel):
    """The client seeds ``a`` (seat 0) and ``b`` (seat 1) of rules/fairness.md."""

    a: str
    b: str


class StatePayload(BaseModel):
    """What one seat (None = spectator) sees now: ``view``, its ``legal`` actions, the events since a seq."""

    seq: int
    seat: int | None
    status: str
    view: JSON | None
    legal: list[JSON]
    clock: JSON | None
    events: list[JSON]
    result: JSON | None
    to_move: list[int]


class MatchSummary(BaseModel):
    """``GET /api/matches/{id}``; ``server_seed`` is None until the match has ended."""

    id: str
    game: str
    status: str
    seq: int
    seats: list[SeatInfo]
    to_move: list[int]
    result: JSON | None
    commitment: str
    client_seeds: ClientSeeds
    server_seed: str | None
    options: JSON
    options_text: str = ""
    """The options in words for a third party (``Game.options_text``)."""
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class CreatedMatch(BaseModel):
    """A new match: the caller's seat and, for invites, the token of the invite link."""

    id: str
    status: str
    seat: int
    commitment: str
    invite_token: str | None = None


class InviteInfo(BaseModel):
    """``GET /api/invites/{token}``: what the invited player accepts."""

    id: str
    game: str
    opener: str | None
    options: JSON
    options_text: str = ""
    """The options in words for the invited player (seat 1)."""
    commitment: str
    status: str


class MatchListItem(BaseModel):
    """One row of ``GET /api/matches`` (from the caller's side) and of the admin list (``seat`` None)."""

    id: str
    game: str
    status: str
    options: JSON
    """The match options as stored (the game's options model, e.g. Mezha ``{"house": seat 0's house}``)."""
    options_text: str = ""
    """The options in words from the caller's seat (``Game.options_text``)."""
    seat: int | None
    seats: list[SeatInfo]
    opponent: SeatInfo | None
    result: JSON | None
    created_at: datetime
    finished_at: datetime | None
    invite_token: str | None = None
    """Only for the opener of a match still waiting for its invited player."""
    to_move: list[int] | None = None
    """Seats that may act now; only in the caller's own list, for active matches."""


class LoggedAction(BaseModel):
    seq: int
    seat: int
    source: str
    action: JSON
    created_at: datetime


class ReplayStep(BaseModel):
    """``GET /api/admin/matches/{id}/replay?seq=N``: the full view after ``seq`` actions of an ended match.

    ``last_seq`` is the number of actions in the match; ``action`` the logged action number ``seq`` (None at
    0) and ``events`` what it caused, unredacted (the match is over: nothing is secret any more).
    """

    id: str
    game: str
    seq: int
    last_seq: int
    action: LoggedAction | None
    events: list[JSON]
    view: JSON


class MatchLog(BaseModel):
    """``GET /api/matches/{id}/log``: everything needed to verify the match (rules/fairness.md §Reveal).

    ``initial`` is ``game.full_view(game.new_match(K, options))`` — the whole deal before the first action
    (hands, deck orders, omens, who starts) — and ``final_view`` the full view after the last action; both
    are None for a match aborted before it was dealt. The log exists only once the match has ended.
    """

    scheme: str
    id: str
    game: str
    status: str
    options: JSON
    commitment: str
    server_seed: str
    client_seeds: ClientSeeds
    seats: list[SeatInfo]
    actions: list[LoggedAction]
    result: JSON | None
    initial: JSON | None
    final_view: JSON | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
