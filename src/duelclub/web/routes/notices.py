"""Turn notice preferences and the mails' one-click unsubscribe (issue 28 §3; API section exact):

- ``GET /api/me/notices`` → ``{email: "off"|"each"|"digest", push: bool, has_email: bool}``;
- ``PUT /api/me/notices {email, push}`` → the same: ``each`` mails every turn that waited
  ``NOTIFY_EMAIL_AFTER_SECONDS`` with no page of the site open, ``digest`` one mail a day listing the
  matches waiting; both get the low-time reminders of correspondence clocks. ``push`` is the member's
  Web Push choice (the same rule). Mails need a confirmed address (``has_email``); the choice is kept
  without one and applies once an address is confirmed. 422 ``validation_error`` for another value.
- ``GET /unsubscribe/{token}`` — a page with one button (opening the link changes nothing: mail scanners
  follow links); ``POST /unsubscribe/{token}`` — turns the member's notice mails off, no login needed:
  the token is signed (notify/unsubscribe.py). This is also the RFC 8058 one-click target of the mails'
  ``List-Unsubscribe`` header (a body ``List-Unsubscribe=One-Click``, from a mail provider: no cookie, no
  origin, so this route has no CSRF check — the signed token is the proof). A forged or altered token is
  refused with 400.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel

from duelclub.notify import unsubscribe
from duelclub.play.threads import in_thread
from duelclub.store import notices, users
from duelclub.store.db import Database
from duelclub.store.notices import EmailMode, Preferences
from duelclub.web.deps import CurrentUser, OptionalUser, UserInfo, get_database
from duelclub.web.errors import ApiError
from duelclub.web.routes.pages import _render
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute

router = APIRouter(
    prefix="/api", tags=["auth"], dependencies=[Depends(csrf_guard)], route_class=StrictJsonRoute
)
pages = APIRouter(tags=["pages"])
Db = Annotated[Database, Depends(get_database)]


class NoticesBody(BaseModel):
    email: EmailMode
    push: bool


class NoticesInfo(NoticesBody):
    has_email: bool


def _info(db: Database, user_id: int) -> NoticesInfo:
    with db.read_session() as s:
        prefs = notices.preferences(s, user_id)
        account = users.get_user(s, user_id)
        if prefs is None or account is None:
            raise ApiError(401, "not_authenticated", "log in first")
        return NoticesInfo(email=prefs.email, push=prefs.push, has_email=account.email is not None)


@router.get("/me/notices", response_model=NoticesInfo)
async def get_notices(user: CurrentUser, db: Db) -> NoticesInfo:
    """The caller's notice choices."""
    return await in_thread(_info, db, user.id)


@router.put("/me/notices", response_model=NoticesInfo)
async def put_notices(body: NoticesBody, user: CurrentUser, db: Db) -> NoticesInfo:
    """Choose the turn notices: by mail (``off``, ``each``, ``digest``) and by Web Push."""

    def store() -> None:
        with db.session() as s:
            if not notices.set_preferences(s, user.id, Preferences(body.email, body.push)):
                raise ApiError(401, "not_authenticated", "log in first")

    await in_thread(store)
    return await in_thread(_info, db, user.id)


def _page(
    request: Request, user: UserInfo | None, token: str, *, done: bool, status: int = 200
) -> HTMLResponse:
    bad = status == 400
    return _render(request, "unsubscribe.html", user, status_code=status, token=token, done=done, bad=bad)


@pages.api_route(
    "/unsubscribe/{token}", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
)
def unsubscribe_page(request: Request, token: str, user: OptionalUser) -> Response:
    """The unsubscribe button of a mail's link (400 for a forged one)."""
    ok = unsubscribe.member(request.app.state.settings.SECRET_KEY, token) is not None
    return _page(request, user, token, done=False, status=200 if ok else 400)


@pages.post("/unsubscribe/{token}", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe_post(request: Request, token: str, user: OptionalUser) -> Response:
    """Turn the notice mails of the token's member off (the page's button, or a mail client's one-click
    POST); 400 for a forged token."""
    member = unsubscribe.member(request.app.state.settings.SECRET_KEY, token)
    if member is None:
        return _page(request, user, token, done=False, status=400)
    db = get_database(request)

    def store() -> None:
        with db.session() as s:
            notices.unsubscribe(s, member)

    await in_thread(store)
    return _page(request, user, token, done=True)
