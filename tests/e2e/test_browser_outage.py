"""While the server's database is down (issue 31 §2) the page says «Нет связи с сервером, пробуем снова…» and
retries by itself: the server's answers are simulated by Playwright's routing — a socket closed with 1013, an
HTTP 503 ``store_unavailable``, a page answered with the 503 page of web/outage.py — on the real server of
tests/e2e/conftest.py, whose database stays up. The banner goes when the server answers again."""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

import pytest
from accounts import sign_up

from duelclub.i18n import use_lang
from duelclub.web.outage import MESSAGE, STORE_UNAVAILABLE, unavailable_page

pytestmark = pytest.mark.browser
BANNER = "#server-unavailable"
UNAVAILABLE = {"code": STORE_UNAVAILABLE, "message": MESSAGE}


def member_context(browser: Any, base: str, locale: str = "ru-RU") -> Any:
    context = browser.new_context(locale=locale)
    context.set_default_timeout(15_000)
    sign_up(context, base, "out")
    return context


def test_the_lobby_shows_the_banner_during_an_outage_retries_with_backoff_and_recovers(
    live_server: str, browser: Any, console_allow: list[str]
) -> None:
    console_allow.append("503")  # the browser logs the failed fetches on its own
    context = member_context(browser, live_server)
    try:
        page = context.new_page()
        down = {"on": True}
        tries: list[float] = []

        def api(route: Any) -> None:
            if down["on"]:
                route.fulfill(status=503, content_type="application/json", body=json.dumps(UNAVAILABLE))
            else:
                route.fallback()

        def socket(ws: Any) -> None:
            if ws.url.endswith("/ws/lobby"):
                tries.append(time.monotonic())
            if down["on"]:
                ws.close(code=1013, reason="try again later")
            else:
                ws.connect_to_server()

        # The whole outage: every API answer a 503, every socket closed with 1013.
        page.route("**/api/**", api)
        page.route_web_socket("**/ws/**", socket)
        page.goto(f"{live_server}/")
        page.wait_for_selector(f"{BANNER}:visible")
        assert page.inner_text(BANNER) == "Нет связи с сервером, пробуем снова…"
        page.wait_for_timeout(4000)
        # Backed off: 250-500 ms, then 0.5-1 s, 1-2 s, … — a handful of tries in 4 s, not one every 0.25 s.
        assert 2 <= len(tries) <= 6, tries
        gaps = [b - a for a, b in itertools.pairwise(tries)]
        assert max(gaps) >= 0.5, gaps  # the second wait alone is at least 0.5 s
        assert page.is_visible(BANNER)
        down["on"] = False
        page.wait_for_selector(BANNER, state="hidden", timeout=20_000)  # the next retry got through
        page.wait_for_selector('#challenges-panel[data-live="1"]')
    finally:
        context.close()


def test_an_http_503_shows_the_banner_in_ukrainian(
    live_server: str, browser: Any, console_allow: list[str]
) -> None:
    console_allow.append("503")  # the browser logs the failed fetch on its own
    context = member_context(browser, live_server, locale="uk-UA")
    try:
        page = context.new_page()
        page.route(
            "**/api/**",
            lambda route: route.fulfill(
                status=503,
                content_type="application/json",
                headers={"Retry-After": "5"},
                body=json.dumps(UNAVAILABLE),
            ),
        )
        # The sockets fail otherwise (1011: not the outage's 1013), so only the HTTP answers say «503».
        page.route_web_socket("**/ws/**", lambda ws: ws.close(code=1011, reason="internal error"))
        page.goto(f"{live_server}/")
        page.wait_for_selector(f"{BANNER}:visible")
        assert page.inner_text(BANNER) == "Немає зв'язку з сервером, пробуємо знову…"
    finally:
        context.close()


def test_the_503_page_reloads_itself_once_the_server_answers(
    live_server: str, browser: Any, console_allow: list[str]
) -> None:
    console_allow.append("503")
    context = member_context(browser, live_server)
    try:
        page = context.new_page()
        with use_lang("ru"):
            outage_page = unavailable_page()
        answered = {"get": 0, "head": 0}

        def lobby(route: Any) -> None:
            method = route.request.method
            if method == "GET" and answered["get"] == 0:
                answered["get"] += 1
                route.fulfill(status=503, content_type="text/html; charset=utf-8", body=outage_page)
            elif method == "HEAD" and answered["head"] < 1:  # the first probe: still down
                answered["head"] += 1
                route.fulfill(status=503, body="")
            else:
                route.continue_()

        page.route(f"{live_server}/", lobby)
        page.goto(f"{live_server}/")
        assert page.inner_text(BANNER) == "Нет связи с сервером, пробуем снова…"
        page.wait_for_selector("#challenges-panel", timeout=20_000)  # reloaded: the lobby itself
        assert answered == {"get": 1, "head": 1}
    finally:
        context.close()
