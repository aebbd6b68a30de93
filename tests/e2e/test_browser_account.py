"""The account page in a real browser: «Сменить пароль» (the new password works, the other sessions end) and
«Выйти на всех устройствах» (every session ends, the other device's too)."""

from __future__ import annotations

from typing import Any

import pytest
from accounts import PASSWORD, log_in, sign_up

pytestmark = pytest.mark.browser

NEW_PASSWORD = "e2e-Changed-Password-9"


def _context(browser: Any) -> Any:
    context = browser.new_context(locale="ru-RU")
    context.set_default_timeout(15_000)
    return context


def _watch(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def test_change_the_password_then_log_out_everywhere(live_server: str, browser: Any) -> None:
    base = live_server
    first, second, elsewhere = _context(browser), _context(browser), _context(browser)
    try:
        username = sign_up(first, base, "acc")
        # another device, logged in with the old password: the change must end its session
        login = {"username": username, "password": PASSWORD}
        r = elsewhere.request.post(f"{base}/api/auth/login", data=login)
        assert r.status == 200, r.text()

        page = first.new_page()
        errors = _watch(page)
        page.goto(f"{base}/")
        page.click("#current-user")
        page.wait_for_url(f"{base}/account")
        assert page.inner_text("#account-username") == username

        # the client-side rules, as on the registration form
        page.fill("#old-password", PASSWORD)
        page.fill("#new-password", NEW_PASSWORD)
        page.fill("#new-password2", NEW_PASSWORD + "x")
        page.click("#password-submit")
        page.wait_for_selector("#password-error:not([hidden])")
        assert page.inner_text("#password-error") == "Пароли не совпадают."

        page.fill("#new-password2", NEW_PASSWORD)
        page.click("#password-submit")
        page.wait_for_selector("#password-success:not([hidden])")
        assert page.inner_text("#password-success") == "Пароль изменён; другие сеансы завершены"
        assert page.is_hidden("#password-error")
        assert page.input_value("#old-password") == ""
        assert first.request.get(f"{base}/api/me").status == 200  # this session stays
        assert elsewhere.request.get(f"{base}/api/me").status == 401  # the other one has ended

        # log out, log back in with the new password
        page.click("#logout")
        page.wait_for_url(f"{base}/")
        assert first.request.get(f"{base}/api/me").status == 401
        log_in(page, base, username, NEW_PASSWORD)
        me = first.request.get(f"{base}/api/me")
        assert me.status == 200 and me.json()["username"] == username

        # a second device logs in too (through the browser), then the first ends every session
        other = second.new_page()
        log_in(other, base, username, NEW_PASSWORD)
        assert second.request.get(f"{base}/api/me").status == 200

        page.goto(f"{base}/account")
        page.click("#logout-all")  # the site's own dialog asks (never window.confirm, issue 30)
        assert "всех устройствах" in page.inner_text("#logout-all-dialog-q")
        page.click("#logout-all-dialog-yes")
        page.wait_for_url(f"{base}/login")
        assert second.request.get(f"{base}/api/me").status == 401
        assert first.request.get(f"{base}/api/me").status == 401
        assert [e for e in errors if "status of 401" not in e] == []
    finally:
        first.close()
        second.close()
        elsewhere.close()
