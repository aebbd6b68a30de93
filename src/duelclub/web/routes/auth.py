"""Accounts: register, login, logout, log out everywhere, change password, me (DESIGN.md §Public JSON API,
§Web — argon2 hashes, cookie sessions).

Sessions are server-side (``store/sessions.py``): the cookie carries a random session id whose SHA-256 is
a ``user_sessions`` row, so ending a session (logout, logout-all, a password change) is final even for a
copy of the cookie. The rules for names and passwords are in ``store/users.py`` (``bad_username``,
``bad_password``, 422, with a message for people); logins and registrations are throttled
(``web/ratelimit.py``, 429 ``rate_limited``). Passwords are hashed and checked with no database connection
held, at most ``HASH_CONCURRENCY`` at once (``web/passwords.py``, issue 13 §1.1).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from duelclub.i18n import gettext as _
from duelclub.notify import accounts
from duelclub.notify.addresses import address_key
from duelclub.play.service import in_thread
from duelclub.store import push, sessions, users
from duelclub.store.db import Database
from duelclub.store.models import utcnow
from duelclub.web.account_words import password_message, username_message
from duelclub.web.deps import SESSION_ID_KEY, CurrentUser, DbSession, UserInfo, get_database, session_token
from duelclub.web.errors import ApiError
from duelclub.web.openapi import errors
from duelclub.web.passwords import Hashing, get_hashing
from duelclub.web.ratelimit import AuthLimiter, client_ip, get_limiter
from duelclub.web.routes.mail import checked_address, known_lang, mail_site, wake_sender
from duelclub.web.security import csrf_guard
from duelclub.web.strictjson import StrictJsonRoute

router = APIRouter(
    prefix="/api", tags=["auth"], dependencies=[Depends(csrf_guard)], route_class=StrictJsonRoute
)
Limiter = Annotated[AuthLimiter, Depends(get_limiter)]
Hasher = Annotated[Hashing, Depends(get_hashing)]
Db = Annotated[Database, Depends(get_database)]

# Generous bounds only: the real rules (and their messages) are users.check_username/check_new_password.
_Name = Annotated[str, Field(max_length=40)]
_Password = Annotated[str, Field(max_length=1024)]


class RegisterBody(BaseModel):
    """``email`` (optional): an address to confirm by its mailed link (issue 28 §1); ``email_notices``:
    whether the member wants notices by mail (kept for the turn notices; ``each`` when true)."""

    username: _Name
    password: _Password
    email: Annotated[str, Field(max_length=1024)] | None = None
    email_notices: bool = False


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


async def _announce(request: Request, user_ids: list[int]) -> None:
    """:func:`_sessions_ended`'s news for an async route, after its transaction committed."""
    watch = getattr(request.app.state, "session_watch", None)
    if watch is not None:
        for user_id in user_ids:
            await watch.announce(user_id)


def _new_session(request: Request, s: Session, user_id: int) -> list[int]:
    """A new server-side session in the cookie; the cookie's previous session (if any) ends. Returns the
    owners of the ended sessions (to announce once committed)."""
    ended: list[int] = []
    old = session_token(request)
    if old is not None:
        owner = sessions.end_session(s, old)
        if owner is not None:
            ended.append(owner)
    token = sessions.create_session(s, user_id, utcnow())
    request.session.clear()
    request.session[SESSION_ID_KEY] = token
    return ended


@router.post("/auth/register", status_code=201, response_model=UserInfo, responses=errors(409, 429))
async def register(
    body: RegisterBody, request: Request, db: Db, limiter: Limiter, hashing: Hasher
) -> UserInfo:
    """Create an account and log in. With ``email``, a confirmation mail goes to it (written in the same
    transaction, notify/accounts.py). 422 ``bad_username`` (also for a reserved name such as ``admin``)/
    ``bad_password``/``bad_email``, 409 ``username_taken`` (also for a look-alike of an existing name), 429
    ``rate_limited`` (web/ratelimit.py: these failures, the accounts created and every attempt are counted
    per client IP). The password is hashed before any database session opens (web/passwords.py)."""
    ip = client_ip(request)
    await limiter.register_attempt(ip)
    try:
        users.check_username(body.username)
        users.check_new_password(body.password, body.username)
    except users.BadUsername as exc:
        await limiter.registration_failed(ip)
        raise ApiError(422, "bad_username", username_message(exc)) from None
    except users.BadPassword as exc:
        await limiter.registration_failed(ip)
        raise ApiError(422, "bad_password", password_message(exc)) from None
    address = checked_address(body.email) if body.email else None
    if address is not None:
        await limiter.mail_request(ip, address_key(address))
    password_hash = await hashing.hash(body.password)
    site, lang = mail_site(request), known_lang(request)

    def store() -> tuple[UserInfo, list[int]]:
        with db.session() as s:
            user = users.create_user(s, body.username, body.password, password_hash=password_hash)
            user.lang = lang
            user.email_notices = "each" if body.email_notices and address else "off"
            if address is not None:
                accounts.set_email(s, site, user, address, utcnow())
            ended = _new_session(request, s, user.id)
            return UserInfo(id=user.id, username=user.username, is_admin=user.is_admin), ended

    try:
        info, ended = await in_thread(store)
    except users.UsernameTaken:
        await limiter.registration_failed(ip)
        raise ApiError(409, "username_taken", _("Это имя (или очень похожее) уже занято.")) from None
    await limiter.registered(ip)
    await _announce(request, ended)
    if address is not None:
        wake_sender(request)
    return info


def _find(db: Database, username: str) -> tuple[UserInfo, str] | None:
    with db.session() as s:
        user = users.find_user(s, username)
        if user is None:
            return None
        return UserInfo(id=user.id, username=user.username, is_admin=user.is_admin), user.password_hash


@router.post("/auth/login", response_model=UserInfo, responses=errors(429))
async def login(body: LoginBody, request: Request, db: Db, limiter: Limiter, hashing: Hasher) -> UserInfo:
    """Log in (sets the session cookie). 401 ``bad_credentials``, 429 ``rate_limited``.

    No database connection is held while the password is checked (issue 13 §1.1): one short read for the
    account, the argon2 check under the hashing limiter, then one short write for the session (and a new
    hash when the stored one has other parameters than the settings')."""
    ip, key = client_ip(request), users.username_key(body.username)
    await limiter.check_login(ip, key)
    found = await in_thread(_find, db, body.username)
    stored = found[1] if found is not None else None
    if not await hashing.verify(stored, body.password) or found is None:
        await limiter.login_failed(ip, key)
        raise ApiError(401, "bad_credentials", "wrong username or password")
    info, password_hash = found
    new_hash = await hashing.rehash(password_hash, body.password)

    def start() -> list[int]:
        with db.session() as s:
            if new_hash is not None:
                users.store_hash(s, info.id, password_hash, new_hash)
            return _new_session(request, s, info.id)

    await _announce(request, await in_thread(start))
    return info


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
    """End every session of the caller, on every device, this one included, and forget every browser's push
    subscription (a lost phone stops showing the member's turns; notify/push.py)."""
    sessions.end_user_sessions(s, user.id)
    push.forget_user(s, user.id)
    _sessions_ended(request, s, user.id)
    request.session.clear()
    return Response(status_code=204)


@router.post("/auth/password", status_code=204, responses=errors(429))
async def change_password(
    body: PasswordBody, request: Request, user: CurrentUser, db: Db, limiter: Limiter, hashing: Hasher
) -> Response:
    """Change the caller's password and end their other sessions (this one stays).
    403 ``wrong_password`` (the old one does not match), 422 ``bad_password``, 429 ``rate_limited``.
    Hashing runs with no database connection held, as for logins."""
    ip, key = client_ip(request), users.username_key(user.username)
    await limiter.check_login(ip, key)
    found = await in_thread(_find, db, user.username)
    if found is None or found[0].id != user.id:
        raise ApiError(401, "not_authenticated", "log in first")
    if not await hashing.verify(found[1], body.old_password):
        await limiter.login_failed(ip, key)
        raise ApiError(403, "wrong_password", _("Текущий пароль указан неверно."))
    if body.new_password == body.old_password:
        raise ApiError(422, "bad_password", _("Новый пароль совпадает с текущим."))
    try:
        users.check_new_password(body.new_password, user.username)
    except users.BadPassword as exc:
        raise ApiError(422, "bad_password", password_message(exc)) from None
    new_hash = await hashing.hash(body.new_password)

    def store() -> None:
        with db.session() as s:
            account = users.get_user(s, user.id)
            if account is None:
                raise ApiError(401, "not_authenticated", "log in first")
            users.set_password(s, account, body.new_password, password_hash=new_hash)
            sessions.end_user_sessions(s, user.id, keep=session_token(request))

    await in_thread(store)
    await _announce(request, [user.id])
    return Response(status_code=204)


@router.get("/me", response_model=UserInfo)
def me(user: CurrentUser) -> UserInfo:
    """The logged-in user; 401 ``not_authenticated``."""
    return user
