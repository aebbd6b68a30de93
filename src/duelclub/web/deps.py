"""FastAPI dependencies: the session user, the database session and the match service.

The signed session cookie (``duelclub_session``, Starlette ``SessionMiddleware``) is only an envelope for
``{"sid": session id}``; the session itself lives in the ``user_sessions`` table (``store/sessions.py``), so
logout, «log out everywhere» and a password change end it for good. Pages use :func:`optional_user`
(``UserInfo`` or None); API routes use :func:`current_user`, which answers 401
``{"code": "not_authenticated"}`` when nobody is logged in. Both work for HTTP requests and WebSockets (a
socket opened before its session ended stays open until it reconnects).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends
from pydantic import BaseModel, ConfigDict
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from duelclub.logs import bind
from duelclub.store import sessions
from duelclub.store.db import Database
from duelclub.store.models import utcnow
from duelclub.web.errors import ApiError

if TYPE_CHECKING:
    from duelclub.play.service import MatchService

SESSION_ID_KEY = "sid"


class UserInfo(BaseModel):
    """The logged-in user as routes and templates see it."""

    model_config = ConfigDict(frozen=True)

    id: int
    username: str
    is_admin: bool


def get_database(conn: HTTPConnection) -> Database:
    """The app's :class:`Database` (opened by the lifespan)."""
    db: Database = conn.app.state.db
    return db


def db_session(db: Annotated[Database, Depends(get_database)]) -> Iterator[Session]:
    """A session committed when the route returns, before the response is sent (rolled back on error).

    ``scope="function"`` in :data:`DbSession` matters: with the default request scope the commit would run
    after the response went out, so a client could see its own write missing (register, then ``/api/me``).
    """
    with db.session() as s:
        yield s


def get_service(conn: HTTPConnection) -> MatchService:
    """The app's match service (the one writer, DESIGN.md §Layers)."""
    service: MatchService = conn.app.state.service
    return service


def session_token(conn: HTTPConnection) -> str | None:
    """The session id the cookie carries, or None."""
    token = conn.session.get(SESSION_ID_KEY) if "session" in conn.scope else None
    return token if isinstance(token, str) and token else None


def optional_user(conn: HTTPConnection) -> UserInfo | None:
    """The logged-in user, or None (no cookie, bad cookie, a session that was ended or has expired).

    One primary-key lookup joined with the user; a dead session's cookie is dropped from the response."""
    token = session_token(conn)
    if token is None:
        return None
    db, now = get_database(conn), utcnow()
    with db.read_session() as s:  # no write lock on SQLite for the read every request makes
        found, due = sessions.find(s, token, now)
    if due:
        with db.session() as s:
            sessions.touch(s, token, now)
    if found is None:
        conn.session.clear()
        return None
    bind(user_id=found.id)  # the log context (duelclub/logs.py)
    return UserInfo(id=found.id, username=found.username, is_admin=found.is_admin)


def current_user(user: Annotated[UserInfo | None, Depends(optional_user)]) -> UserInfo:
    """The logged-in user; raises 401 ``not_authenticated`` otherwise."""
    if user is None:
        raise ApiError(401, "not_authenticated", "log in first")
    return user


def admin_user(user: Annotated[UserInfo, Depends(current_user)]) -> UserInfo:
    """The logged-in admin; raises 403 ``forbidden`` for other users."""
    if not user.is_admin:
        raise ApiError(403, "forbidden", "admins only")
    return user


CurrentUser = Annotated[UserInfo, Depends(current_user)]
OptionalUser = Annotated[UserInfo | None, Depends(optional_user)]
AdminUser = Annotated[UserInfo, Depends(admin_user)]
DbSession = Annotated[Session, Depends(db_session, scope="function")]
