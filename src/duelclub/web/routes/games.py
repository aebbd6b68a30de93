"""``GET /api/games``: the games with their option schemas, bot levels and UI catalogs;
``GET /api/games/{slug}/level-for-rating``: the bot level for a member's rating («Подобрать по силе»)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel

from duelclub.bots.ladder import ladder_rating, level_for_rating
from duelclub.i18n import gettext as _
from duelclub.play.service import MatchService
from duelclub.store.ratings import member_ratings
from duelclub.web.deps import DbSession, OptionalUser, get_service
from duelclub.web.errors import ApiError
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


class LevelPick(BaseModel):
    """«Подобрать по силе»: the bot level for a rating and that level's ladder rating (None: not rated)."""

    level: str
    ladder_rating: float | None
    rating: float | None = None
    """The rating the level was picked for (None: the middle level, for want of one)."""


@router.get("/games/{slug}/level-for-rating", response_model=LevelPick)
def level_for(
    slug: str,
    service: Annotated[MatchService, Depends(get_service)],
    user: OptionalUser,
    s: DbSession,
    rating: float | None = None,
) -> LevelPick:
    """The level whose ladder rating is closest to ``rating`` — by default the caller's own rating in
    this game, when logged in and rated (bots/ladder.py ``level_for_rating``; no rating: the middle level).
    404 ``unknown_game``."""
    if slug not in service.games:
        raise ApiError(404, "unknown_game", f"no game {slug!r}")
    if rating is None and user is not None:
        mine = member_ratings(s, user.id).get(slug)
        rating = None if mine is None else round(mine.rating.rating, 1)
    level = level_for_rating(slug, rating)
    return LevelPick(level=level, ladder_rating=ladder_rating(slug, level), rating=rating)
