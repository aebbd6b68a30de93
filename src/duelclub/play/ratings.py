"""Ratings as members read them (issue 14 §4–6): the match summary with the seats' ratings, the leaderboard
per game, member profiles and match histories (paginated, filtered, exported).

Everything here reads; ratings only change inside the transaction that ends a rated match (play/commit.py,
store/ratings.py). Shown ratings are the members' ratings *now* (play/rating_views.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel

from duelclub.i18n import gettext as _
from duelclub.play import rating_views, views
from duelclub.play.errors import PlayError
from duelclub.play.port import LobbyPort
from duelclub.play.schemas import MatchSummary, RatingBrief, SeatInfo, TournamentRef
from duelclub.play.threads import in_thread
from duelclub.store import history as hrepo
from duelclub.store import ratings as rrepo
from duelclub.store import tournaments as trepo
from duelclub.store import users
from duelclub.store.history import HistoryFilter, ResultFilter
from duelclub.store.matches import ABORTED, MatchRecord
from duelclub.store.ratings import ChangeRecord
from duelclub.words import words_for

LEADERBOARD_SIZE = 50
LEADERBOARD_ACTIVE_DAYS = 90
"""The leaderboard lists members with a rated match in the last this many days."""
PER_PAGE, MAX_PER_PAGE = 20, 100
CHART_POINTS = 500
"""The profile's rating chart shows at most this many latest rated matches per game."""


# -- the match page -----------------------------------------------------------------------------------
async def summary(service: LobbyPort, match_id: str) -> MatchSummary:
    """``GET /api/matches/{id}``: the summary with each member's rating beside their seat — what the match
    left (with the change) once a rated match has ended, else their rating now."""
    live = await service.fresh(match_id)
    out = views.summary(live)

    def read() -> tuple[list[RatingBrief | None], tuple[str, str] | None]:
        with service.session() as s:
            shown = rating_views.seat_ratings(
                s, service.rating_rules, [live.record], rating_views.rated_games(service.games), service.now()
            )
            return shown[live.id], trepo.tournament_of(s, live.id)

    briefs, tournament = await in_thread(read)
    for seat, brief in zip(out.seats, briefs, strict=True):
        seat.rating = brief
    if tournament is not None:
        out.tournament = TournamentRef(id=tournament[0], name=tournament[1])
    return out


# -- the leaderboard ----------------------------------------------------------------------------------
class LeaderboardEntry(BaseModel):
    rank: int
    username: str
    rating: int
    rd: int
    matches: int
    wins: int
    draws: int
    losses: int
    last_rated_at: datetime | None


class Leaderboard(BaseModel):
    """``GET /api/leaderboard/{game}``: the top members by rating among those with an established rating
    (RD at most ``max_rd``, now) and a rated match in the last ``active_days`` days."""

    game: str
    max_rd: int
    active_days: int
    entries: list[LeaderboardEntry]


def rated_game(service: LobbyPort, slug: str) -> str:
    """``slug`` if it names a rated game; PlayError 404 ``unknown_game`` otherwise."""
    game = service.games.get(slug)
    if game is None or not game.rated:
        raise PlayError(404, "unknown_game", f"no rated game {slug!r}")
    return slug


async def leaderboard(service: LobbyPort, slug: str, limit: int = LEADERBOARD_SIZE) -> Leaderboard:
    """The leaderboard of a rated game (PlayError 404 ``unknown_game`` otherwise): rank, name, rating, RD,
    rated matches and W/D/L. The RD is aged to now, so a member idle for long drops off before 90 days."""
    game = rated_game(service, slug)
    rules, now = service.rating_rules, service.now()

    def read() -> list[rrepo.BoardRow]:
        with service.session() as s:
            since = now - timedelta(days=LEADERBOARD_ACTIVE_DAYS)
            return rrepo.leaderboard(
                s, game, active_since=since, max_rd=rules.provisional_rd, limit=limit * 4
            )

    entries: list[LeaderboardEntry] = []
    for row in await in_thread(read):
        r = row.rating
        shown = rating_views.now_brief(rules, r, now)
        if shown.provisional:
            continue
        entries.append(
            LeaderboardEntry(
                rank=len(entries) + 1,
                username=row.username,
                rating=shown.rating,
                rd=shown.rd,
                matches=r.matches,
                wins=r.wins,
                draws=r.draws,
                losses=r.losses,
                last_rated_at=r.last_rated_at,
            )
        )
        if len(entries) == limit:
            break
    return Leaderboard(
        game=game, max_rd=round(rules.provisional_rd), active_days=LEADERBOARD_ACTIVE_DAYS, entries=entries
    )


# -- profiles ------------------------------------------------------------------------------------------
class RatingPoint(BaseModel):
    """The rating after one rated match (a point of the profile's chart)."""

    at: datetime
    rating: float
    rd: float
    match_id: str


class GameStanding(BaseModel):
    """A member's standing in one rated game: the rating now (None before their first rated match), the
    best rating reached, rated matches and W/D/L, the current streak (+n wins, −n losses, 0), the history."""

    game: str
    rating: RatingBrief | None
    best: int | None
    matches: int
    wins: int
    draws: int
    losses: int
    streak: int
    last_rated_at: datetime | None
    history: list[RatingPoint]


class MemberProfile(BaseModel):
    """``GET /api/members/{username}``."""

    username: str
    joined_at: datetime
    games: list[GameStanding]
    matches: int
    """Ended matches of every game (the history's length)."""


def _member(s: Any, username: str) -> Any:
    user = users.find_user(s, username)
    if user is None:
        raise PlayError(404, "member_not_found", f"no member {username!r}")
    return user


async def profile(service: LobbyPort, username: str) -> MemberProfile:
    """A member's profile: per rated game (lobby order) the standing and the rating history.
    PlayError 404 ``member_not_found``."""
    rules, now = service.rating_rules, service.now()
    slugs = [slug for slug, g in service.games.items() if g.rated]

    def read() -> MemberProfile:
        with service.session() as s:
            user = _member(s, username)
            stored = rrepo.member_ratings(s, user.id)
            charts = {slug: rrepo.history(s, user.id, slug, CHART_POINTS) for slug in slugs if slug in stored}
            total = hrepo.count(s, user.id, HistoryFilter())
            name, joined = user.username, user.created_at
        games = []
        for slug in slugs:
            r = stored.get(slug)
            played = r is not None and r.matches > 0
            games.append(
                GameStanding(
                    game=slug,
                    rating=rating_views.now_brief(rules, r, now) if played else None,
                    best=round(r.best) if r is not None and played else None,
                    matches=r.matches if r else 0,
                    wins=r.wins if r else 0,
                    draws=r.draws if r else 0,
                    losses=r.losses if r else 0,
                    streak=r.streak if r else 0,
                    last_rated_at=r.last_rated_at if r else None,
                    history=[
                        RatingPoint(at=c.at, rating=c.after.rating, rd=c.after.rd, match_id=c.match_id)
                        for c in charts.get(slug, [])
                    ],
                )
            )
        return MemberProfile(username=name, joined_at=joined, games=games, matches=total)

    return await in_thread(read)


# -- match history -------------------------------------------------------------------------------------
class HistoryItem(BaseModel):
    """One ended match from the member's side. ``result``: ``win``, ``loss``, ``draw`` or ``aborted``;
    ``reason`` the result's reason code and ``reason_text`` the same in the reader's words (duelclub.words);
    ``opponent_rating`` the opponent's rating before a rated match;
    ``rating_before``/``rating_after``/``delta``: the member's, for rated matches (None otherwise)."""

    id: str
    game: str
    status: str
    seat: int
    started_at: datetime | None
    finished_at: datetime | None
    opponent: SeatInfo
    opponent_rating: RatingBrief | None = None
    rated: bool
    result: str
    reason: str | None
    reason_text: str | None = None
    rating_before: int | None = None
    rating_after: int | None = None
    delta: int | None = None
    options_text: str = ""
    url: str
    replay_url: str
    tournament: TournamentRef | None = None
    """The tournament whose board this match is; a board it scored as a forfeit (ended before both first
    moves, a seat at fault) has ``result`` ``win``/``loss`` though its ``status`` is ``aborted``."""


class HistoryPage(BaseModel):
    """``GET /api/members/{username}/matches``: one page, newest first, and how many there are in all."""

    items: list[HistoryItem]
    page: int
    per_page: int
    total: int
    pages: int


def _outcome(record: MatchRecord, seat: int, forfeit: bool) -> str:
    if forfeit:  # the tournament's forfeit: lost by the seat at fault
        return "loss" if (record.result or {}).get("seat") == seat else "win"
    if record.status == ABORTED:
        return "aborted"
    winner = (record.result or {}).get("winner")
    if winner is None:
        return "draw"
    return "win" if winner == seat else "loss"


def history_item(
    service: LobbyPort,
    record: MatchRecord,
    user_id: int,
    names: dict[int, str],
    change: ChangeRecord | None,
    tournament: TournamentRef | None = None,
) -> HistoryItem:
    """The row of ``record`` in ``user_id``'s history (``tournament``: the one whose board it is)."""
    seat = 0 if record.seat_users[0] == user_id else 1
    other = 1 - seat
    opp_id = record.seat_users[other]
    opponent = SeatInfo(
        seat=other, username=names.get(opp_id) if opp_id else None, bot=record.seat_bots[other]
    )
    rules = service.rating_rules
    reason = (record.result or {}).get("reason")
    forfeit = hrepo.forfeit_board(record, tournament is not None)
    outcome = _outcome(record, seat, forfeit)
    reason_text = words_for(record.game).reason(reason) if reason else None
    if forfeit and tournament is not None:  # «Победа — без игры (турнир «…»)»
        reason_text = _("без игры (турнир «%(name)s»)", name=tournament.name)
    return HistoryItem(
        id=record.id,
        game=record.game,
        status=record.status,
        seat=seat,
        started_at=record.started_at,
        finished_at=record.finished_at,
        opponent=opponent,
        opponent_rating=rating_views.brief(rules, change.opponent) if change else None,
        rated=change is not None,
        result=outcome,
        reason=reason,
        reason_text=reason_text,
        rating_before=round(change.before.rating) if change else None,
        rating_after=round(change.after.rating) if change else None,
        delta=round(change.after.rating) - round(change.before.rating) if change else None,
        options_text=views.options_text(service.games.get(record.game), record.options, seat),
        url=f"/matches/{record.id}",
        replay_url=f"/matches/{record.id}#replay",
        tournament=tournament,
    )


def _items(service: LobbyPort, s: Any, records: list[MatchRecord], user_id: int) -> list[HistoryItem]:
    names = users.usernames(s, {u for r in records for u in r.seat_users if u is not None})
    changes = rrepo.changes_for_matches(s, [r.id for r in records if r.rated])
    boards = {
        m: TournamentRef(id=t, name=n)
        for m, (t, n) in trepo.tournaments_of(s, [r.id for r in records]).items()
    }
    return [
        history_item(service, r, user_id, names, changes.get((r.id, user_id)), boards.get(r.id))
        for r in records
    ]


def history_filter(
    service: LobbyPort, s: Any, game: str | None, result: ResultFilter | None, opponent: str | None
) -> HistoryFilter | None:
    """The filter for these query values; None when it can match nothing (an unknown opponent)."""
    opponent_id = None
    if opponent:
        found = users.find_user(s, opponent)
        if found is None:
            return None
        opponent_id = found.id
    return HistoryFilter(game=game or None, result=result, opponent_id=opponent_id)


async def history(
    service: LobbyPort,
    username: str,
    *,
    page: int = 1,
    per_page: int = PER_PAGE,
    game: str | None = None,
    result: ResultFilter | None = None,
    opponent: str | None = None,
) -> HistoryPage:
    """One page of a member's history, newest first. PlayError 404 ``member_not_found``."""
    per_page = max(1, min(per_page, MAX_PER_PAGE))
    page = max(1, page)

    def read() -> HistoryPage:
        with service.session() as s:
            user = _member(s, username)
            f = history_filter(service, s, game, result, opponent)
            total = hrepo.count(s, user.id, f) if f else 0
            records = hrepo.page(s, user.id, f, offset=(page - 1) * per_page, limit=per_page) if f else []
            items = _items(service, s, records, user.id)
        return HistoryPage(
            items=items, page=page, per_page=per_page, total=total, pages=-(-total // per_page)
        )

    return await in_thread(read)


def export_items(
    service: LobbyPort,
    username: str,
    *,
    game: str | None = None,
    result: ResultFilter | None = None,
    opponent: str | None = None,
) -> Iterator[HistoryItem]:
    """Every item of a member's history, newest first (blocking: iterate in a worker thread).
    PlayError 404 ``member_not_found``."""
    with service.session() as s:
        user = _member(s, username)
        f = history_filter(service, s, game, result, opponent)
        if f is None:
            return
        for chunk in hrepo.every(s, user.id, f):
            yield from _items(service, s, chunk, user.id)
