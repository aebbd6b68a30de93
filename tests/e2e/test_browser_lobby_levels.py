"""The lobby's bot levels (issue 17) in a real browser: five levels (with their ladder ratings «≈ …» once
the ladder is not provisional),
«Лёгкий» preselected, «Подобрать по силе» picks the middle level for a member without a rating, and a bot
match starts at the level picked; on a phone the levels and the button fit the screen."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from duelclub.bots.ladder import lobby_text

pytestmark = pytest.mark.browser

PASSWORD = "e2e-Levels-Password-7"


def _member(browser: Any, base: str, **ctx: Any) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(locale="ru-RU", **ctx)
    context.set_default_timeout(15_000)
    r = context.request.post(
        f"{base}/api/auth/register",
        data={"username": f"lv{secrets.token_hex(4)}", "password": PASSWORD},
    )
    assert r.status == 201, r.text()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return context, page, errors


def test_levels_ratings_and_the_match_by_strength_button(live_server: str, browser: Any) -> None:
    context, page, errors = _member(browser, live_server)
    try:
        page.goto(f"{live_server}/#towers")
        form = page.locator("#towers-form")
        labels = form.locator('fieldset[data-option="bot_level"] label.choice')
        assert labels.count() == 5
        texts = [labels.nth(i).inner_text() for i in range(5)]
        for text, name in zip(texts, ("Новичок", "Лёгкий", "Средний", "Сильный", "Мастер"), strict=True):
            assert text.startswith(name), texts
        shown = lobby_text("towers", "master")  # empty while the ladder is provisional
        assert ("≈" in texts[4]) == bool(shown) and shown in texts[4]
        assert form.locator('input[name="bot_level"][value="light"]').is_checked()
        form.locator(".match-level").click()
        page.wait_for_selector('#towers-form input[name="bot_level"][value="medium"]:checked')
        page.wait_for_selector(".toast-info >> text=Средний")
        page.click("#play-bot")
        page.wait_for_url("**/matches/**")
        (match,) = context.request.get(f"{live_server}/api/matches").json()
        assert match["seats"][1]["bot"] == "medium", match["seats"]
        # back in the lobby, the choices of the last match are still made (a fresh-user run: the level went
        # back to «Лёгкий» and the clock to 1 min after every match); other games keep their own
        page.goto(f"{live_server}/#towers")
        assert form.locator('input[name="bot_level"][value="medium"]').is_checked()
        assert form.locator('input[name="move_seconds"][value="60"]').is_checked()  # the default
        form.locator('input[name="move_seconds"][value="300"]').check()
        page.reload()
        assert form.locator('input[name="move_seconds"][value="300"]').is_checked()
        assert form.locator('input[name="bot_level"][value="medium"]').is_checked()
        assert page.locator('#artania-form input[name="bot_level"][value="light"]').is_checked()
        assert errors == []
    finally:
        context.close()


def test_levels_fit_a_phone(live_server: str, browser: Any) -> None:
    context, page, errors = _member(browser, live_server, viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{live_server}/#mezha")
        button = page.locator("#mezha-form .match-level")
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        assert errors == []
    finally:
        context.close()
