"""Account checks in the reader's words: the codes ``store/users.py`` refuses a username or password with
(:data:`~duelclub.store.users.UsernameProblem`, :data:`~duelclub.store.users.PasswordProblem`) → messages
for people (Russian msgids, Ukrainian through the catalog). The store judges; this module speaks.

>>> from duelclub.store.users import BadPassword
>>> password_message(BadPassword("only_spaces"))
'Пароль не может состоять из одних пробелов.'
"""

from __future__ import annotations

from duelclub.i18n import N_
from duelclub.i18n import gettext as _
from duelclub.store.users import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    BadPassword,
    BadUsername,
    PasswordProblem,
    UsernameProblem,
)

USERNAME_PROBLEMS: dict[UsernameProblem, str] = {
    "format": N_(
        "Имя: от 3 до 20 символов — латинские или кириллические буквы, цифры, «_» или «-», без пробелов."
    ),
    "mixed_scripts": N_("Имя не может смешивать латинские и кириллические буквы — выберите одну азбуку."),
    "reserved": N_("Это имя зарезервировано — выберите другое."),
}

PASSWORD_PROBLEMS: dict[PasswordProblem, str] = {
    "length": N_("Пароль должен быть от %(min)s до %(max)s символов."),
    "control_chars": N_("Пароль не может содержать управляющие символы (табуляция, перевод строки, NUL…)."),
    "only_spaces": N_("Пароль не может состоять из одних пробелов."),
    "contains_username": N_("Пароль не должен содержать имя пользователя."),
}


def username_message(exc: BadUsername) -> str:
    """Why the username was refused, in the current language."""
    return _(USERNAME_PROBLEMS[exc.problem])


def password_message(exc: BadPassword) -> str:
    """Why the password was refused, in the current language (the length limits filled in)."""
    return _(PASSWORD_PROBLEMS[exc.problem], min=PASSWORD_MIN, max=PASSWORD_MAX)
