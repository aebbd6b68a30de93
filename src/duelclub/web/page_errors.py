"""A browser that asks for an address the club does not have gets the site's 404 page (issue 30, fresh-user
QA: ``/nope`` answered the API's raw JSON to a browser). The JSON API keeps its ``{"code", "message"}``
answer: only a ``GET``/``HEAD`` that accepts ``text/html`` and is not under ``/api/`` or ``/ws/`` gets the
page.

:func:`install_page_not_found` wraps the JSON handler of web/errors.py rather than replacing it, so every
other status and every API path still answers exactly as before.
"""

from __future__ import annotations

import inspect
import logging

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from duelclub.i18n import gettext as _
from duelclub.web.deps import optional_user
from duelclub.web.routes.pages import _render

log = logging.getLogger(__name__)
API_PREFIXES = ("/api/", "/ws/")


def wants_page(request: Request) -> bool:
    """Whether ``request`` is a browser's page load (not the API, a socket or a script's fetch)."""
    path = request.url.path
    if request.method not in ("GET", "HEAD") or path == "/api" or path.startswith(API_PREFIXES):
        return False
    return "text/html" in request.headers.get("accept", "")


def install_page_not_found(app: FastAPI) -> None:
    """Answer a browser's 404 with the 404 page; everything else goes to the handler installed before."""
    json_handler = app.exception_handlers[StarletteHTTPException]

    async def not_found(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code != 404 or not wants_page(request):
            answer = json_handler(request, exc)
            return await answer if inspect.isawaitable(answer) else answer
        try:
            user = await run_in_threadpool(optional_user, request)
        except Exception:  # the store is down: the page still says «not found», without the member
            log.warning("404 page without the member: the session could not be read", exc_info=True)
            user = None
        return _render(
            request,
            "404.html",
            user,
            status_code=404,
            heading=_("Страница не найдена"),
            text=_("Такой страницы в клубе нет: ссылка неверна или устарела."),
        )

    app.add_exception_handler(StarletteHTTPException, not_found)
