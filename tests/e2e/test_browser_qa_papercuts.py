"""Papercuts a fresh-user QA pass found (issue 30), in a real browser: a double tap on «Участвовать» or
«Начать турнир» sent the request twice (the second answered 409 with a toast); the «Забыли пароль?» form
stayed active after it was sent; the Ukrainian lobby showed Russian words («колода: обычная», «6 дек.»)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from live_helpers import Member

pytestmark = pytest.mark.browser
RUSSIAN_ONLY = re.compile("[ыэъё]")
PROPER_NAMES = ("Сундук войны", "Артания и Куявия", "Дом Ольхи", "Дом Горна")


def _posts_to(page: Any, suffix: str) -> list[str]:
    """The POST requests of ``page`` whose URL ends with ``suffix``, as they are sent (a live list)."""
    sent: list[str] = []
    page.on(
        "request",
        lambda r: sent.append(r.url) if r.method == "POST" and r.url.endswith(suffix) else None,
    )
    return sent


def test_a_double_tap_on_join_and_start_sends_one_request_each(browser: Any, live_server: str) -> None:
    org, other = Member(browser, live_server, "dto"), Member(browser, live_server, "dtb")
    try:
        tid = org.post("/api/tournaments", {"game": "mezha", "format": "round_robin", "rated": False})["id"]
        other.post(f"/api/tournaments/{tid}/join")
        page = org.page
        joins, starts = _posts_to(page, f"/{tid}/join"), _posts_to(page, f"/{tid}/start")
        page.goto(f"{live_server}/tournaments/{tid}")
        page.locator("#tournament[data-status='open']").wait_for()
        page.dblclick("#tournament-join")
        page.locator("#tournament-leave").wait_for()
        page.dblclick("#tournament-start")
        page.locator("#tournament[data-status='running']").wait_for()
        page.wait_for_timeout(300)  # a second request, had one been sent, is answered by now
        assert (len(joins), len(starts)) == (1, 1)
        assert page.locator(".toast").count() == 0, page.locator(".toast").all_inner_texts()
        assert org.errors == []
    finally:
        org.close()
        other.close()


def test_the_forgot_password_form_stays_sent(browser: Any, live_server: str) -> None:
    context = browser.new_context(locale="ru-RU")
    try:
        page = context.new_page()
        sent = _posts_to(page, "/api/auth/password-reset")
        page.goto(f"{live_server}/password-reset")
        page.fill("#email", "nobody@example.org")
        page.click("#forgot-form button[type=submit]")
        page.locator("#form-success").wait_for()
        assert page.is_disabled("#email")
        assert page.is_hidden("#forgot-form button[type=submit]")
        assert page.get_attribute("#forgot-form", "data-state") == "sent"
        page.locator("#email").press("Enter")  # nothing left to send again
        page.wait_for_timeout(200)
        assert len(sent) == 1
    finally:
        context.close()


def test_the_ukrainian_lobby_has_no_russian_words(browser: Any, live_server: str) -> None:
    member = Member(browser, live_server, "ukl")
    try:
        for game, options in (("towers", {}), ("warchest", {"expansions": "base", "draft": "random"})):
            member.post("/api/matches", {"game": game, "vs": "bot", "bot_level": "easy", "options": options})
            member.post("/api/matches", {"game": game, "vs": "invite", "options": options})
        page = member.page
        page.goto(f"{live_server}/lang/uk?next=/")
        mine = page.locator("#active-matches")
        rows = "#active-matches li:not(.empty)"
        page.wait_for_function(f"() => document.querySelectorAll('{rows}').length >= 4")
        text = mine.inner_text()
        assert "колода: звичайна" in text, text
        month = page.evaluate("() => new Intl.DateTimeFormat('uk-UA', { month: 'short' }).format(new Date())")
        assert month in text, (month, text)
        for name in PROPER_NAMES:
            text = text.replace(name, "")
        assert not RUSSIAN_ONLY.search(text), text
    finally:
        member.close()
