"""HTML pages: welcome/lobby, login, register, account, invite, match, verify and admin pages
(DESIGN.md §Web).

The pages are thin shells: they render a Jinja2 template and load one ES module from /static that talks to the
public JSON API and the match WebSocket, exactly as a script would. Protected pages send anonymous visitors to
``/login?next=<the page>`` and the login form sends them back; admin pages answer members 403.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from duelclub import i18n
from duelclub.bots.ladder import lobby_text
from duelclub.bots.levels import DEFAULT_LEVEL, LEVEL_WORDS
from duelclub.i18n import N_
from duelclub.i18n import gettext as _
from duelclub.play.clock import CORRESPONDENCE_PRESETS, MOVE_SECONDS_PRESETS
from duelclub.resources import TEMPLATES_DIR
from duelclub.store import account_tokens
from duelclub.store import blocks as blocks_repo
from duelclub.store import matches as matches_repo
from duelclub.store import users as users_repo
from duelclub.store.models import utcnow
from duelclub.web import language
from duelclub.web.deps import OptionalUser, UserInfo, get_database, get_service
from duelclub.web.urls import safe_next
from duelclub.words import all_words, words_for

_Handler = TypeVar("_Handler", bound=Callable[..., Any])

router = APIRouter(include_in_schema=False)


def page(path: str) -> Callable[[_Handler], _Handler]:
    """Register a page route for GET and HEAD (FastAPI, unlike Starlette, adds no implicit HEAD; Starlette's
    response then sends the headers only)."""
    return router.api_route(path, methods=["GET", "HEAD"], response_class=HTMLResponse)


# Fallback when the settings carry no templates directory: the package's own.
_DEFAULT_TEMPLATES_DIR = TEMPLATES_DIR


def games_info_json() -> str:
    """The club's games for static/js/gamesinfo.js, as JSON: ``[{"slug", "title"}]`` in lobby order, the
    titles in the current language (``GameWords.game_title``); base.html puts it in
    ``<template id="games-info">`` (a template, not an inline script, so the CSP holds)."""
    return _games_info_json(i18n.current_lang())


@cache
def _games_info_json(lang: str) -> str:
    games = [{"slug": w.slug, "title": w.game_title()} for w in all_words().values()]
    return json.dumps(games, ensure_ascii=False)


def _templates(request: Request) -> Jinja2Templates:
    """The app's Jinja2 environment, built once per app from ``settings.TEMPLATES_DIR``."""
    state = request.app.state
    templates: Jinja2Templates | None = getattr(state, "page_templates", None)
    if templates is None:
        settings = getattr(state, "settings", None)
        directory = getattr(settings, "TEMPLATES_DIR", None) or _DEFAULT_TEMPLATES_DIR
        templates = Jinja2Templates(directory=str(directory))
        language.install(templates.env)
        templates.env.globals["games_info"] = games_info_json
        state.page_templates = templates
    return templates


def _render(
    request: Request, name: str, user: UserInfo | None, status_code: int = 200, **context: Any
) -> HTMLResponse:
    return _templates(request).TemplateResponse(
        request, name, {"user": user, **context}, status_code=status_code
    )


def _to_login(request: Request) -> RedirectResponse:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(target, safe='/')}", status_code=303)


@page("/")
def home(request: Request, user: OptionalUser) -> Response:
    """The lobby for members, a welcome page with login/register links for everybody else."""
    if user is None:
        return _render(request, "welcome.html", None, games=lobby_games(request))
    return _render(request, "lobby.html", user, games=lobby_games(request))


BOT_LEVEL_WORDS: dict[str, tuple[str, str]] = LEVEL_WORDS
"""Bot level → (name, hint) on the lobby's buttons (bots/levels.py)."""


def clock_choices(mode: str) -> list[dict[str, Any]]:
    """The «Время на ход» radio buttons for a game's ``clock_mode`` (none: no field): the presets of
    play/clock.py (a ``correspondence`` game: only the 1 to 7 days ones), plus «Без часов» when the clock
    is optional; the default is 60 s, or no clock."""
    if mode == "none":
        return []
    words = {
        15: N_("15 с"),
        30: N_("30 с"),
        60: N_("1 мин"),
        120: N_("2 мин"),
        300: N_("5 мин"),
        86_400: N_("24 ч"),
        172_800: N_("2 дня"),
        259_200: N_("3 дня"),
        432_000: N_("5 дней"),
        604_800: N_("7 дней"),
    }
    presets = CORRESPONDENCE_PRESETS if mode == "correspondence" else MOVE_SECONDS_PRESETS
    out = [{"value": "", "label": _("Без часов"), "default": True}] if mode != "required" else []
    out += [
        {
            "value": str(t),
            "label": _(words[t]) if t in words else _("%(n)s с", n=t),
            "default": mode == "required" and t == 60,
        }
        for t in presets
    ]
    return out


def lobby_games(request: Request, first_seat: bool = False) -> list[dict[str, Any]]:
    """The games as the lobby draws them: title, tagline, summary, ``options_form`` fields (the game's words,
    ``duelclub.words``; ``first_seat``: a side is labelled for the first seat, as a tournament sets it), bot
    levels."""
    return [
        {
            "slug": g.slug,
            "title": (w := words_for(g.slug)).game_title(),
            "tagline": w.tagline_text(),
            "summary": w.summary_text(),
            "fields": w.options_form(first_seat),
            "clock_mode": g.clock_mode,
            "clock_choices": clock_choices(g.clock_mode),
            "rated": g.rated,
            "bot_levels": [
                {
                    "value": level,
                    "label": _(BOT_LEVEL_WORDS[level][0]) if level in BOT_LEVEL_WORDS else level,
                    "hint": w.level_hint(level, BOT_LEVEL_WORDS.get(level, ("", ""))[1]),
                    "default": level == DEFAULT_LEVEL,
                    "ladder": lobby_text(g.slug, level),
                }
                for level in g.bot_levels
            ],
        }
        for g in get_service(request).games.values()
    ]


@page("/login")
def login_page(request: Request, user: OptionalUser, next: str | None = None) -> Response:
    if user is not None:
        return RedirectResponse(safe_next(next), status_code=303)
    return _render(request, "login.html", None, next=safe_next(next))


@page("/register")
def register_page(request: Request, user: OptionalUser, next: str | None = None) -> Response:
    if user is not None:
        return RedirectResponse(safe_next(next), status_code=303)
    return _render(request, "register.html", None, next=safe_next(next))


@page("/account")
def account_page(request: Request, user: OptionalUser) -> Response:
    """The member's account: their name, «Почта» (their own address, confirmed and pending), «Сменить
    пароль», «Письма о ходе» (issue 28 §3: PUT /api/me/notices), the members they blocked (each with
    «Разблокировать») and «Выйти на всех устройствах»."""
    if user is None:
        return _to_login(request)
    with get_database(request).read_session() as s:
        account = users_repo.get_user(s, user.id)
        email = account.email if account is not None else None
        pending = account_tokens.pending_email(s, user.id, utcnow())
        blocked = blocks_repo.blocked_by(s, user.id)
        notices = account.email_notices if account is not None else "off"
    hours = max(1, round(request.app.state.settings.NOTIFY_EMAIL_AFTER_SECONDS / 3600))
    return _render(
        request,
        "account.html",
        user,
        email=email,
        email_pending=pending,
        blocked=blocked,
        notices=notices,
        notice_hours=hours,
    )


@page("/invite/{token}")
def invite_page(request: Request, token: str, user: OptionalUser) -> Response:
    """An invitation: who invites, the game, the house you get, the commitment, «Принять вызов»."""
    if user is None:
        return _to_login(request)
    return _render(request, "invite.html", user, token=token)


@page("/matches/{match_id}")
def match_page(request: Request, match_id: str, user: OptionalUser) -> Response:
    """The live match page; the game's ES module renders it from the API and the socket. An unknown match
    is a 404 page with a link back to the lobby (visitors still go to the login page first)."""
    if user is None:
        return _to_login(request)
    return _unknown_match(request, user, match_id) or _render(request, "match.html", user, match_id=match_id)


def _unknown_match(request: Request, user: UserInfo, match_id: str) -> Response | None:
    """The 404 page «Партия не найдена» (with a link back to the lobby) for a match that does not exist."""
    with get_database(request).session() as s:
        if matches_repo.get_match(s, match_id) is not None:
            return None
    return _render(
        request,
        "404.html",
        user,
        status_code=404,
        heading=_("Партия не найдена"),
        text=_("Такой партии нет: ссылка неверна или устарела."),
    )


@page("/matches/{match_id}/verify")
def verify_page(request: Request, match_id: str, user: OptionalUser) -> Response:
    """The fairness check of a match, computed in the browser (rules/fairness.md §Reveal and verification)."""
    if user is None:
        return _to_login(request)
    return _unknown_match(request, user, match_id) or _render(request, "verify.html", user, match_id=match_id)


def _admin_gate(request: Request, user: UserInfo | None) -> Response | None:
    """None for an admin; otherwise the login redirect (visitors) or a 403 page (members)."""
    if user is None:
        return _to_login(request)
    if not user.is_admin:
        return _render(request, "forbidden.html", user, status_code=403)
    return None


@page("/admin")
def admin_page(request: Request, user: OptionalUser) -> Response:
    """Admins: every match, filtered by status, game and player."""
    return _admin_gate(request, user) or _render(request, "admin.html", user)


@page("/admin/status")
def admin_status_page(request: Request, user: OptionalUser) -> Response:
    """Admins: «Состояние сервера» — live matches, open sockets, bots waiting and thinking, recent errors."""
    return _admin_gate(request, user) or _render(request, "admin_status.html", user)


@page("/admin/matches/{match_id}")
def admin_match_page(request: Request, match_id: str, user: OptionalUser) -> Response:
    """Admins: one match's audit data, log and step-by-step replay, and the abort button."""
    return _admin_gate(request, user) or _render(request, "admin_match.html", user, match_id=match_id)
