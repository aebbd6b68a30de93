"""``GET /api/games``: the games with their option schemas, bot levels and UI catalogs;
``GET /api/games/{slug}/level-for-rating``: the bot level for a member's rating («Подобрать по силе»)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel

from duelclub.bots.ladder import club_rating, level_for_rating
from duelclub.play.live import AnyGame
from duelclub.play.service import MatchService
from duelclub.store.ratings import member_ratings
from duelclub.web.deps import DbSession, OptionalUser, get_service
from duelclub.web.errors import ApiError
from duelclub.web.strictjson import StrictJsonRoute
from duelclub.words import GameWords, words_for

router = APIRouter(prefix="/api", tags=["games"], route_class=StrictJsonRoute)


class RulesPanel(BaseModel):
    """Which section of the rules page the match page's «Правила» panel opens (``GameWords.rules``): the one
    ``by_phase`` names for the view's ``phase``, else ``default``."""

    default: str
    by_phase: dict[str, str]


class GameInfo(BaseModel):
    """One game in the reader's language (its words: ``duelclub.words``): ``title``, ``tagline`` and
    ``summary`` as the lobby shows them; ``options_schema`` is the JSON schema of the match options and
    ``options_form`` the same options labelled for the lobby form (``GameWords.options_form``);
    ``clock_mode`` says whether matches between members have a per-move clock (none / optional / required /
    correspondence: none unless the opener sets 1 to 7 days, Межа);
    ``reasons`` maps every result reason code a match of this game can end with (the game's own and the
    platform's: ``resign``, ``timeout``, ``aborted``, …) to words; ``catalog`` is the static UI data (card
    names and texts, battlefields, …); ``rules_panel`` the «Правила» panel's phase hook (None: the game has
    no rules page)."""

    slug: str
    title: str
    tagline: str
    summary: str
    options_schema: dict[str, Any]
    options_form: list[dict[str, Any]]
    clock_mode: str
    bot_levels: list[str]
    reasons: dict[str, str]
    catalog: dict[str, Any]
    rules_panel: RulesPanel | None


@router.get("/games", response_model=list[GameInfo])
def list_games(service: Annotated[MatchService, Depends(get_service)]) -> list[GameInfo]:
    """The games in lobby order."""
    return [_game_info(g, words_for(g.slug)) for g in service.games.values()]


def _game_info(game: AnyGame, words: GameWords) -> GameInfo:
    return GameInfo(
        slug=game.slug,
        title=words.game_title(),
        tagline=words.tagline_text(),
        summary=words.summary_text(),
        options_schema=game.options_model.model_json_schema(),
        options_form=words.options_form(),
        clock_mode=game.clock_mode,
        bot_levels=list(game.bot_levels),
        reasons=words.reason_texts(),
        catalog=words.catalog(),
        rules_panel=None if words.rules is None else RulesPanel.model_validate(words.rules.panel()),
    )


class LevelPick(BaseModel):
    """«Подобрать по силе»: the bot level for a rating and that level's ladder rating on the club's scale
    (bots/ladder.py ``club_rating``; None: not rated)."""

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
    """The level whose club-scale ladder rating is closest to ``rating`` — by default the caller's own rating
    in this game, when logged in and rated (bots/ladder.py ``level_for_rating``; no rating: the middle level).
    404 ``unknown_game``."""
    if slug not in service.games:
        raise ApiError(404, "unknown_game", f"no game {slug!r}")
    if rating is None and user is not None:
        mine = member_ratings(s, user.id).get(slug)
        rating = None if mine is None else round(mine.rating.rating, 1)
    level = level_for_rating(slug, rating)
    return LevelPick(level=level, ladder_rating=club_rating(slug, level), rating=rating)
