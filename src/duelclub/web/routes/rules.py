"""The rules of each game as a page, ``/games/{slug}/rules`` (issue 16 §1).

A rules page is written from the club's rules (``rules/<slug>.md`` and the club's own pages): goal, setup, a
turn, every card / unit / omen / equipment with its text, the end of the game and what is special online
(the clock, the fair deal). The prose is one template per game (``templates/rules/<slug>.html``), written
in Russian with every paragraph, item and heading a message of the one catalog (``{% trans %}`` / ``_()``),
so the Ukrainian page is that catalog's translation and no prose is kept twice; the card tables come from the
game's catalog in the reader's language, so a card's text reads the same in the rules as on the board. Its
sections have stable ids (``goal``, ``setup``, ``turn``, ``cards``, ``end``, ``online``, …), listed by the
game's words (``GameWords.rules``, :class:`~duelclub.words.RulesPage`): the match page's «Правила» panel
loads this page and opens the part that fits the moment (static/js/rulespanel.js, by the hook
``GET /api/games`` serves as ``rules_panel``). Open to everybody, members or not.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from duelclub.i18n import gettext as _
from duelclub.web.deps import OptionalUser, get_service
from duelclub.web.routes.pages import _render
from duelclub.words import words_for

router = APIRouter(include_in_schema=False)


def rules_games(request: Request) -> list[dict[str, str]]:
    """The games that have a rules page, in lobby order: ``{slug, title}``."""
    return [
        {"slug": g.slug, "title": words_for(g.slug).game_title()}
        for g in get_service(request).games.values()
        if words_for(g.slug).rules is not None
    ]


@router.api_route("/games/{slug}/rules", methods=["GET", "HEAD"], response_class=HTMLResponse)
def rules_page(request: Request, slug: str, user: OptionalUser) -> Response:
    """The rules of ``slug`` in the reader's language; 404 «Правила не найдены» for a game without them."""
    game = get_service(request).games.get(slug)
    rules = words_for(slug).rules if game is not None else None
    if rules is None:
        return _render(
            request,
            "404.html",
            user,
            status_code=404,
            heading=_("Правила не найдены"),
            text=_("Такой игры в клубе нет."),
        )
    words = words_for(slug)
    context: dict[str, Any] = {
        "game": {
            "slug": slug,
            "title": words.game_title(),
            "tagline": words.tagline_text(),
        },
        "catalog": words.catalog(),
        "parts": rules.parts,
        "rules_games": rules_games(request),
        "prose": f"rules/{slug}.html",
    }
    return _render(request, "rules/page.html", user, **context)
