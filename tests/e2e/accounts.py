"""Accounts for browser tests: a fresh member registered through the API inside a browser context."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import quote

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


def log_in(
    page: Any, base: str, username: str, password: str = PASSWORD, next_path: str | None = None
) -> str:
    """Log in through the login form (with ``?next=`` when given) and return the URL the page lands on."""
    suffix = f"?next={quote(next_path, safe='')}" if next_path is not None else ""
    page.goto(f"{base}/login{suffix}")
    page.fill("#username", username)
    page.fill("#password", password)
    page.click("#auth-form button[type=submit]")
    page.wait_for_url(lambda url: "/login" not in url, wait_until="commit")
    page.wait_for_load_state()
    return str(page.url)
