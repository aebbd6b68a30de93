"""Leaderboards, member profiles and match histories (issue 14 §5–6), as JSON and as pages.

- ``GET /api/leaderboard/{game}`` → the top 50 of a rated game (established ratings, active in 90 days)
- ``GET /api/members/{username}`` → the profile: per rated game the rating, best, W/D/L, streak, history
- ``GET /api/members/{username}/matches?page=&per_page=&game=&result=&opponent=`` → the match history,
  newest first, paginated
- ``GET /api/members/{username}/matches/export?format=csv|jsonl`` (same filters) → the member's own history
  as a download (403 ``not_your_history`` for anyone else's)
- pages ``/leaderboard`` (→ the first rated game), ``/leaderboard/{game}``, ``/members/{username}`` (with
  «Заблокировать» / «Разблокировать» on another member's, issue 28 §5; the calls are web/routes/blocks.py)

The JSON reads are open (like the challenge table); the pages, like every page of the club, ask visitors to
log in first.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Annotated, Any, TypeVar
from urllib.parse import quote

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from duelclub.i18n import gettext as _
from duelclub.play import ratings
from duelclub.play.errors import PlayError
from duelclub.play.ratings import HistoryItem, HistoryPage, Leaderboard, MemberProfile
from duelclub.play.service import MatchService, in_thread
from duelclub.store import blocks as blocks_repo
from duelclub.store import users
from duelclub.store.history import ResultFilter
from duelclub.store.users import username_key
from duelclub.web.deps import CurrentUser, OptionalUser, get_service
from duelclub.web.errors import ApiError
from duelclub.web.routes.pages import _render, _to_login
from duelclub.words import words_for

router = APIRouter(tags=["members"])
Service = Annotated[MatchService, Depends(get_service)]
Name = Annotated[str, Query(max_length=40)]


@router.get("/api/leaderboard/{game}", response_model=Leaderboard)
async def get_leaderboard(game: str, service: Service) -> Any:
    """The top members of a rated game by rating. 404 ``unknown_game`` (also for Межа: it is not rated)."""
    return await ratings.leaderboard(service, game)


@router.get("/api/members/{username}", response_model=MemberProfile)
async def get_member(username: str, service: Service) -> Any:
    """A member's profile. 404 ``member_not_found``."""
    return await ratings.profile(service, username)


@router.get("/api/members/{username}/matches", response_model=HistoryPage)
async def get_history(
    username: str,
    service: Service,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=ratings.MAX_PER_PAGE)] = ratings.PER_PAGE,
    game: Annotated[str | None, Query(max_length=40)] = None,
    result: ResultFilter | None = None,
    opponent: Annotated[str | None, Query(max_length=40, description="the opponent's username")] = None,
) -> Any:
    """A member's ended matches, newest first, filtered by game, result from their side (win, loss, draw,
    aborted) and opponent. 404 ``member_not_found``."""
    return await ratings.history(
        service, username, page=page, per_page=per_page, game=game, result=result, opponent=opponent
    )


CSV_COLUMNS = (
    "finished_at",
    "game",
    "match_id",
    "opponent",
    "opponent_rating",
    "result",
    "reason",
    "rated",
    "rating_before",
    "rating_after",
    "delta",
    "url",
    "tournament",
)


def _csv_row(item: HistoryItem, base: str) -> list[Any]:
    opponent = item.opponent.username or (f"bot:{item.opponent.bot}" if item.opponent.bot else "")
    return [
        item.finished_at.isoformat() if item.finished_at else "",
        item.game,
        item.id,
        opponent,
        item.opponent_rating.rating if item.opponent_rating else "",
        item.result,
        item.reason or "",
        "yes" if item.rated else "no",
        "" if item.rating_before is None else item.rating_before,
        "" if item.rating_after is None else item.rating_after,
        "" if item.delta is None else item.delta,
        f"{base}{item.url}",
        item.tournament.name if item.tournament else "",
    ]


@router.get("/api/members/{username}/matches/export")
async def export_history(
    username: str,
    request: Request,
    user: CurrentUser,
    service: Service,
    format: Annotated[str, Query(pattern="^(csv|jsonl)$")] = "csv",
    game: Annotated[str | None, Query(max_length=40)] = None,
    result: ResultFilter | None = None,
    opponent: Annotated[str | None, Query(max_length=40)] = None,
) -> Response:
    """Your own history, newest first, as CSV (``text/csv``, a header row) or JSON lines (one history item
    per line), to download. 403 ``not_your_history`` for another member's."""
    if username_key(username) != username_key(user.username):
        raise ApiError(403, "not_your_history", "you may download your own history only")
    items = await in_thread(
        lambda: list(
            ratings.export_items(service, user.username, game=game, result=result, opponent=opponent)
        )
    )
    base = str(request.base_url).rstrip("/")
    if format == "jsonl":
        body = "".join(item.model_dump_json() + "\n" for item in items)
        media, ext = "application/x-ndjson", "jsonl"
    else:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(CSV_COLUMNS)
        writer.writerows(_csv_row(item, base) for item in items)
        body, media, ext = out.getvalue(), "text/csv; charset=utf-8", "csv"
    # The ASCII name for old clients, the member's (maybe Cyrillic) name in RFC 5987 form for the others.
    utf8_name = quote(f"duelclub-{user.username}-matches.{ext}", safe="")
    headers = {"Content-Disposition": f"attachment; filename=\"matches.{ext}\"; filename*=UTF-8''{utf8_name}"}
    return Response(body, media_type=media, headers=headers)


# -- pages ---------------------------------------------------------------------------------------------
_Handler = TypeVar("_Handler", bound=Callable[..., Any])


def _page(path: str) -> Callable[[_Handler], _Handler]:
    """A page route for GET and HEAD (as web/routes/pages.py ``page``)."""
    return router.api_route(
        path, methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )


def _rated_games(request: Request) -> list[dict[str, str]]:
    return [
        {"slug": g.slug, "title": words_for(g.slug).game_title()}
        for g in get_service(request).games.values()
        if g.rated
    ]


@_page("/leaderboard")
def leaderboard_home(request: Request, user: OptionalUser) -> Response:
    """The first rated game's leaderboard."""
    if user is None:
        return _to_login(request)
    games = _rated_games(request)
    return RedirectResponse(f"/leaderboard/{games[0]['slug']}" if games else "/", status_code=303)


@_page("/leaderboard/{game}")
def leaderboard_page(request: Request, game: str, user: OptionalUser) -> Response:
    """The leaderboard of one rated game, with tabs for the others; «Игра не найдена» otherwise."""
    if user is None:
        return _to_login(request)
    games = _rated_games(request)
    if game not in {g["slug"] for g in games}:
        titles = ", ".join(g["title"] for g in games)
        return _not_found(
            request,
            user,
            _("Рейтинга такой игры нет"),
            _("Рейтинг ведётся в играх: %(games)s.", games=titles),
        )
    return _render(request, "leaderboard.html", user, game=game, games=games)


@_page("/members/{username}")
def profile_page(request: Request, username: str, user: OptionalUser) -> Response:
    """A member's profile: ratings with their charts, records, the match history (their own: export)."""
    if user is None:
        return _to_login(request)
    service = get_service(request)
    try:
        found, blocked = _find(service, username, user.id)
    except PlayError:
        return _not_found(request, user, _("Участник не найден"), _("В клубе нет участника с таким именем."))
    mine = username_key(found) == username_key(user.username)
    return _render(
        request,
        "profile.html",
        user,
        member=found,
        mine=mine,
        blocked=blocked,
        games=_rated_games(request),
    )


def _find(service: MatchService, username: str, viewer: int) -> tuple[str, bool]:
    """The member's name and whether ``viewer`` blocked them (the profile's «Разблокировать»)."""
    with service.db.session() as s:
        found = users.find_user(s, username)
        if found is None:
            raise PlayError(404, "member_not_found", username)
        return found.username, blocks_repo.between(s, viewer, found.id)[0]


def _not_found(request: Request, user: Any, heading: str, text: str) -> Response:
    return _render(request, "404.html", user, status_code=404, heading=heading, text=text)
