"""The one-click unsubscribe link of every mail (issue 28 §3; RFC 8058): ``PUBLIC_URL/unsubscribe/{token}``.

The token is ``<member id>.<HMAC>``: SHA-256 under ``SECRET_KEY`` over ``unsubscribe:<id>``, truncated to
128 bits, URL-safe base64. It needs no login and no database row: it can only ever turn that member's
notice mails off (store/notices.py ``unsubscribe``), so it does not expire; a forged or altered one is
refused. The mail carries it in its text and in ``List-Unsubscribe`` with ``List-Unsubscribe-Post:
List-Unsubscribe=One-Click``, so a mail client's «Unsubscribe» POSTs to it directly.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

_SHAPE = re.compile(r"([1-9][0-9]{0,17})\.([A-Za-z0-9_-]{22})")
POST_HEADER = "List-Unsubscribe=One-Click"
"""The value of ``List-Unsubscribe-Post`` and the body a one-click POST carries (RFC 8058 §3.1)."""


def _mac(secret: str, user_id: int) -> str:
    digest = hmac.new(secret.encode(), f"unsubscribe:{user_id}".encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def make(secret: str, user_id: int) -> str:
    """The member's unsubscribe token (always the same for one member and secret)."""
    return f"{user_id}.{_mac(secret, user_id)}"


def link(secret: str, public_url: str, user_id: int) -> str:
    return f"{public_url}/unsubscribe/{make(secret, user_id)}"


def member(secret: str, token: str) -> int | None:
    """The member id a token was signed for, or None if it is malformed or not signed with ``secret``
    (constant-time comparison)."""
    found = _SHAPE.fullmatch(token)
    if found is None:
        return None
    user_id = int(found.group(1))
    return user_id if hmac.compare_digest(found.group(2), _mac(secret, user_id)) else None
