"""The HTML page routes over ASGI (no browser): HEAD, unknown matches, ``?next=`` and the security headers."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

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


async def test_the_verify_page_of_an_unknown_match_is_the_same_404_page(alice: AsyncClient) -> None:
    match_page = await alice.get("/matches/no-such-match")
    r = await alice.get("/matches/no-such-match/verify")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "Партия не найдена" in r.text and 'href="/"' in r.text
    assert "/static/js/verify.js" not in r.text and "Проверяем" not in r.text
    assert r.text == match_page.text
    assert (await alice.head("/matches/no-such-match/verify")).status_code == 404


async def test_a_known_match_verify_page_renders(alice: AsyncClient) -> None:
    match_id = await _open_invite(alice)
    r = await alice.get(f"/matches/{match_id}/verify")
    assert r.status_code == 200 and "/static/js/verify.js" in r.text


async def test_a_known_match_page_renders(alice: AsyncClient) -> None:
    match_id = await _open_invite(alice)
    r = await alice.get(f"/matches/{match_id}")
    assert r.status_code == 200 and f'data-match-id="{match_id}"' in r.text


async def test_visitors_go_to_login_whether_or_not_the_match_exists(
    client_factory: Callable[[], AsyncClient],
) -> None:
    r = await client_factory().get("/matches/no-such-match")
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/matches/no-such-match"


EVIL_NEXTS = [
    "//evil.example/x",
    "/\t/evil.example/phish",
    "/\n/evil.example/phish",
    "/\r/evil.example/phish",
    "/\r\n/evil.example/phish",
    "\t//evil.example",
    "/ /evil.example",
    "/\x00/evil.example",
    "/\x0b/evil.example",
    "/\x0c/evil.example",
    "/\x7f/evil.example",
    "/\u00a0/evil.example",
    "/\u2028/evil.example",
    "/\u200b/evil.example",
    "/\ufeff/evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "http:/evil.example",
    "javascript:alert(1)",
    "evil.example",
    "",
    "/" + "a" * 3000,
]
GOOD_NEXTS = ["/", "/invite/t1", "/matches/abc?since=3#log", "/matches/Партия", "/a/b%2F%2Fc"]


@pytest.mark.parametrize("target", EVIL_NEXTS)
async def test_login_page_drops_a_next_that_could_leave_the_site(
    client_factory: Callable[[], AsyncClient], target: str
) -> None:
    r = await client_factory().get("/login", params={"next": target})
    assert r.status_code == 200
    assert 'data-next="/"' in r.text
    assert "evil" not in r.text


@pytest.mark.parametrize("target", EVIL_NEXTS)
async def test_a_member_is_never_redirected_off_site(alice: AsyncClient, target: str) -> None:
    for page in ("/login", "/register"):
        r = await alice.get(page, params={"next": target})
        assert r.status_code == 303 and r.headers["location"] == "/"


@pytest.mark.parametrize("target", GOOD_NEXTS)
async def test_local_paths_are_kept_as_next(alice: AsyncClient, target: str) -> None:
    r = await alice.get("/login", params={"next": target})
    assert r.status_code == 303
    assert unquote(r.headers["location"]) == unquote(target)
