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


class RatingBrief(BaseModel):
    """A member's rating as shown next to their name (issue 14): rounded ``rating`` and ``rd``;
    ``provisional`` when the RD is above the threshold (shown «1500?»); ``delta`` is what a rated match
    changed (rounded after − rounded before, so the numbers on screen add up), only on the rows of ended
    rated matches."""

    rating: int
    rd: int
    provisional: bool
    delta: int | None = None


class SeatInfo(BaseModel):
    """Who sits at ``seat``: a user (``username``) or a bot (``bot`` = level); both None while open.
    ``rating``: the member's rating in this game (after the match, with its ``delta``, once a rated match
    has ended); None for bots and games without ratings."""

    seat: int
    username: str | None = None
    bot: str | None = None
    rating: RatingBrief | None = None


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
    abortable: bool = False
    """Either player may still abort the match without a result: not both have made their first action (never
    on a tournament board: play/abort.py)."""


class Rematch(BaseModel):
    """A rematch offer after an ended match: the new match (open until the other player accepts)."""

    id: str
    status: str
    offered_by: int | None
    """The seat (in the ended match) of the player who offered it."""


class TournamentRef(BaseModel):
    """The tournament a match is a board of (``GET /api/matches/{id}``, the match lists: ``tournament``)."""

    id: str
    name: str


class MatchSummary(BaseModel):
    """``GET /api/matches/{id}``; ``server_seed`` is None until the match has ended."""

    id: str
    game: str
    status: str
    seq: int
    seats: list[SeatInfo]
    to_move: list[int]
    result: JSON | None
    """``{"winner": seat | None, "reason": code, "reason_text": the reason in words, …}`` once ended (the
    reason words come from duelclub.words, play/views.py ``worded_result``), else None."""
    commitment: str
    client_seeds: ClientSeeds
    server_seed: str | None
    options: JSON
    options_text: str = ""
    """The options in words for a third party (``GameWords.options_text``)."""
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    move_seconds: int | None = None
    """The move clock: seconds per move, or None (no clock)."""
    listed: bool = False
    """An open match shown in the challenge table."""
    rematch_of: str | None = None
    tournament: TournamentRef | None = None
    """The tournament this match is a board of, or None (filled by ``play/ratings.py`` ``summary``)."""
    rematch: Rematch | None = None
    """The rematch offered after this match, if any."""
    rated: bool = False
    """A rated match (its result changes both players' ratings); False: casual, vs a bot, or Межа."""


class CreatedMatch(BaseModel):
    """A new match: the caller's seat, for invites the token of the invite link, and the move clock
    (``move_seconds``: seconds per move, None without a clock; the creator's invite box shows it)."""

    id: str
    status: str
    seat: int
    commitment: str
    invite_token: str | None = None
    move_seconds: int | None = None
    rated: bool = False
    """A rated match (the creator's invite box says «рейтинговая»)."""


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
    rated: bool = False
    opener_rating: RatingBrief | None = None
    move_seconds: int | None = None
    """The move clock the invited player accepts: seconds per move, or None (no clock)."""


class MatchListItem(BaseModel):
    """One row of ``GET /api/matches`` (from the caller's side) and of the admin list (``seat`` None)."""

    id: str
    game: str
    status: str
    options: JSON
    """The match options as stored (the game's options model, e.g. Mezha ``{"house": seat 0's house}``)."""
    options_text: str = ""
    """The options in words from the caller's seat (``GameWords.options_text``)."""
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
    rated: bool = False
    tournament: TournamentRef | None = None
    """The tournament whose board this match is (a board that ended before both first moves is a forfeit
    there, not a cancelled match); None for any other match."""


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


class DrawEntry(BaseModel):
    """One draw of the match's fairness stream: ``randint(bound)`` returned ``value`` (``0 <= value < bound``;
    rules/fairness.md §Match key and stream — a shuffle of m items is the draws of bounds m, m−1, …, 2)."""

    bound: int
    value: int


class MatchLog(BaseModel):
    """``GET /api/matches/{id}/log``: everything needed to verify the match (rules/fairness.md §Reveal).

    ``initial`` is ``game.full_view(game.new_match(K, options))`` — the whole deal before the first action
    (hands, deck orders, omens, who starts) — and ``final_view`` the full view after the last action; both
    are None for a match aborted before it was dealt. ``draws``: every draw of the stream, in order, as the
    replay of the log made them (empty before the deal). The log exists only once the match has ended.
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
    draws: list[DrawEntry] = []
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class Challenge(BaseModel):
    """One row of the open challenge table (``GET /api/challenges``): an open, listed match."""

    id: str
    game: str
    author: str | None
    options: JSON
    options_text: str = ""
    """The author's options in words from the reader's seat: the author's own (seat 0) when ``mine``, else
    whoever accepts (seat 1)."""
    move_seconds: int | None
    """Seconds per move, or None: no clock."""
    commitment: str
    created_at: datetime
    mine: bool = False
    rated: bool = False
    author_rating: RatingBrief | None = None
    """The author's rating in this game."""


class QueueStatus(BaseModel):
    """The caller's matchmaking entry: ``waiting`` (with what it waits for), ``matched`` (``match_id``) or
    ``none``."""

    status: str
    game: str | None = None
    options: JSON | None = None
    move_seconds: int | None = None
    match_id: str | None = None
    since: datetime | None = None
    rated: bool = False
    rating: RatingBrief | None = None
    """The member's rating in the game (rated seekers)."""
    window: int | None = None
    """Rated seekers: how far (±) the opponent's rating may be from theirs now; it widens while they wait."""


class SeatPresence(BaseModel):
    """Whether a seat's player is connected; ``away_since`` when not (bots are always connected)."""

    seat: int
    online: bool
    away_since: datetime | None = None


class Presence(BaseModel):
    """Both seats' connection status and, for the caller, when a win by abandonment may be claimed."""

    seats: list[SeatPresence]
    grace_seconds: float
    claim_at: datetime | None = None
    """When the caller may claim the win (the opponent gone for the grace period); None: not applicable."""
    can_claim: bool = False


class LiveMatchItem(BaseModel):
    """A running match between members that anyone may watch (``GET /api/matches/live``)."""

    id: str
    game: str
    players: list[str | None]
    options_text: str = ""
    move_seconds: int | None = None
    started_at: datetime | None
    rated: bool = False
    ratings: list[RatingBrief | None] = []
    """The players' ratings, seat by seat (None: a game without ratings)."""
