"""The tournament pages (issue 26 §Pages): ``/tournaments`` (the list and the form to create one) and
``/tournaments/{id}`` (rules in plain words, standings, crosstable, rounds, the buttons). Both draw from the
JSON API (web/routes/tournaments.py) and follow it live over ``/ws/lobby``. An unknown tournament is the
site's 404 page (status 404), like an unknown match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from duelclub.i18n import gettext as _
from duelclub.store import tournaments as repo
from duelclub.web.deps import OptionalUser, get_database, get_service
from duelclub.web.routes.pages import _render, _to_login, lobby_games

router = APIRouter(tags=["pages"])
_Handler = TypeVar("_Handler", bound=Callable[..., Any])


def _page(path: str) -> Callable[[_Handler], _Handler]:
    return router.api_route(
        path, methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )


@_page("/tournaments")
def tournaments_page(request: Request, user: OptionalUser) -> Response:
    """Upcoming, running and finished tournaments, and the form to create one (its game options set the
    first seat's side on every board: labelled so, «Дом первого игрока», not «Ваш дом»)."""
    if user is None:
        return _to_login(request)
    return _render(request, "tournaments.html", user, games=lobby_games(request, first_seat=True))


@_page("/tournaments/{tournament_id}")
def tournament_page(request: Request, tournament_id: str, user: OptionalUser) -> Response:
    """One tournament, with the bot levels of its game for the organiser's «Добавить бота» (as the lobby
    names them); an arena's games are headed «Партии» (one list, no rounds), the others' «Туры и партии».
    An unknown id: the 404 page «Турнир не найден» (visitors go to the login page first)."""
    if user is None:
        return _to_login(request)
    with get_database(request).session() as s:
        found = repo.get(s, tournament_id) if len(tournament_id) <= 64 else None
    if found is None:
        return _render(
            request,
            "404.html",
            user,
            status_code=404,
            heading=_("Турнир не найден"),
            text=_("Такого турнира нет: ссылка неверна или устарела."),
        )
    game = next((g for g in lobby_games(request) if g.get("slug") == found.game), None)
    levels = game["bot_levels"] if game is not None and get_service(request).bots_available else []
    arena = found.format == "arena"
    return _render(
        request, "tournament.html", user, tournament_id=tournament_id, bot_levels=levels, arena=arena
    )
