"""``?next=`` after login in a real browser: whatever the query says, the browser ends up on this site.

Browsers drop tabs and newlines from URLs, so to them ``/<tab>/evil.example/phish`` is
``//evil.example/phish``.
Both guards are checked: the server's (``web.urls.safe_next``, the page's ``data-next``) and the page's own
(``safeNext`` in static/js/api.js), the latter also with the server's guard taken away by rewriting the page.
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

import httpx
import pytest
from accounts import log_in

pytestmark = pytest.mark.browser

PASSWORD = "e2e-Next-Password-7"
EVIL_NEXTS = [
    "/\t/evil.example/phish",
    "/\n/evil.example/phish",
    "/\r/evil.example/phish",
    "/\r\n/evil.example/phish",
    "//evil.example/phish",
    "/\\evil.example/phish",
    "/\\/evil.example/phish",
    "/\u200b/evil.example/phish",
    "/\x00/evil.example/phish",
    "https://evil.example/phish",
    "javascript:alert(1)",
    " /evil",
]


def _account(base: str) -> str:
    username = f"nx{secrets.token_hex(4)}"
    r = httpx.post(f"{base}/api/auth/register", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return username


def _context(browser: Any) -> tuple[Any, list[str]]:
    """A fresh context whose requests to any foreign host are recorded and aborted."""
    context = browser.new_context(locale="ru-RU")
    context.set_default_timeout(15_000)
    foreign: list[str] = []

    def block(route: Any) -> None:
        foreign.append(route.request.url)
        route.abort()

    context.route(re.compile(r"^(?!http://127\.0\.0\.1:\d+/).*"), block)
    return context, foreign


@pytest.mark.parametrize("target", [*EVIL_NEXTS[:4], "//evil.example/phish"])
def test_login_with_a_hostile_next_stays_on_the_site(live_server: str, browser: Any, target: str) -> None:
    username = _account(live_server)
    context, foreign = _context(browser)
    try:
        url = log_in(context.new_page(), live_server, username, PASSWORD, next_path=target)
        assert url == f"{live_server}/", url
        assert foreign == []
    finally:
        context.close()


def test_the_page_guards_next_even_if_the_server_did_not(live_server: str, browser: Any) -> None:
    """The login page is rewritten to carry the hostile ``data-next`` a careless server would echo."""
    username = _account(live_server)
    context, foreign = _context(browser)
    hostile = "/\t/evil.example/phish"

    def echo_next(route: Any) -> None:
        response = route.fetch()
        html = response.text().replace('data-next="/"', 'data-next="/&#9;/evil.example/phish"')
        route.fulfill(response=response, body=html)

    try:
        page = context.new_page()
        page.route(re.compile(r"/login(\?|$)"), echo_next)
        url = log_in(page, live_server, username, PASSWORD, next_path=hostile)
        assert url == f"{live_server}/", url
        assert foreign == []
    finally:
        context.close()


def test_a_local_next_is_followed(live_server: str, browser: Any) -> None:
    username = _account(live_server)
    context, foreign = _context(browser)
    try:
        url = log_in(context.new_page(), live_server, username, PASSWORD, next_path="/register?x=1#top")
        # a member visiting /register is sent on to "/": the page did go to the local target first
        assert url.startswith(f"{live_server}/"), url
        assert foreign == []
    finally:
        context.close()


def test_safe_next_in_the_browser(live_server: str, browser: Any) -> None:
    context, _foreign = _context(browser)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/login")
        results = page.evaluate(
            """async (cases) => {
                const { safeNext } = await import('/static/js/api.js');
                return cases.map((c) => safeNext(c));
            }""",
            [*EVIL_NEXTS, "/", "/invite/t1", "/matches/a?since=2#log", "/a/../b"],
        )
        expected = ["/"] * len(EVIL_NEXTS) + ["/", "/invite/t1", "/matches/a?since=2#log", "/b"]
        assert results == expected, json.dumps(results, ensure_ascii=False)
    finally:
        context.close()
