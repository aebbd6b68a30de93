"""The HTML page routes over ASGI (no browser): HEAD, unknown matches, ``?next=`` and the security headers."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from httpx import AsyncClient

PAGES = ["/", "/login", "/register"]


@pytest.mark.parametrize("path", PAGES)
async def test_pages_answer_head_for_visitors(client_factory: Callable[[], AsyncClient], path: str) -> None:
    r = await client_factory().head(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert r.content == b""


async def test_pages_answer_head_for_members(alice: AsyncClient) -> None:
    for path in ("/", "/admin"):
        get, head = await alice.get(path), await alice.head(path)
        assert head.status_code == get.status_code
        assert head.content == b""


async def _open_invite(client: AsyncClient) -> str:
    r = await client.post("/api/matches", json={"game": "duel", "vs": "invite", "options": {}})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


async def test_an_unknown_match_is_a_404_page_with_a_way_back(alice: AsyncClient) -> None:
    r = await alice.get("/matches/no-such-match")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "Партия не найдена" in r.text and 'href="/"' in r.text
    assert "/static/js/match.js" not in r.text and "подключение" not in r.text
    assert (await alice.head("/matches/no-such-match")).status_code == 404


async def test_a_known_match_page_renders(alice: AsyncClient) -> None:
    match_id = await _open_invite(alice)
    r = await alice.get(f"/matches/{match_id}")
    assert r.status_code == 200 and f'data-match-id="{match_id}"' in r.text


async def test_visitors_go_to_login_whether_or_not_the_match_exists(
    client_factory: Callable[[], AsyncClient],
) -> None:
    r = await client_factory().get("/matches/no-such-match")
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/matches/no-such-match"
