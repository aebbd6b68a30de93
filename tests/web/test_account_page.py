"""The account page over ASGI (no browser): members only, the password form, «Выйти на всех устройствах», and
the header's link to it."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from httpx import AsyncClient


@pytest.mark.parametrize("method", ["GET", "HEAD"])
async def test_visitors_are_sent_to_login_with_next(
    client_factory: Callable[[], AsyncClient], method: str
) -> None:
    r = await client_factory().request(method, "/account")
    assert r.status_code == 303
    assert r.headers["location"] == "/login?next=/account"


async def test_a_session_ended_by_logout_all_is_sent_to_login(alice: AsyncClient) -> None:
    assert (await alice.get("/account")).status_code == 200
    assert (await alice.post("/api/auth/logout-all", json={})).status_code == 204
    r = await alice.get("/account")
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/account"


async def test_members_get_the_page_with_the_form(alice: AsyncClient) -> None:
    r = await alice.get("/account")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    html = r.text
    assert '<strong id="account-username">alice</strong>' in html
    assert 'id="password-form"' in html
    for name in ("old_password", "new_password", "new_password2"):
        assert f'name="{name}"' in html, name
    assert "Сменить пароль" in html
    assert 'id="logout-all"' in html and "Выйти на всех устройствах" in html
    assert '<script type="module" src="/static/js/account.js"></script>' in html
    head = await alice.head("/account")
    assert head.status_code == 200 and head.content == b""


async def test_the_page_keeps_to_the_csp(alice: AsyncClient) -> None:
    """No inline scripts, style attributes or inline handlers (``script-src 'self'; style-src 'self'``)."""
    html = (await alice.get("/account")).text
    assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html) is None
    assert re.search(r"\sstyle\s*=", html, re.IGNORECASE) is None
    assert re.search(r"\son[a-z]+\s*=", html, re.IGNORECASE) is None
    assert re.search(r"<style\b", html, re.IGNORECASE) is None


async def test_the_header_links_members_to_their_account(
    alice: AsyncClient, client_factory: Callable[[], AsyncClient]
) -> None:
    lobby = (await alice.get("/")).text
    assert re.search(r'<a href="/account"[^>]*id="current-user"[^>]*>alice</a>', lobby)
    welcome = (await client_factory().get("/")).text
    assert 'href="/account"' not in welcome


async def test_the_script_is_served(client_factory: Callable[[], AsyncClient]) -> None:
    r = await client_factory().get("/static/js/account.js")
    assert r.status_code == 200
    assert "javascript" in r.headers["content-type"]
    assert "/api/auth/password" in r.text and "/api/auth/logout-all" in r.text
    assert "innerHTML" not in r.text
