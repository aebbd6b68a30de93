"""The invite page once the invite is no longer open, from a third member's side: taken by someone else
(«Этот вызов уже принял другой игрок» and a «Смотреть партию» link) and cancelled («Приглашение отменено»)."""

from __future__ import annotations

from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser


def _member(browser: Any, base: str, prefix: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(locale="ru-RU")
    context.set_default_timeout(15_000)
    sign_up(context, base, prefix)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return context, page, errors


def _invite(context: Any, base: str) -> dict[str, Any]:
    r = context.request.post(
        f"{base}/api/matches", data={"game": "mezha", "vs": "invite", "options": {"house": "olkha"}}
    )
    assert r.status == 201, r.text()
    return dict(r.json())


def test_invite_taken_by_someone_else_and_cancelled(live_server: str, browser: Any) -> None:
    alice, _alice_page, _ = _member(browser, live_server, "ia")
    bob, _bob_page, _ = _member(browser, live_server, "ib")
    carol, page, errors = _member(browser, live_server, "ic")
    try:
        taken = _invite(alice, live_server)
        r = bob.request.post(
            f"{live_server}/api/invites/{taken['invite_token']}/accept", data={"client_seed": ""}
        )
        assert r.status == 200, r.text()
        page.goto(taken["invite_url"])
        page.wait_for_selector('#invite[data-state="taken"]')
        assert page.inner_text("#invite-lead") == "Этот вызов уже принял другой игрок"
        assert "вызывает вас" not in page.inner_text("#invite-body")
        link = page.locator("#open-match")
        assert link.is_visible() and link.inner_text() == "Смотреть партию"
        assert link.get_attribute("href") == f"/matches/{taken['id']}"
        assert page.locator("#accept").is_hidden()

        cancelled = _invite(alice, live_server)
        assert alice.request.delete(f"{live_server}/api/matches/{cancelled['id']}", data={}).ok
        page.goto(cancelled["invite_url"])
        page.wait_for_selector('#invite[data-state="cancelled"]')
        assert page.inner_text("#invite-lead") == "Приглашение отменено"
        assert "вызывает вас" not in page.inner_text("#invite-body")
        assert page.locator("#open-match").is_hidden() and page.locator("#accept").is_hidden()
        assert errors == []
    finally:
        for c in (alice, bob, carol):
            c.close()


def test_an_open_invite_shows_the_time_per_move(live_server: str, browser: Any) -> None:
    """The invited member sees the move clock before accepting (a fresh-clone tester accepted blind), and
    so does its creator in the lobby's invite box."""
    alice, alice_page, alice_errors = _member(browser, live_server, "ta")
    bob, page, errors = _member(browser, live_server, "tb")
    try:
        r = alice.request.post(
            f"{live_server}/api/matches",
            data={"game": "mezha", "vs": "invite", "options": {"house": "olkha"}, "move_seconds": 3 * 86400},
        )
        assert r.status == 201, r.text()
        page.goto(r.json()["invite_url"])
        page.wait_for_selector("#invite-body:not([hidden])")
        assert page.inner_text("#invite-clock") == "3 дня"  # Межа: correspondence clocks only
        assert "Время на ход" in page.inner_text("#invite-body")
        assert errors == []
        alice_page.goto(f"{live_server}/")
        alice_page.get_by_role("button", name="Показать ссылку").click()
        alice_page.wait_for_selector("#invite-box:not([hidden])")
        assert "Время на ход: 3 дня" in alice_page.inner_text("#invite-options")
        assert alice_errors == []
    finally:
        for c in (alice, bob):
            c.close()


def test_the_opener_sees_its_own_invite_as_its_own(live_server: str, browser: Any) -> None:
    """Opening one's own invite link said «… вызывает вас сыграть» (a fresh-user run); now it says the invite
    waits for an opponent, and the accept button stays disabled. Once taken, the rated line no longer speaks
    of a result to come."""
    alice, page, errors = _member(browser, live_server, "oa")
    bob, bob_page, bob_errors = _member(browser, live_server, "ob")
    try:
        r = alice.request.post(f"{live_server}/api/matches", data={"game": "towers", "vs": "invite"})
        assert r.status == 201, r.text()
        mine = r.json()  # Дві вежі is rated (Межа is not)
        page.goto(mine["invite_url"])
        page.wait_for_selector('#invite[data-state="own"]')
        assert page.inner_text("#invite-lead") == "Ваше приглашение сыграть в «Дві вежі» ждёт соперника."
        assert "вызывает вас" not in page.inner_text("#invite-body")
        assert page.locator("#accept").is_disabled()
        assert page.inner_text("#invite-rated") == "рейтинговая — результат изменит рейтинг обоих"
        assert mine["rated"] is True
        page.goto(f"{live_server}/")  # the lobby's invite box says it too
        page.get_by_role("button", name="Показать ссылку").click()
        page.wait_for_selector("#invite-box:not([hidden])")
        assert page.inner_text("#invite-options").endswith(" · рейтинговая")
        accept = f"{live_server}/api/invites/{mine['invite_token']}/accept"
        r = bob.request.post(accept, data={"client_seed": ""})
        assert r.status == 200, r.text()
        bob_page.goto(mine["invite_url"])
        bob_page.wait_for_selector('#invite[data-state="mine"]')
        assert bob_page.inner_text("#invite-rated") == "рейтинговая"
        assert errors == [] and bob_errors == []
    finally:
        for c in (alice, bob):
            c.close()
