"""The UI language per request (DESIGN.md §Web; duelclub/i18n.py): the ASGI middleware that sets it from the
``lang`` cookie or ``Accept-Language``, the header switcher's ``GET /lang/{code}``, and the Jinja2
environment's gettext and JS-catalog hooks."""

from __future__ import annotations

import json
from collections.abc import Awaitable
from functools import cache
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from jinja2 import Environment
from sqlalchemy import update
from starlette.types import ASGIApp, Receive, Scope, Send

from duelclub import i18n
from duelclub.store.models import User
from duelclub.web.deps import OptionalUser, get_database
from duelclub.web.urls import safe_next

COOKIE_MAX_AGE = 365 * 24 * 3600

router = APIRouter(include_in_schema=False)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return str(value.decode("latin-1"))
    return None


def scope_lang(scope: Scope) -> str:
    """The language of an HTTP or WebSocket request: the ``lang`` cookie, else ``Accept-Language``."""
    cookie: str | None = None
    raw = _header(scope, b"cookie")
    if raw:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(raw)
        except Exception:  # a malformed Cookie header reads as no cookie
            jar = SimpleCookie()
        if i18n.COOKIE in jar:
            cookie = jar[i18n.COOKIE].value
    return i18n.negotiate(cookie, _header(scope, b"accept-language"))


class LanguageMiddleware:
    """Sets the request's language (``i18n.current_lang``) for all the request runs, sockets included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] == "websocket":
            # Each connection runs in a task of its own (uvicorn), whose context holds the language until the
            # socket ends: set, and the inner app's coroutine handed on — no frame of ours kept for the
            # socket's life (web/middleware.py).
            i18n.set_lang(scope_lang(scope))
            return self.app(scope, receive, send)
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        return self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = i18n.set_lang(scope_lang(scope))
        try:
            await self.app(scope, receive, send)
        finally:
            i18n.reset_lang(token)


@router.get("/lang/{code}")
def switch_language(
    request: Request, code: str, user: OptionalUser, next: str | None = None
) -> RedirectResponse:
    """The header switcher (RU / UK): remember ``code`` in the ``lang`` cookie for a year (and, for a
    member, as the language of their mails, issue 28) and go back to ``next``, else to the page the link
    was clicked on (a same-site ``Referer``), else to the lobby; only paths on this site are followed. An
    unknown code changes nothing."""
    target = next
    if target is None:
        referer = urlsplit(request.headers.get("referer", ""))
        if referer.netloc and referer.netloc == request.headers.get("host"):
            target = referer.path + (f"?{referer.query}" if referer.query else "")
    response = RedirectResponse(safe_next(target), status_code=303)
    if code in i18n.LANGS:
        response.set_cookie(i18n.COOKIE, code, max_age=COOKIE_MAX_AGE, samesite="lax", path="/")
        if user is not None:
            with get_database(request).session() as s:
                s.execute(update(User).where(User.id == user.id).values(lang=code))
    return response


@cache
def _js_messages_json(lang: str) -> str:
    return json.dumps(i18n.js_messages(lang), ensure_ascii=False, sort_keys=True)


def js_messages_json() -> str:
    """The current language's JS catalog as JSON, for base.html's ``<template id="i18n-messages">`` (a
    template, not an inline script, so the CSP's ``script-src 'self'`` holds; Jinja escapes it as text)."""
    return _js_messages_json(i18n.current_lang())


def install(env: Environment) -> None:
    """Give ``env`` the i18n extension (``{% trans %}``, ``_()``) bound to the current request's language,
    and the globals ``lang``/``langs``/``js_messages`` that base.html uses."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.jinja_gettext, i18n.jinja_ngettext, newstyle=True
    )
    globals_: dict[str, Any] = {
        "current_lang": i18n.current_lang,
        "langs": i18n.LANGS,
        "js_messages": js_messages_json,
    }
    env.globals.update(globals_)
