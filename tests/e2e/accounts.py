"""Accounts for browser tests: a fresh member registered through the API inside a browser context."""

from __future__ import annotations

import secrets
from typing import Any

PASSWORD = "e2e-Password-42"


def sign_up(context: Any, base: str, prefix: str = "e2e") -> str:
    """Register a fresh member with ``context``'s cookies; the session works at once (no waiting: the
    register route commits before it answers). Returns the username."""
    name = f"{prefix}{secrets.token_hex(4)}"
    r = context.request.post(f"{base}/api/auth/register", data={"username": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    me = context.request.get(f"{base}/api/me")
    assert me.status == 200, "the session of a new member must be usable right away"
    return name
