"""An unknown address (issue 30, fresh-user QA): a browser gets the site's 404 page in its language, with the
member's header; the API and a script's fetch keep the ``{"code", "message"}`` JSON."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from httpx import AsyncClient

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.mark.parametrize("path", ["/nope", "/games/mezha/nope", "/static/nope.html"])
async def test_a_browser_gets_the_404_page(client_factory: Callable[[], AsyncClient], path: str) -> None:
    r = await client_factory().get(path, headers=BROWSER)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert "Страница не найдена" in r.text and 'id="not-found"' in r.text and 'href="/"' in r.text


async def test_the_404_page_speaks_the_reader_s_language_and_knows_the_member(alice: AsyncClient) -> None:
    r = await alice.get("/nope", headers={**BROWSER, "Accept-Language": "uk-UA,uk;q=0.9"})
    assert r.status_code == 404
    assert "Сторінку не знайдено" in r.text and 'id="current-user"' in r.text


async def test_head_of_an_unknown_page_is_a_404_without_a_body(
    client_factory: Callable[[], AsyncClient],
) -> None:
    r = await client_factory().head("/nope", headers=BROWSER)
    assert r.status_code == 404 and r.content == b""


@pytest.mark.parametrize(
    ("path", "accept"),
    [("/api/nope", BROWSER["Accept"]), ("/api/matches/none/nope", BROWSER["Accept"]), ("/nope", "*/*")],
)
async def test_the_api_and_scripts_keep_the_json(
    client_factory: Callable[[], AsyncClient], path: str, accept: str
) -> None:
    r = await client_factory().get(path, headers={"Accept": accept})
    assert r.status_code == 404
    assert r.json() == {"code": "not_found", "message": "Not Found"}


async def test_other_errors_keep_their_json(client_factory: Callable[[], AsyncClient]) -> None:
    r = await client_factory().get("/api/auth/login", headers=BROWSER)  # a POST-only route
    assert r.status_code == 405 and r.json()["code"] == "method_not_allowed"
