"""The admin and verify pages over HTTP: who may open them (DESIGN.md §Web — Admin, verify page)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from httpx import AsyncClient

ADMIN_PAGES = ["/admin", "/admin/matches/m-1"]


@pytest.mark.parametrize("path", [*ADMIN_PAGES, "/matches/m-1/verify"])
async def test_visitors_are_sent_to_login(client_factory: Callable[[], AsyncClient], path: str) -> None:
    r = await client_factory().get(path)
    assert r.status_code == 303 and r.headers["location"] == f"/login?next={path}"


@pytest.mark.parametrize("path", ADMIN_PAGES)
async def test_admin_pages_are_forbidden_to_members(alice: AsyncClient, path: str) -> None:
    r = await alice.get(path)
    assert r.status_code == 403
    assert "Нет доступа" in r.text and "/static/js/admin" not in r.text


async def test_only_admins_see_the_admin_link(alice: AsyncClient, admin: AsyncClient) -> None:
    assert 'id="admin-link"' not in (await alice.get("/")).text
    assert 'id="admin-link"' in (await admin.get("/")).text


async def test_admins_get_the_admin_pages(admin: AsyncClient) -> None:
    listing = await admin.get("/admin")
    assert listing.status_code == 200 and "/static/js/admin.js" in listing.text
    assert 'id="filters"' in listing.text
    one = await admin.get("/admin/matches/m-1")
    assert one.status_code == 200 and 'data-match-id="m-1"' in one.text
    assert "/static/js/admin_match.js" in one.text and 'href="/matches/m-1/verify"' in one.text


async def test_verify_page_for_members_and_the_link_from_the_match_page(alice: AsyncClient) -> None:
    r = await alice.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    mid = r.json()["id"]
    page = await alice.get(f"/matches/{mid}/verify")
    assert page.status_code == 200
    assert f'data-match-id="{mid}"' in page.text and "/static/js/verify.js" in page.text
    assert "duelclub verify log.json" in page.text
    match = await alice.get(f"/matches/{mid}")
    assert 'id="verify-link"' in match.text and f'href="/matches/{mid}/verify"' in match.text


async def test_match_ids_are_escaped_in_admin_pages(admin: AsyncClient) -> None:
    evil = '"><img src=x onerror=alert(1)>'
    for path, status in ((f"/admin/matches/{evil}", 200), (f"/matches/{evil}/verify", 404)):
        r = await admin.get(path)
        assert r.status_code == status and evil not in r.text and "<img" not in r.text
