"""``GET /api/games``: the games with their option schemas, bot levels and UI catalogs."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel

from duelclub.i18n import gettext as _
from duelclub.play.service import MatchService
from duelclub.web.deps import get_service
from duelclub.web.strictjson import StrictJsonRoute

router = APIRouter(prefix="/api", tags=["games"], route_class=StrictJsonRoute)


class GameInfo(BaseModel):
    """One game: ``options_schema`` is the JSON schema of the match options and ``options_form`` the same
    options labelled for the lobby form (``Game.options_form``); ``clock_mode`` says whether matches between
    members have a per-move clock (none / optional / required); ``catalog`` is static UI data."""

    slug: str
    title: str
    tagline: str
    summary: str
    options_schema: dict[str, Any]
    options_form: list[dict[str, Any]]
    clock_mode: str
    bot_levels: list[str]
    catalog: dict[str, Any]


@router.get("/games", response_model=list[GameInfo])
def list_games(service: Annotated[MatchService, Depends(get_service)]) -> list[GameInfo]:
    """The games in lobby order."""
    return [
        GameInfo(
            slug=g.slug,
            title=g.title,
            tagline=_(g.tagline),
            summary=_(g.summary),
            options_schema=g.options_model.model_json_schema(),
            options_form=g.options_form(),
            clock_mode=g.clock_mode,
            bot_levels=list(g.bot_levels),
            catalog=g.catalog(),
        )
        for g in service.games.values()
    ]
