"""The match chat in the browser (issue 16 §5, §7): two members chat during a match, a spectator's chat is
kept apart from them, quick phrases work, and a message a member reports is hidden by an admin on every
page."""

from __future__ import annotations

from typing import Any

import pytest
from accounts import log_in
from live_helpers import Member, duel

pytestmark = pytest.mark.browser


JS_HAS = "(t) => [...document.querySelectorAll('.chat-msg__text')].some((n) => n.textContent === t)"


def texts(page: Any, channel: str) -> list[str]:
    return list(page.locator(f"#chat-{channel} .chat-msg__text").all_inner_texts())


def test_members_and_spectators_chat_and_an_admin_hides_a_reported_message(
    live_server: str, browser: Any, admin_account: tuple[str, str]
) -> None:
    a, b, c = (Member(browser, live_server, p) for p in ("cha", "chb", "chc"))
    admin_ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    try:
        match_id = duel(a, b, "mezha", {"house": "olkha"})
        for m in (a, b, c):
            m.open_match(match_id)
            m.page.locator("#chat-panel").wait_for()
        a.page.fill("#chat-input", "Привет, bob!")
        a.page.click("#chat-send")
        b.page.wait_for_function(JS_HAS, arg="Привет, bob!")
        b.page.locator(".chat-quick__btn", has_text="Удачи!").click()
        a.page.wait_for_function("() => document.querySelectorAll('#chat-players .chat-msg').length === 2")

        c.page.wait_for_function("() => document.querySelectorAll('#chat-players .chat-msg').length === 2")
        assert c.page.locator("#chat-tab-spectators").get_attribute("aria-selected") == "true"
        c.page.fill("#chat-input", "Ставлю на alice")
        c.page.click("#chat-send")
        c.page.wait_for_function("() => document.querySelectorAll('#chat-spectators .chat-msg').length === 1")
        b.page.wait_for_timeout(500)
        assert texts(b.page, "spectators") == [] and not b.page.locator("#chat-tab-spectators").is_visible()

        b.page.locator("#chat-players .chat-msg-other .chat-report").first.click()
        b.page.locator(".toast", has_text="Жалоба отправлена").wait_for()

        admin = admin_ctx.new_page()
        log_in(admin, live_server, *admin_account)
        admin.goto(f"{live_server}/admin")
        report = admin.locator("#report-list .report", has_text="Привет, bob!")
        report.wait_for()
        report.locator("select.report-mute").select_option("60")
        report.locator(".report-hide").click()
        admin.locator("#chat-reports-count", has_text="Жалоб нет").wait_for()
        b.page.wait_for_function(f"() => !({JS_HAS})('Привет, bob!')")
        admin.goto(f"{live_server}/admin/matches/{match_id}")
        admin.locator("#chat-log .is-hidden", has_text="Привет, bob!").wait_for()
        for m in (a, b, c):
            assert not m.errors, m.errors
    finally:
        for m in (a, b, c):
            m.close()
        admin_ctx.close()


def test_no_chat_against_a_bot(live_server: str, browser: Any) -> None:
    """No chat with a bot, and no «соперник на связи» either (a bot is always there: a fresh-user run
    found the line odd)."""
    m = Member(browser, live_server, "chn")
    try:
        made = m.post("/api/matches", {"game": "mezha", "vs": "bot", "bot_level": "easy"})
        m.open_match(made["id"])
        m.page.wait_for_selector("#match[data-presence]")  # the presence message was painted
        m.page.wait_for_timeout(800)
        assert m.page.locator("#chat-panel").count() == 0
        assert m.page.locator("#opponent-conn").is_hidden()
    finally:
        m.close()
