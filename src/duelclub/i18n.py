"""UI language: Russian (the source language) and Ukrainian (DESIGN.md §Web — Babel catalogs).

Every user-facing string is written in Russian and is its own msgid; ``locale/uk/LC_MESSAGES/messages.po``
holds the Ukrainian. The .po is compiled in memory at first use (``babel.messages``), so there is no build
step and no .mo to keep in sync. One catalog covers templates, Python and the ES modules in ``static/js``
(``make messages`` extracts and updates it; ``babel.cfg`` says how).

The language of the current request lives in a context variable that the ASGI middleware
(``web/middleware.py``: ``LanguageMiddleware``) sets from the ``lang`` cookie or ``Accept-Language``;
worker threads and tasks started inside a request inherit it, everything else reads Russian.

Plurals: Russian and Ukrainian both have three forms (1 карта, 2 карты, 5 карт), but a gettext msgid has only
two, so :func:`ngettext` takes all three Russian forms; the catalog entry is keyed by the first two
(``msgid``/``msgid_plural``) and carries the three Ukrainian forms. Which form a number takes is Babel's
(CLDR) rule, :func:`plural_index`; the browser uses ``Intl.PluralRules`` (static/js/i18n.js), the same data.
``Accept-Language`` is matched with Babel too (:func:`negotiate`).
"""

from __future__ import annotations

import contextvars
import io
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale, negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGS = ("ru", "uk")
DEFAULT_LANG = "ru"
COOKIE = "lang"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
JS_SOURCE_PREFIX = "src/duelclub/static/js/"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("duelclub_lang", default=DEFAULT_LANG)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (class-level texts translated where shown)."""
    return message


def normalize(lang: str | None) -> str | None:
    """``"uk"``/``"ru"`` for a supported language tag (``uk-UA`` → ``uk``), else None."""
    if not lang:
        return None
    base = lang.strip().lower().replace("_", "-").split("-")[0]
    return base if base in LANGS else None


def negotiate(cookie: str | None, accept_language: str | None) -> str:
    """The page language: the ``lang`` cookie if it names a supported language; otherwise the first
    supported language of ``Accept-Language`` (RFC 9110 §12.5.4: by q-value, then by order; ``q=0`` means
    "not this one"; ``uk-UA`` counts as ``uk``), matched by Babel (``babel.negotiate_locale``); otherwise
    Russian."""
    chosen = normalize(cookie)
    if chosen:
        return chosen
    found = negotiate_locale(accept_language_tags(accept_language), LANGS, sep="-")
    return normalize(found) or DEFAULT_LANG


def accept_language_tags(header: str | None) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first (q-value descending, header
    order among equals), without those refused with ``q=0`` and without ``*``; a malformed q reads as 0.

    >>> accept_language_tags("en;q=0.5, uk-UA, ru;q=0.9, de;q=0")
    ['uk-UA', 'ru', 'en']
    """
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*":
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            weighted.append((-q, index, tag))
    return [tag for _, _, tag in sorted(weighted)]


def current_lang() -> str:
    return _current.get()


def set_lang(lang: str) -> contextvars.Token[str]:
    """Make ``lang`` the language of the current context (the middleware does this per request)."""
    return _current.set(lang if lang in LANGS else DEFAULT_LANG)


def reset_lang(token: contextvars.Token[str]) -> None:
    _current.reset(token)


@contextmanager
def use_lang(lang: str) -> Iterator[None]:
    token = set_lang(lang)
    try:
        yield
    finally:
        _current.reset(token)


@cache
def catalog(lang: str) -> Catalog | None:
    """The parsed .po of ``lang`` (None for Russian, the source language, or a missing file)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    if lang == DEFAULT_LANG or not path.exists():
        return None
    with path.open("rb") as fp:
        return read_po(fp, locale=lang)


@cache
def translations(lang: str) -> Translations | None:
    """``lang``'s catalog compiled to .mo in memory (fuzzy entries are left out, as msgfmt does)."""
    cat = catalog(lang)
    if cat is None:
        return None
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return Translations(buf, domain="messages")


PLURAL_INDEX = {"one": 0, "few": 1, "many": 2, "other": 2}
"""CLDR plural category → the index of the form among the three Russian (and Ukrainian) ones."""


@lru_cache(maxsize=4096)
def plural_index(n: int, lang: str = DEFAULT_LANG) -> int:
    """The plural form of ``n`` in ``lang`` by Babel's CLDR rules (``Locale.plural_form``): 0 one (1, 21),
    1 few (2–4, 22), 2 many (0, 5–20, 11–14). Remembered per ``(n, lang)``: Babel looks its locale data up
    under a lock and evaluates the rule on every call, and the event words ask for it per event per seat
    (issue 29 §1)."""
    return PLURAL_INDEX[_locale(lang).plural_form(abs(n))]


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def gettext(message: str, **params: Any) -> str:
    """``message`` in the current language, ``%(name)s`` placeholders filled from ``params``."""
    t = translations(current_lang())
    out = t.gettext(message) if t is not None else message
    return out % params if params else out


def ngettext(one: str, few: str, many: str, n: int, **params: Any) -> str:
    """The form of ``n`` in the current language; ``%(n)s`` and ``params`` are filled in."""
    t = translations(current_lang())
    out = t.ngettext(one, few, abs(n)) if t is not None else (one, few, many)[plural_index(n)]
    return out % {"n": n, **params}


_ = gettext


def jinja_gettext(message: str) -> str:
    """Jinja's ``_()``/``gettext``; Jinja's newstyle wrapper fills ``%(name)s`` (escaped) afterwards."""
    return gettext(message)


def jinja_ngettext(singular: str, plural: str, n: int) -> str:
    """Jinja's ``ngettext`` — two Russian forms only (1 / 2–4); prefer :func:`ngettext` with three."""
    t = translations(current_lang())
    return (
        t.ngettext(singular, plural, abs(n))
        if t is not None
        else (singular if plural_index(n) == 0 else plural)
    )


@cache
def js_messages(lang: str) -> dict[str, str | list[str]]:
    """The translations the ES modules need (entries extracted from ``static/js``): msgid → text, or the
    singular msgid → [forms] for a plural. Empty for Russian."""
    cat = catalog(lang)
    if cat is None:
        return {}
    out: dict[str, str | list[str]] = {}
    for m in cat:
        if not m.id or m.fuzzy or not any(loc.startswith(JS_SOURCE_PREFIX) for loc, _ in m.locations):
            continue
        if isinstance(m.id, tuple):
            forms = [str(f) for f in m.string] if isinstance(m.string, tuple) else [str(m.string)]
            if all(forms):
                out[str(m.id[0])] = forms
        elif isinstance(m.string, str) and m.string:
            out[str(m.id)] = m.string
    return out
