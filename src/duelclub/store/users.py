"""User repository: small functions over a Session (DESIGN.md §Web — accounts, argon2 hashes)."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duelclub.store.models import User

_hasher = PasswordHasher()


class UsernameTaken(Exception):
    """The username (case-insensitively) already exists."""


def username_key(username: str) -> str:
    """The case-insensitive uniqueness key of a username."""
    return username.casefold()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password_hash(password_hash: str, password: str) -> bool:
    """True if ``password`` matches the argon2 ``password_hash``."""
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def check_password(user: User, password: str) -> bool:
    """True if ``password`` matches the user's argon2 hash."""
    return check_password_hash(user.password_hash, password)


def create_user(s: Session, username: str, password: str, *, is_admin: bool = False) -> User:
    """Insert a user and flush; raises UsernameTaken on a case-insensitive duplicate (the session must
    then be rolled back)."""
    user = User(
        username=username,
        username_key=username_key(username),
        password_hash=hash_password(password),
        is_admin=is_admin,
    )
    if find_user(s, username) is not None:
        raise UsernameTaken(username)
    s.add(user)
    try:
        s.flush()
    except IntegrityError:  # a concurrent registration won; the caller's session rolls back
        raise UsernameTaken(username) from None
    return user


def get_user(s: Session, user_id: int) -> User | None:
    return s.get(User, user_id)


def find_user(s: Session, username: str) -> User | None:
    """The user with this name (case-insensitive), or None."""
    return s.scalars(select(User).where(User.username_key == username_key(username))).first()


def set_password(s: Session, user: User, password: str) -> None:
    user.password_hash = hash_password(password)


def usernames(s: Session, ids: set[int]) -> dict[int, str]:
    """User id → username for the given ids."""
    if not ids:
        return {}
    return {u.id: u.username for u in s.scalars(select(User).where(User.id.in_(ids)))}
