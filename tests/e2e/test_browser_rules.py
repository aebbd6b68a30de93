"""Rules in the product (issue 16 §1): a newcomer opens a game's rules from the lobby tab, and from a match
page the «Правила» button opens the rules in a panel without leaving the match."""

from __future__ import annotations

from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_lobby_tab_links_the_games_rules(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, locale="ru-RU")
    try:
        sign_up(context, live_server, "rl")
        page = context.new_page()
        page.goto(f"{live_server}/")
        page.locator('.game-tab[data-game="warchest"]').click()
        page.locator("#warchest-rules").click()
        page.wait_for_url(f"{live_server}/games/warchest/rules")
        assert page.locator("#rules-title").inner_text() == "Сундук войны"
        assert page.locator("#glossary dt").count() >= 6  # the board's rings and coins explained
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


@pytest.mark.parametrize("game, parts", [("artania", ("turn", "equipment")), ("warchest", ("actions",))])
def test_match_page_opens_the_rules_in_a_panel(
    live_server: str, browser: Any, game: str, parts: tuple[str, ...]
) -> None:
    context = browser.new_context(viewport=PHONE, locale="ru-RU")
    errors: list[str] = []
    try:
        sign_up(context, live_server, "rp")
        options = {"expansions": "base", "draft": "random"} if game == "warchest" else {}
        made = context.request.post(
            f"{live_server}/api/matches",
            data={"game": game, "vs": "bot", "bot_level": "easy", "options": options},
        )
        assert made.status == 201, made.text()
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        url = f"{live_server}/matches/{made.json()['id']}"
        page.goto(url)
        page.wait_for_selector("#match[data-seq]")
        page.click("#rules-btn")
        drawer = page.locator("#rules-drawer")
        drawer.wait_for(state="visible")
        current = page.locator("#rules-drawer .rules-part-current")
        current.wait_for()
        assert current.get_attribute("id") in parts  # the part for the moment: an equipment window, a turn
        box = current.bounding_box()
        assert box is not None and 0 <= box["y"] < PHONE["height"], box  # the part is in view
        assert page.url == url  # the match stays
        page.click("#rules-close")
        drawer.wait_for(state="hidden")
        assert not errors, errors
    finally:
        context.close()
