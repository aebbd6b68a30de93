"""Honest answers while the database is down (issue 31 §2), installed with the other error handlers.

Every route that needs the database answers 503 ``{"code": "store_unavailable", "message": …}`` with
``Retry-After: 5`` (:data:`RETRY_AFTER_SECONDS`) when a store outage (store/health.py: ``is_outage``) reaches
it, instead of a 500 with a traceback. A page (GET or HEAD outside ``/api/`` from a browser, which asks for
``text/html``) gets the same 503 as a small HTML page instead, in the reader's language: «Нет связи с
сервером, пробуем снова…», and static/js/unavailable.js reloads it once the server answers (backing off
between its tries). A WebSocket that meets one — on open (the session look-up, the match)
or later (an act, a lobby read) — is accepted if it was not yet and closed with 1013 (try again later), the
browser's cue to back off (static/js/outage.js). Nothing is logged per request: ``db.health`` logs one WARNING
when the outage starts and one when the database is back.

The handlers are Starlette exception handlers on SQLAlchemy's ``DBAPIError`` (its ``OperationalError`` among
them) and pool ``TimeoutError``, psycopg's ``Error`` and ``ExceptionGroup`` (a failure inside a task group, as
in the lobby socket): for a request they run in Starlette's ``ExceptionMiddleware``, so the response is an
ordinary one and the keep-alive connection stays usable (a 500 from the error middleware made uvicorn drop
the connection); for a socket, Starlette passes them the endpoint's own ``WebSocket``. Any other error of
these types is raised again and reported as before (500 ``internal``, with its traceback).
"""

from __future__ import annotations

import contextlib
from html import escape
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse
from sqlalchemy import exc as sa_exc
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketState

from duelclub import i18n
from duelclub.i18n import gettext as _
from duelclub.play.errors import STORE_UNAVAILABLE, STORE_UNAVAILABLE_MESSAGE
from duelclub.store.health import is_outage
from duelclub.web import wssend

RETRY_AFTER_SECONDS = 5
"""The ``Retry-After`` of a 503: the database usually answers again within seconds of its return."""
TRY_AGAIN_LATER = 1013
"""The close code of a socket that met a store outage (RFC 6455 §7.4.1, IANA registry: Try Again Later)."""
MESSAGE = STORE_UNAVAILABLE_MESSAGE


def reported(conn: HTTPConnection, exc: BaseException) -> bool:
    """Whether ``exc`` is a store outage, told to the app's ``db.health`` (which logs a change of state)."""
    db: Any = getattr(conn.app.state, "db", None)
    health = getattr(db, "health", None)
    return bool(health.failed(exc)) if health is not None else is_outage(exc)


def wants_page(request: Request) -> bool:
    """A browser loading a page (not the JSON API, not a script)."""
    return (
        request.method in ("GET", "HEAD")
        and not request.url.path.startswith("/api/")
        and "text/html" in request.headers.get("accept", "")
    )


def unavailable_page() -> str:
    """The 503 page: the banner of static/js/outage.js, a line of explanation, and unavailable.js. No
    template: base.html shows the member, and who the member is cannot be read now."""
    lang = i18n.current_lang()
    banner = _("Нет связи с сервером, пробуем снова…")
    why = _("Страница обновится сама, когда связь вернётся.")
    title = _("Дуэль-клуб")
    return (
        f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title, quote=False)}</title>\n"
        '<link rel="stylesheet" href="/static/css/app.css">\n'
        '<script type="module" src="/static/js/unavailable.js"></script>\n</head>\n<body>\n'
        '<main id="main" class="page page-medium">\n'
        '<p class="offline-note server-unavailable" id="server-unavailable" role="status">'
        f"{escape(banner, quote=False)}</p>\n"
        f'<p class="muted">{escape(why, quote=False)}</p>\n</main>\n</body>\n</html>\n'
    )


def unavailable_response(request: Request) -> Response:
    """503 with ``Retry-After``: ``{"code": "store_unavailable", "message"}`` (the shape of web/errors.py),
    or the HTML page of :func:`unavailable_page` for a browser loading a page."""
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if wants_page(request):
        return HTMLResponse(unavailable_page(), status_code=503, headers=headers)
    return JSONResponse({"code": STORE_UNAVAILABLE, "message": MESSAGE}, status_code=503, headers=headers)


async def close_for_outage(ws: WebSocket) -> None:
    """Close ``ws`` with 1013, accepting it first if the outage came before the handshake (a refused
    handshake reaches the page as a bare 1006, which says nothing)."""
    if ws.application_state is WebSocketState.CONNECTING:
        with contextlib.suppress(*wssend.CLOSED_ERRORS):
            await ws.accept()
    await wssend.close(ws, TRY_AGAIN_LATER)


async def store_outage(conn: HTTPConnection, exc: Exception) -> Response | None:
    """The exception handler (see the module docstring): 503 for a request, 1013 for a socket; any other
    error raised again."""
    if not reported(conn, exc):
        raise exc
    if isinstance(conn, WebSocket):
        await close_for_outage(conn)
        return None
    assert isinstance(conn, Request)
    return unavailable_response(conn)


def install_outage_handlers(app: FastAPI) -> None:
    """Register :func:`store_outage` for the exception types that may carry an outage."""
    import psycopg  # the PostgreSQL driver (a dependency of duelclub even where SQLite is used)

    for kind in (sa_exc.DBAPIError, sa_exc.TimeoutError, psycopg.Error, ExceptionGroup):
        app.add_exception_handler(kind, store_outage)  # type: ignore[arg-type]
