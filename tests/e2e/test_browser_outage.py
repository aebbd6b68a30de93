"""While the server's database is down (issue 31 §2) the page says «Нет связи с сервером, пробуем снова…» and
retries by itself: the server's answers are simulated by Playwright's routing — a socket closed with 1013, an
HTTP 503 ``store_unavailable``, a page answered with the 503 page of web/outage.py — on the real server of
tests/e2e/conftest.py, whose database stays up. The banner goes when the server answers again."""

from __future__ import annotations

import json
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


def test_a_lobby_socket_closed_1013_shows_the_banner_until_a_socket_opens(
    live_server: str, browser: Any
) -> None:
    context = member_context(browser, live_server)
    try:
        page = context.new_page()
        refused = {"n": 0}

        def lobby_socket(ws: Any) -> None:
            if refused["n"] < 2:  # the first two tries meet the outage, the third gets through
                refused["n"] += 1
                ws.close(code=1013, reason="try again later")
            else:
                ws.connect_to_server()

        page.route_web_socket("**/ws/lobby", lobby_socket)
        page.goto(f"{live_server}/")
        page.wait_for_selector(f"{BANNER}:visible")
        assert page.inner_text(BANNER) == "Нет связи с сервером, пробуем снова…"
        page.wait_for_selector(BANNER, state="hidden")  # the backed-off retry opened a socket
        assert refused["n"] == 2
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
