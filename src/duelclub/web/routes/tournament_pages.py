"""The tournament pages (issue 26 §Pages): ``/tournaments`` (the list and the form to create one) and
``/tournaments/{id}`` (rules in plain words, standings, crosstable, rounds, the buttons). Both draw from the
JSON API (web/routes/tournaments.py) and follow it live over ``/ws/lobby``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from duelclub.web.deps import OptionalUser
from duelclub.web.routes.pages import _render, _to_login, lobby_games

router = APIRouter(tags=["pages"])
_Handler = TypeVar("_Handler", bound=Callable[..., Any])


def _page(path: str) -> Callable[[_Handler], _Handler]:
    return router.api_route(
        path, methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )


@_page("/tournaments")
def tournaments_page(request: Request, user: OptionalUser) -> Response:
    """Upcoming, running and finished tournaments, and the form to create one."""
    if user is None:
        return _to_login(request)
    return _render(request, "tournaments.html", user, games=lobby_games(request))


@_page("/tournaments/{tournament_id}")
def tournament_page(request: Request, tournament_id: str, user: OptionalUser) -> Response:
    """One tournament (an unknown id shows the page's own «not found» from the API)."""
    if user is None:
        return _to_login(request)
    return _render(request, "tournament.html", user, tournament_id=tournament_id)
