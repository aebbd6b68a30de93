"""Cancelling an open invite from the lobby in a real browser: the «Отменить приглашение» button of the invite
box and the «Отменить» button of an open invite in «Мои партии»."""

from __future__ import annotations

import secrets
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PASSWORD = "e2e-Cancel-Password-3"


def _member(browser: Any, base: str) -> tuple[Any, Any, list[str]]:
    """A fresh context logged in as a new member (through the context's own request client, which shares its
    cookies), its page, and the page errors seen."""
    context = browser.new_context(locale="ru-RU")
    context.set_default_timeout(15_000)
    r = context.request.post(
        f"{base}/api/auth/register",
        data={"username": f"cx{secrets.token_hex(4)}", "password": PASSWORD},
    )
    assert r.status == 201, r.text()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return context, page, errors


def _my_matches(context: Any, base: str) -> dict[str, Any]:
    return {m["id"]: m for m in context.request.get(f"{base}/api/matches").json()}


def test_cancel_the_invite_just_created(live_server: str, browser: Any) -> None:
    context, page, errors = _member(browser, live_server)
    guest, guest_page, _ = _member(browser, live_server)
    try:
        page.goto(f"{live_server}/")
        page.click("#invite-friend")
        page.wait_for_selector("#invite-box:not([hidden])")
        link = page.input_value("#invite-url")
        (match_id,) = [m for m, row in _my_matches(context, live_server).items() if row["status"] == "open"]
        page.click("#cancel-invite")
        page.wait_for_selector("#invite-box", state="hidden")
        row = _my_matches(context, live_server)[match_id]
        assert row["status"] == "aborted" and row["result"]["reason"] == "cancelled"
        page.wait_for_selector(f'#finished-matches li[data-match="{match_id}"] >> text=Отменена')
        title = page.inner_text(f'#finished-matches li[data-match="{match_id}"] .match-list__title')
        assert title == "Межа · Приглашение отменено"
        meta = page.inner_text(f'#finished-matches li[data-match="{match_id}"] .match-list__meta')
        assert meta.startswith("Ваш дом: Дом ")
        guest_page.goto(link)
        page_error = guest_page.locator("#invite-error")
        page_error.wait_for(state="visible")
        assert "отменён" in page_error.inner_text()
        assert guest_page.locator("#accept").is_disabled()
        assert guest_page.inner_text("#invite-lead") == "Приглашение отменено"
        # Its match page: the result says the invite was cancelled; no empty board, hand or «Пас».
        page.goto(f"{live_server}/matches/{match_id}")
        page.wait_for_selector("#result:not([hidden])")
        assert page.inner_text("#result-title") == "Приглашение отменено"
        assert "администратор" not in page.inner_text("#result")
        assert page.inner_text("#turn") == "Приглашение отменено"
        assert page.locator("[data-field]:visible").count() == 0
        assert page.locator("#pass:visible").count() == 0
        assert page.locator("#hand:visible").count() == 0
        assert page.locator("#fair-panel").is_visible()
        assert [e for e in errors if "status of 401" not in e] == []
    finally:
        context.close()
        guest.close()


def test_cancel_an_open_invite_from_my_matches(live_server: str, browser: Any) -> None:
    context, page, errors = _member(browser, live_server)
    try:
        r = context.request.post(
            f"{live_server}/api/matches", data={"game": "mezha", "vs": "invite", "options": {}}
        )
        assert r.status == 201, r.text()
        match_id = r.json()["id"]
        page.goto(f"{live_server}/")
        page.click(f'#active-matches [data-cancel="{match_id}"]')
        page.wait_for_selector(f'#finished-matches li[data-match="{match_id}"] >> text=Отменена')
        assert page.locator(f'#active-matches li[data-match="{match_id}"]').count() == 0
        assert _my_matches(context, live_server)[match_id]["result"]["reason"] == "cancelled"
        assert [e for e in errors if "status of 401" not in e] == []
    finally:
        context.close()
