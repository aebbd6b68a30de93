"""Signed single-use link tokens (issue 28): ``<32 random bytes, URL-safe>.<HMAC>``.

The HMAC (SHA-256 under ``SECRET_KEY``, truncated to 128 bits, URL-safe base64) binds the random part to
its purpose, so a reset link cannot be used as a confirmation link and a forged or mistyped one is refused
before any query; single use and expiry are the database's (store/account_tokens.py keeps the token's
SHA-256 and deletes the row when it is used).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}")


def _mac(secret: str, purpose: str, body: str) -> str:
    digest = hmac.new(secret.encode(), f"{purpose}:{body}".encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def make(secret: str, purpose: str) -> str:
    """A new token for ``purpose`` (66 URL-safe characters)."""
    body = secrets.token_urlsafe(32)
    return f"{body}.{_mac(secret, purpose, body)}"


def valid(secret: str, purpose: str, token: str) -> bool:
    """True if ``token`` has the shape of one and was signed for ``purpose`` with ``secret`` (constant time);
    whether it is still live is the database's to say."""
    if not _SHAPE.fullmatch(token):
        return False
    body, _dot, mac = token.partition(".")
    return hmac.compare_digest(mac, _mac(secret, purpose, body))
