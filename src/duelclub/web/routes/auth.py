"""Accounts: register, login, logout, log out everywhere, change password, me (DESIGN.md §Public JSON API,
§Web — argon2 hashes, cookie sessions).

Sessions are server-side (``store/sessions.py``): the cookie carries a random session id whose SHA-256 is
a ``user_sessions`` row, so ending a session (logout, logout-all, a password change) is final even for a
copy of the cookie. The rules for names and passwords are in ``store/users.py`` (``bad_username``,
``bad_password``, 422, with a message for people); logins and registrations are throttled
(``web/ratelimit.py``, 429 ``rate_limited``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from duelclub.i18n import gettext as _
from duelclub.store import sessions, users
from duelclub.store.models import utcnow
from duelclub.web.deps import SESSION_ID_KEY, CurrentUser, DbSession, UserInfo, session_token
from duelclub.web.errors import ApiError
from duelclub.web.ratelimit import AuthLimiter, client_ip, get_limiter
from duelclub.web.security import csrf_guard

router = APIRouter(prefix="/api", tags=["auth"], dependencies=[Depends(csrf_guard)])
Limiter = Annotated[AuthLimiter, Depends(get_limiter)]

_DUMMY_HASH = users.hash_password("not a password of anyone")
# Generous bounds only: the real rules (and their messages) are users.check_username/check_new_password.
_Name = Annotated[str, Field(max_length=40)]
_Password = Annotated[str, Field(max_length=1024)]


class RegisterBody(BaseModel):
    username: _Name
    password: _Password


class LoginBody(BaseModel):
    username: _Name
    password: _Password


class PasswordBody(BaseModel):
    old_password: _Password
    new_password: _Password


def _sessions_ended(request: Request, s: Session, user_id: int) -> None:
    """Commit, then tell the member's open sockets (every worker) that a session of theirs ended
    (web/session_watch.py): they re-check before their next act instead of reading it on every act."""
    s.commit()
    watch = getattr(request.app.state, "session_watch", None)
    if watch is not None:
        watch.ended(user_id)


def _start_session(request: Request, s: Session, user_id: int) -> None:
    """A new server-side session in the cookie; the cookie's previous session (if any) ends."""
    old = session_token(request)
    if old is not None:
        owner = sessions.end_session(s, old)
        if owner is not None:
            _sessions_ended(request, s, owner)
    token = sessions.create_session(s, user_id, utcnow())
    request.session.clear()
    request.session[SESSION_ID_KEY] = token


@router.post("/auth/register", status_code=201, response_model=UserInfo)
def register(body: RegisterBody, request: Request, s: DbSession, limiter: Limiter) -> UserInfo:
    """Create an account and log in. 422 ``bad_username``/``bad_password``, 409 ``username_taken`` (also
    for a look-alike of an existing name), 429 ``rate_limited``."""
    try:
        users.check_username(body.username)
        users.check_new_password(body.password, body.username)
    except users.BadUsername as exc:
        raise ApiError(422, "bad_username", str(exc)) from None
    except users.BadPassword as exc:
        raise ApiError(422, "bad_password", str(exc)) from None
    limiter.register_attempt(client_ip(request))
    try:
        user = users.create_user(s, body.username, body.password)
    except users.UsernameTaken:
        raise ApiError(409, "username_taken", _("Это имя (или очень похожее) уже занято.")) from None
    _start_session(request, s, user.id)
    return UserInfo(id=user.id, username=user.username, is_admin=user.is_admin)


@router.post("/auth/login", response_model=UserInfo)
def login(body: LoginBody, request: Request, s: DbSession, limiter: Limiter) -> UserInfo:
    """Log in (sets the session cookie). 401 ``bad_credentials``, 429 ``rate_limited``."""
    ip, key = client_ip(request), users.username_key(body.username)
    limiter.check_login(ip, key)
    user = users.find_user(s, body.username)
    if user is None:
        users.check_password_hash(_DUMMY_HASH, body.password)  # same cost as a real check
    if user is None or not users.check_password(user, body.password):
        limiter.login_failed(ip, key)
        raise ApiError(401, "bad_credentials", "wrong username or password")
    _start_session(request, s, user.id)
    return UserInfo(id=user.id, username=user.username, is_admin=user.is_admin)


@router.post("/auth/logout", status_code=204)
def logout(request: Request, s: DbSession) -> Response:
    """End this session (always succeeds)."""
    token = session_token(request)
    if token is not None:
        owner = sessions.end_session(s, token)
        if owner is not None:
            _sessions_ended(request, s, owner)
    request.session.clear()
    return Response(status_code=204)


@router.post("/auth/logout-all", status_code=204)
def logout_all(request: Request, user: CurrentUser, s: DbSession) -> Response:
    """End every session of the caller, on every device, this one included."""
    sessions.end_user_sessions(s, user.id)
    _sessions_ended(request, s, user.id)
    request.session.clear()
    return Response(status_code=204)


@router.post("/auth/password", status_code=204)
def change_password(
    body: PasswordBody, request: Request, user: CurrentUser, s: DbSession, limiter: Limiter
) -> Response:
    """Change the caller's password and end their other sessions (this one stays).
    403 ``wrong_password`` (the old one does not match), 422 ``bad_password``, 429 ``rate_limited``."""
    ip, key = client_ip(request), users.username_key(user.username)
    limiter.check_login(ip, key)
    account = users.get_user(s, user.id)
    if account is None:
        raise ApiError(401, "not_authenticated", "log in first")
    if not users.check_password(account, body.old_password):
        limiter.login_failed(ip, key)
        raise ApiError(403, "wrong_password", _("Текущий пароль указан неверно."))
    if body.new_password == body.old_password:
        raise ApiError(422, "bad_password", _("Новый пароль совпадает с текущим."))
    try:
        users.set_password(s, account, body.new_password)
    except users.BadPassword as exc:
        raise ApiError(422, "bad_password", str(exc)) from None
    sessions.end_user_sessions(s, user.id, keep=session_token(request))
    _sessions_ended(request, s, user.id)
    return Response(status_code=204)


@router.get("/me", response_model=UserInfo)
def me(user: CurrentUser) -> UserInfo:
    """The logged-in user; 401 ``not_authenticated``."""
    return user
