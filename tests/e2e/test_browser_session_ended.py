"""The session behind an open match page ends (logout everywhere from elsewhere): the socket is told at once
and closes with 4401, and the page says «Сеанс завершён — войдите снова» with a login link back, instead of
falling back to the spectator view."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser


def test_match_page_after_logout_everywhere(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="ru-RU")
    context.set_default_timeout(15_000)
    try:
        sign_up(context, live_server, "se")
        r = context.request.post(
            f"{live_server}/api/matches", data={"game": "mezha", "vs": "bot", "bot_level": "easy"}
        )
        assert r.status == 201, r.text()
        match_id = r.json()["id"]
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
        page.goto(f"{live_server}/matches/{match_id}")
        page.wait_for_selector("#resign:enabled")
        page.wait_for_selector('#match[data-conn="open"]')

        # every session of this member ends: the open socket hears it at once (web/session_watch.py) and
        # the page says so without waiting for the member's next action
        assert context.request.post(f"{live_server}/api/auth/logout-all", data={}).status == 204
        page.wait_for_selector("#session-ended")
        assert "Сеанс завершён — войдите снова" in page.inner_text("#session-ended")
        path = f"/matches/{match_id}"
        assert page.get_attribute("#session-login", "href") == f"/login?next={quote(path, safe='')}"
        assert page.get_attribute("#match", "data-session") == "ended"
        assert page.inner_text("#turn") == "Сеанс завершён"
        assert page.inner_text("#conn") == "сеанс завершён"
        page.wait_for_timeout(1500)
        # not the spectator view: no «Игрок 1/2» strips, no result, nothing to press
        assert page.get_attribute("#match", "data-status") == "active"
        assert page.locator("#result").is_hidden()
        assert page.locator("#hand-panel").is_hidden()
        assert page.locator("#resign").is_disabled()
        assert "Соперник" in page.inner_text("#opp-strip")
        assert errors == []

        page.click("#session-login")
        page.wait_for_url(f"{live_server}/login?next=*")
    finally:
        context.close()
