"""User repository: small functions over a Session (DESIGN.md §Web — accounts, argon2 hashes), and the one
place where usernames and passwords are judged (the API and ``duelclub create-admin`` both come here).

Usernames: 3–20 Latin or Cyrillic letters, digits, ``_`` and ``-``, not mixing Latin and Cyrillic letters;
unique case-insensitively (``username_key``) and up to Cyrillic look-alikes (``username_skeleton``); not one
of the reserved names (:data:`RESERVED_USERNAMES`: staff titles and the bots' names, look-alikes included;
only ``duelclub create-admin`` may use them). Passwords: 8–128 characters, not only whitespace, no control
characters. Hashes: argon2id (:func:`make_hasher`; the web app computes them off the database connection,
web/passwords.py).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duelclub.store.models import User


def make_hasher(*, time_cost: int = 2, memory_kib: int = 19 * 1024, parallelism: int = 1) -> PasswordHasher:
    """An argon2id hasher; the defaults are OWASP's first profile (m = 19 MiB, t = 2, p = 1)."""
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)


_hasher = make_hasher()

RESERVED_USERNAMES = frozenset(
    {
        "admin", "administrator", "admins", "root", "system", "sysadmin", "sysop", "superuser",
        "support", "help", "helpdesk", "moderator", "moderators", "mod", "staff", "owner", "security",
        "official", "server", "duelclub", "club", "clock", "guest", "anonymous", "nobody", "null",
        "undefined", "spectator", "bot", "bots", "robot", "random", "easy", "hard",
        "админ", "администратор", "модератор", "поддержка", "система", "бот", "боты", "робот", "сервер",
        "клуб", "часы", "гость", "зритель", "лёгкий", "легкий", "сильный",
    }
)  # fmt: skip
"""Names nobody may register (compared by look-alike skeleton): staff titles, system words, the bots' names
(«Бот», the levels) — a member called ``admin`` or ``бот`` could pass for the club or a bot."""
_RESERVED_SKELETONS = frozenset(
    s.translate(str.maketrans("аеорсухкмтнвіјѕ", "aeopcyxkmthbijs")).casefold() for s in RESERVED_USERNAMES
)
_BOTLIKE = re.compile(r"(bot|бot|6ot)[_\-].*|.*[_\-](bot|бot)")
_DELETED = re.compile(r"deleted-\d+(-\d+)?")
"""The anonymous names of deleted accounts (:func:`anonymize`), which nobody may register."""


USERNAME_RE = re.compile(r"[A-Za-z0-9_\-\u0400-\u04FF]{3,20}")
_LATIN = re.compile(r"[A-Za-z]")
_CYRILLIC = re.compile(r"[\u0400-\u04FF]")
PASSWORD_MIN, PASSWORD_MAX = 8, 128
# Cyrillic letters that look like Latin ones (migrations/versions/0002 has a frozen copy for existing rows).
_CONFUSABLES = str.maketrans(
    "аеорсухкмтнвіјѕАЕОРСУХКМТНВІЈЅ",
    "aeopcyxkmthbijsAEOPCYXKMTHBIJS",
)


class UsernameTaken(Exception):
    """The username (case-insensitively, or up to Cyrillic look-alikes) already exists."""


UsernameProblem = Literal["format", "mixed_scripts", "reserved"]
"""Why a username is refused: not 3–20 letters/digits/«_»/«-» (``format``), Latin and Cyrillic letters
mixed (``mixed_scripts``), a reserved name (``reserved``)."""

PasswordProblem = Literal["length", "control_chars", "only_spaces", "contains_username"]
"""Why a password is refused: not :data:`PASSWORD_MIN`–:data:`PASSWORD_MAX` characters (``length``), a
control character (``control_chars``), nothing but spaces (``only_spaces``), the username inside it
(``contains_username``)."""


class BadUsername(ValueError):
    """The username breaks the rules; ``problem`` says which (a code: the web layer words it,
    web/account_words.py); ``str(exc)`` is the code too."""

    def __init__(self, problem: UsernameProblem) -> None:
        super().__init__(problem)
        self.problem: UsernameProblem = problem


class BadPassword(ValueError):
    """The password breaks the rules; ``problem`` says which (a code: the web layer words it,
    web/account_words.py); ``str(exc)`` is the code too."""

    def __init__(self, problem: PasswordProblem) -> None:
        super().__init__(problem)
        self.problem: PasswordProblem = problem


def username_key(username: str) -> str:
    """The case-insensitive uniqueness key of a username."""
    return username.casefold()


def username_skeleton(username: str) -> str:
    """The look-alike uniqueness key: Cyrillic letters that look Latin (а е о р с у х к м т н в і ј ѕ, either
    case) become those Latin letters, then casefold. ``username_skeleton("аdmin") == "admin"``."""
    return username.translate(_CONFUSABLES).casefold()


def is_reserved(username: str) -> bool:
    """Whether ``username`` is reserved: :data:`RESERVED_USERNAMES`, ``bot-…``/``…_bot``, or the anonymous
    name of a deleted account (``deleted-17``), look-alikes included."""
    skeleton = username_skeleton(username)
    return (
        skeleton in _RESERVED_SKELETONS
        or _BOTLIKE.fullmatch(skeleton) is not None
        or _DELETED.fullmatch(skeleton) is not None
    )


def check_username(username: str, *, allow_reserved: bool = False) -> str:
    """``username`` if it may be registered; raises BadUsername otherwise (a reserved name too, unless
    ``allow_reserved``: ``duelclub create-admin`` may name an admin ``admin``)."""
    if not USERNAME_RE.fullmatch(username):
        raise BadUsername("format")
    if _LATIN.search(username) and _CYRILLIC.search(username):
        raise BadUsername("mixed_scripts")
    if not allow_reserved and is_reserved(username):
        raise BadUsername("reserved")
    return username


def check_new_password(password: str, username: str | None = None) -> str:
    """``password`` if it may be set for ``username``; raises BadPassword otherwise: 8–128 characters, no
    control characters, not only spaces, and not containing the username (case-insensitively)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise BadPassword("length")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in password):
        raise BadPassword("control_chars")
    if not password.strip():
        raise BadPassword("only_spaces")
    if username and username.casefold() in password.casefold():
        raise BadPassword("contains_username")
    return password


def hash_password(password: str) -> str:
    """An argon2id hash with the default parameters (scripts and the CLI; the web app uses its settings')."""
    return _hasher.hash(password)


def verify_hash(hasher: PasswordHasher, password_hash: str, password: str) -> bool:
    """True if ``password`` matches the argon2 ``password_hash`` (whatever parameters it was made with)."""
    try:
        return hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def check_password_hash(password_hash: str, password: str) -> bool:
    """True if ``password`` matches the argon2 ``password_hash``."""
    return verify_hash(_hasher, password_hash, password)


def check_password(user: User, password: str) -> bool:
    """True if ``password`` matches the user's argon2 hash."""
    return check_password_hash(user.password_hash, password)


def create_user(
    s: Session,
    username: str,
    password: str,
    *,
    is_admin: bool = False,
    password_hash: str | None = None,
    allow_reserved: bool = False,
) -> User:
    """Insert a user and flush. Raises BadUsername/BadPassword (:func:`check_username`,
    :func:`check_new_password`), or UsernameTaken when the name or a look-alike of it exists (the session
    must then be rolled back). ``password_hash``: the hash of ``password`` computed beforehand (the web app
    hashes before it opens the session); hashed here when None."""
    check_username(username, allow_reserved=allow_reserved)
    check_new_password(password, username)
    key, skeleton = username_key(username), username_skeleton(username)
    taken = select(User.id).where(or_(User.username_key == key, User.username_skeleton == skeleton))
    if s.scalars(taken).first() is not None:
        raise UsernameTaken(username)
    user = User(
        username=username,
        username_key=key,
        username_skeleton=skeleton,
        password_hash=password_hash or hash_password(password),
        is_admin=is_admin,
    )
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


def set_password(s: Session, user: User, password: str, *, password_hash: str | None = None) -> None:
    """Set a new password (raises BadPassword, see :func:`check_new_password`); ``password_hash`` as in
    :func:`create_user`."""
    check_new_password(password, user.username)
    user.password_hash = password_hash or hash_password(password)


def usernames(s: Session, ids: set[int]) -> dict[int, str]:
    """User id → username for the given ids."""
    if not ids:
        return {}
    return {u.id: u.username for u in s.scalars(select(User).where(User.id.in_(ids)))}


def store_hash(s: Session, user_id: int, old_hash: str, new_hash: str) -> None:
    """Replace the user's password hash ``old_hash`` by ``new_hash`` (the same password re-hashed with the
    current parameters); nothing if the password changed in between."""
    user = s.get(User, user_id)
    if user is not None and user.password_hash == old_hash:
        user.password_hash = new_hash


def find_by_email(s: Session, email_key: str) -> User | None:
    """The member whose confirmed address has this key (``notify.addresses.address_key``), or None."""
    return s.scalars(select(User).where(User.email_key == email_key, User.deleted_at.is_(None))).first()


UNUSABLE_HASH = "!"
"""The password hash of a deleted account: no password verifies against it (argon2 refuses the format)."""


def anonymize(s: Session, user: User, now: datetime) -> str:
    """Delete ``user``'s account (issue 28 §6) and return its anonymous name: the row stays, so the member's
    matches, chat and ratings keep their audit trail under ``deleted-{id}`` (a reserved name; ``-2``… on the
    rare clash with an older member of that name), while everything that identified or served the member
    goes: the name, the password (no login works), the address, the language and notices, admin rights.
    Sessions, tokens and mails are the caller's to erase (store/sessions.py, store/account_tokens.py,
    store/outbox.py)."""
    name, n = f"deleted-{user.id}", 1
    while s.scalars(select(User.id).where(User.username_key == name, User.id != user.id)).first() is not None:
        n += 1
        name = f"deleted-{user.id}-{n}"
    user.username = user.username_key = user.username_skeleton = name
    user.password_hash = UNUSABLE_HASH
    user.is_admin = False
    user.email = user.email_key = user.lang = None
    user.email_notices = "off"
    user.push_notices = False
    user.deleted_at = now
    s.flush()
    return name
