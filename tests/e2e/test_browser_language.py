"""The UI language in a real browser: the header switcher (RU / UK) on the lobby turns the lobby and a match
against the bot Ukrainian — the template texts and the strings the ES modules write — and back."""

from __future__ import annotations

import re
from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser


def test_switching_to_ukrainian_on_the_lobby_and_in_a_match(browser: Any, live_server: str) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    context.set_default_timeout(15_000)
    try:
        sign_up(context, live_server, "lang")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{live_server}/")
        assert page.locator("html").get_attribute("lang") == "ru"
        assert page.locator("#play-bot").inner_text() == "Играть с ботом"

        page.click("#lang-uk")
        page.wait_for_function("document.documentElement.lang === 'uk'")
        assert page.url.rstrip("/") == live_server.rstrip("/")
        assert page.locator("#play-bot").inner_text() == "Грати з ботом"
        assert page.locator("#challenges-title").inner_text() == "Таблиця заявок"
        assert page.locator("#lang-uk").get_attribute("aria-current") == "true"
        # written by challenges.js / lobby.js from the JS catalog
        page.wait_for_function(
            "['оновлюється сама', 'перепідключення…']"
            ".includes(document.getElementById('lobby-conn').textContent)"
        )
        page.wait_for_function("!document.getElementById('active-matches').textContent.includes('Загрузка')")

        page.click("#tab-mezha")
        page.click("#play-bot")
        page.wait_for_url(re.compile(r"/matches/[^/]+$"))
        page.wait_for_function("document.getElementById('match')?.dataset.seq !== undefined")
        assert page.locator("html").get_attribute("lang") == "uk"
        assert page.locator("#log-title").inner_text() == "Перебіг партії"
        assert page.locator("#resign").inner_text() == "Здатися"
        page.wait_for_function("/на зв’язку/.test(document.getElementById('conn').textContent)")

        page.click("#lang-ru")
        page.wait_for_function("document.documentElement.lang === 'ru'")
        assert "/matches/" in page.url
        assert page.locator("#log-title").inner_text() == "Ход партии"
        assert not errors, errors
    finally:
        context.close()
