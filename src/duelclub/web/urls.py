"""Where the site may send a browser back to: :func:`safe_next` guards every ``next`` target (the login and
register pages, the language switcher) against open redirects."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

MAX_NEXT_LENGTH = 2000


def safe_next(raw: str | None) -> str:
    """``raw`` if it is a path on this site, else ``"/"`` (no open redirects).

    Accepted: one leading ``/`` not followed by another, no scheme or host when parsed, and no backslash,
    whitespace or control/format character anywhere — browsers drop tabs and newlines from URLs, so
    ``/<tab>/evil.example`` would become ``//evil.example``, and they treat a backslash like ``/``; at most
    :data:`MAX_NEXT_LENGTH` characters.

    >>> safe_next("/matches/abc?x=1"), safe_next("//evil.example"), safe_next("https://evil.example/")
    ('/matches/abc?x=1', '/', '/')
    """
    if not raw or len(raw) > MAX_NEXT_LENGTH or not raw.startswith("/") or raw.startswith("//"):
        return "/"
    if any(c == "\\" or c.isspace() or unicodedata.category(c).startswith(("C", "Z")) for c in raw):
        return "/"
    try:
        parts = urlsplit(raw)
    except ValueError:
        return "/"
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return "/"
    return raw
