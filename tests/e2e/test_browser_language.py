"""The UI language in a real browser: the header switcher (RU / UK) on the lobby turns the lobby and a match
against the bot Ukrainian — the template texts and the strings the ES modules write, the game board's own
text included (all four games) — and back."""

from __future__ import annotations

import re
from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser

# Playwright evaluates a bare expression with eval(), which the pages' CSP forbids: always a function.
JS_LANG_IS = "(lang) => document.documentElement?.lang === lang"  # null between two documents
JS_HAS_STATE = "() => document.getElementById('match')?.dataset.seq !== undefined"
JS_TURN_IN = "(texts) => texts.includes(document.getElementById('turn').textContent.trim())"
# Letters Russian has and Ukrainian has not: none may show on a Ukrainian Дві вежі board (its card names and
# battlefields are Ukrainian, as the seed gives them).
RUSSIAN_ONLY = re.compile("[ыэъёЫЭЪЁ]")


def _start_vs_bot(page: Any, live_server: str, slug: str) -> None:
    page.goto(f"{live_server}/")
    page.click(f"#tab-{slug}")
    page.click("#play-bot")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    page.wait_for_function(JS_HAS_STATE)


def _member(browser: Any, live_server: str, name: str, width: int = 1366, height: int = 900) -> Any:
    """A signed-up member's context (Russian browser) and page; page errors are collected in ``errors``."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="ru-RU")
    context.set_default_timeout(15_000)
    sign_up(context, live_server, name)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def test_switching_to_ukrainian_on_the_lobby_and_in_a_match(browser: Any, live_server: str) -> None:
    context, page, errors = _member(browser, live_server, "lang")
    try:
        page.goto(f"{live_server}/")
        assert page.locator("html").get_attribute("lang") == "ru"
        assert page.locator("#play-bot").inner_text() == "Играть с ботом"

        page.click("#lang-uk")
        page.wait_for_function(JS_LANG_IS, arg="uk")
        assert page.url.rstrip("/") == live_server.rstrip("/")
        assert page.locator("#play-bot").inner_text() == "Грати з ботом"
        assert page.locator("#challenges-title").inner_text() == "Таблиця заявок"
        assert page.locator("#lang-uk").get_attribute("aria-current") == "true"
        # written by challenges.js / lobby.js from the JS catalog
        page.wait_for_function(
            "() => ['оновлюється сама', 'перепідключення…']"
            ".includes(document.getElementById('lobby-conn').textContent)"
        )
        page.wait_for_function(
            "() => !document.getElementById('active-matches').textContent.includes('Загрузка')"
        )

        _start_vs_bot(page, live_server, "mezha")
        assert page.locator("html").get_attribute("lang") == "uk"
        assert page.locator("#log-title").inner_text() == "Перебіг партії"
        assert page.locator("#resign").inner_text() == "Здатися"
        page.wait_for_function("() => /на зв’язку/.test(document.getElementById('conn').textContent)")

        page.click("#lang-ru")
        page.wait_for_function(JS_LANG_IS, arg="ru")
        assert "/matches/" in page.url
        assert page.locator("#log-title").inner_text() == "Ход партии"
        assert not errors, errors
    finally:
        context.close()


def test_the_game_boards_speak_ukrainian(browser: Any, live_server: str) -> None:
    """What the game modules write — the turn line, the board's labels and hints — follows the language."""
    context, page, errors = _member(browser, live_server, "boarduk")
    try:
        page.goto(f"{live_server}/lang/uk")
        page.wait_for_function(JS_LANG_IS, arg="uk")

        # Межа: the first season is on, whoever starts it
        _start_vs_bot(page, live_server, "mezha")
        page.wait_for_function(JS_TURN_IN, arg=["Ваш хід", "Хід суперника"])
        assert page.locator("#season-chip").inner_text() == "Сезон 1 з 3"
        assert page.locator("#omen").inner_text().startswith("Прикмета: ")
        assert page.locator("#past-title").inner_text() == "Минулі сезони"
        assert page.locator("#opp-strip").inner_text().count("Колода: ") == 1
        assert "Скид: " in page.locator("#me-strip").inner_text()
        page.wait_for_function(JS_TURN_IN, arg=["Ваш хід"])
        hint = page.locator("#hint").inner_text()
        assert hint == "Виберіть карту в руці, потім поле — або натисніть «Пас».", hint
        # the log may fill just after the turn line on a busy machine: wait for its first line
        page.locator("#log", has_text="Сезон 1. Прикмета: ").wait_for()

        # Дві вежі: nothing Russian-only on the board, the side panel or the log
        _start_vs_bot(page, live_server, "towers")
        my_turn = ["Ваш хід", "Ваш хід (ще одна дія)", "Скиньте карту"]
        page.wait_for_function(JS_TURN_IN, arg=[*my_turn, "Хід суперника"])
        page.wait_for_function(JS_TURN_IN, arg=my_turn)
        assert "вежа " in page.locator("#tw-me").inner_text()
        assert "мета: вежа " in page.locator("#tw-board").inner_text()
        assert page.locator("#tw-targets").inner_text().startswith("Перемога: вежа ")
        for selector in ("#turn", "#board", "#side-game", "#log", "#match-info"):
            text = page.locator(selector).inner_text()
            assert not RUSSIAN_ONLY.search(text), (selector, text)

        # Сундук войны: the draft (the club draft is the default), its side names as the rules give them
        _start_vs_bot(page, live_server, "warchest")
        page.wait_for_function(JS_TURN_IN, arg=["Драфт: ваш вибір", "Драфт: вибирає суперник"])
        assert page.locator("#wc-draft h2").inner_text() == "Драфт: виберіть загін"
        assert page.locator("#wc-draft").inner_text().count("Черга вибору: ") == 1
        assert "Волк" in page.locator(".wc-side-wolf h3").inner_text()

        # Артания и Куявия: the step line, the help panel and the deck names as the rules give them
        _start_vs_bot(page, live_server, "artania")
        page.wait_for_function(JS_TURN_IN, arg=["Ваш хід", "Хід суперника"])
        assert page.locator("#art-step").inner_text().startswith("Хід 1, ")
        assert "Протикласи" in page.locator("#side-game").inner_text()
        assert re.search("Артания|Куявия", page.locator("#art-me").inner_text())
        assert not errors, errors
    finally:
        context.close()


def test_the_switch_keeps_the_lobby_tab_and_a_link_to_another_tab_follows(
    browser: Any, live_server: str
) -> None:
    """The language switch returns to the same game tab (the URL's #fragment, which no Referer carries), and
    on the lobby a link to another tab (/#artania) selects it."""
    context, page, errors = _member(browser, live_server, "langtab", 390, 844)
    try:
        page.goto(f"{live_server}/")
        page.click("#tab-towers")
        assert page.url.endswith("/#towers")
        page.click("#nav-toggle")  # on a phone the switch is in the header's «Меню» (issue 30 §9)
        page.click("#lang-uk")
        page.wait_for_function(JS_LANG_IS, arg="uk")
        assert page.url.endswith("/#towers")
        assert (
            page.locator("#towers-form").is_visible()
            and page.locator("#tab-towers").get_attribute("aria-selected") == "true"
        )
        page.goto(f"{live_server}/#artania")  # the same document: only the hash changes
        page.locator("#artania-form").wait_for(state="visible")
        assert page.locator("#towers-form").is_hidden()
        page.click("#nav-toggle")
        page.click("#lang-ru")
        page.wait_for_function(JS_LANG_IS, arg="ru")
        assert page.url.endswith("/#artania") and page.locator("#artania-form").is_visible()
        assert errors == []
    finally:
        context.close()
