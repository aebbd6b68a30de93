"""The HTML pages over HTTP (no browser): who sees what, and where anonymous visitors are sent."""

from __future__ import annotations

import secrets

import httpx
import pytest


@pytest.fixture
def member(live_server: str) -> httpx.Client:
    """A client logged in as a fresh member."""
    client = httpx.Client(base_url=live_server)
    name = f"pg{secrets.token_hex(4)}"
    r = client.post("/api/auth/register", json={"username": name, "password": "pages-Password-1"})
    assert r.status_code == 201, r.text
    assert client.get("/api/me").status_code == 200  # the register route commits before it answers
    return client


def test_anonymous_home_is_the_welcome_page(live_server: str) -> None:
    r = httpx.get(f"{live_server}/")
    assert r.status_code == 200
    assert 'href="/register"' in r.text and 'href="/login"' in r.text
    assert "mezha-form" not in r.text


@pytest.mark.parametrize("path", ["/matches/abc", "/invite/some-token"])
def test_protected_pages_send_anonymous_visitors_to_login_with_next(live_server: str, path: str) -> None:
    r = httpx.get(f"{live_server}{path}")
    assert r.status_code == 303
    assert r.headers["location"] == f"/login?next={path}"


def test_login_page_keeps_a_local_next_and_drops_a_foreign_one(live_server: str) -> None:
    ok = httpx.get(f"{live_server}/login", params={"next": "/invite/t1"})
    assert 'data-next="/invite/t1"' in ok.text
    assert 'href="/register?next=/invite/t1"' in ok.text
    evil = httpx.get(f"{live_server}/login", params={"next": "//evil.example/x"})
    assert 'data-next="/"' in evil.text


def test_member_sees_the_lobby_and_is_sent_on_from_login(member: httpx.Client) -> None:
    lobby = member.get("/")
    assert lobby.status_code == 200
    assert "mezha-form" in lobby.text and 'id="logout"' in lobby.text
    r = member.get("/login", params={"next": "/matches/x"})
    assert r.status_code == 303
    assert r.headers["location"] == "/matches/x"


def test_match_and_invite_pages_render_for_members(member: httpx.Client) -> None:
    created = member.post("/api/matches", json={"game": "mezha", "vs": "invite", "options": {}})
    assert created.status_code == 201, created.text
    mid = created.json()["id"]
    m = member.get(f"/matches/{mid}")
    assert m.status_code == 200
    assert f'data-match-id="{mid}"' in m.text and "/static/js/match.js" in m.text
    unknown = member.get("/matches/m-42")
    assert unknown.status_code == 404 and "Партия не найдена" in unknown.text
    i = member.get("/invite/tok-1")
    assert i.status_code == 200
    assert 'data-token="tok-1"' in i.text


def test_user_text_is_escaped_in_pages(member: httpx.Client) -> None:
    r = member.get("/matches/<script>x</script>")
    assert "<script>x</script>" not in r.text


def test_static_modules_are_served(live_server: str) -> None:
    for path in ("/static/js/api.js", "/static/js/live.js", "/static/js/mezha.js", "/static/css/app.css"):
        assert httpx.get(f"{live_server}{path}").status_code == 200, path
