"""Accounts: register, login, logout, me (DESIGN.md §Public JSON API, §Web — argon2 hashes, cookie sessions).

Usernames: 3–20 characters, Latin or Cyrillic letters, digits, ``_`` and ``-``; unique case-insensitively.
Passwords: 8–256 characters.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from duelclub.store import users
from duelclub.web.deps import SESSION_USER_KEY, CurrentUser, DbSession, UserInfo
from duelclub.web.errors import ApiError
from duelclub.web.security import csrf_guard

router = APIRouter(prefix="/api", tags=["auth"], dependencies=[Depends(csrf_guard)])

USERNAME_PATTERN = r"^[A-Za-z0-9_\-\u0400-\u04FF]{3,20}$"
_DUMMY_HASH = users.hash_password("not a password of anyone")


class RegisterBody(BaseModel):
    username: Annotated[str, Field(pattern=USERNAME_PATTERN)]
    password: Annotated[str, Field(min_length=8, max_length=256)]


class LoginBody(BaseModel):
    username: Annotated[str, Field(max_length=40)]
    password: Annotated[str, Field(max_length=256)]


def _login(request: Request, user: UserInfo) -> None:
    request.session.clear()
    request.session[SESSION_USER_KEY] = user.id


@router.post("/auth/register", status_code=201, response_model=UserInfo)
def register(body: RegisterBody, request: Request, s: DbSession) -> UserInfo:
    """Create an account and log in. 409 ``username_taken``; 422 ``malformed`` for a bad name/password."""
    try:
        user = users.create_user(s, body.username, body.password)
    except users.UsernameTaken:
        raise ApiError(409, "username_taken", "this username is taken") from None
    info = UserInfo(id=user.id, username=user.username, is_admin=user.is_admin)
    _login(request, info)
    return info


@router.post("/auth/login", response_model=UserInfo)
def login(body: LoginBody, request: Request, s: DbSession) -> UserInfo:
    """Log in (sets the session cookie). 401 ``bad_credentials``."""
    user = users.find_user(s, body.username)
    if user is None:
        users.check_password_hash(_DUMMY_HASH, body.password)  # same cost as a real check
        raise ApiError(401, "bad_credentials", "wrong username or password")
    if not users.check_password(user, body.password):
        raise ApiError(401, "bad_credentials", "wrong username or password")
    info = UserInfo(id=user.id, username=user.username, is_admin=user.is_admin)
    _login(request, info)
    return info


@router.post("/auth/logout", status_code=204)
def logout(request: Request) -> Response:
    """Clear the session (always succeeds)."""
    request.session.clear()
    return Response(status_code=204)


@router.get("/me", response_model=UserInfo)
def me(user: CurrentUser) -> UserInfo:
    """The logged-in user; 401 ``not_authenticated``."""
    return user
