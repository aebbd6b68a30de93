"""Issue 28 §2 in the browser, on the embedded default (no ``SMTP_URL``: the mails go to the log and to the
admins' «Почта» page, where this test reads them): a member confirms an address from the account page,
forgets the password, asks for a link with «Забыли пароль?», sets a new password on /reset/{token} and logs
in with it; the old password and the used link no longer work. Run in Russian and in Ukrainian, with
screenshots at 1366x900 and 390x844 (into ``$TMPDIR/duelclub-shots``, to look at)."""

from __future__ import annotations

import re
import secrets
import tempfile
from pathlib import Path
from typing import Any

import pytest
from accounts import PASSWORD, log_in, sign_up

pytestmark = pytest.mark.browser
SHOTS = Path(tempfile.gettempdir()) / "duelclub-shots"
LINK = r"(/(?:reset|verify-email)/[A-Za-z0-9_.-]+)"


def _mailed_path(admin: Any, base: str, address: str, kind: str) -> str:
    """The path of the newest link of ``kind`` mailed to ``address``, from /admin/mail. With PUBLIC_URL
    unset the links point at the address the server listens on (``base``): the link is that address."""
    link = re.compile(re.escape(base) + LINK)
    for _ in range(50):
        admin.goto(f"{base}/admin/mail")
        item = admin.locator(".mail-item", has=admin.locator(".mail-to", has_text=address)).first
        if item.count() and kind in item.inner_text():
            found = link.search(item.locator(".mail-text").inner_text())
            if found and kind in found.group(1):
                return found.group(1)
        admin.wait_for_timeout(200)
    raise AssertionError(f"no {kind} mail to {address} on /admin/mail")


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 900})


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_forgotten_password_from_the_login_page_to_the_new_login(
    live_server: str, browser: Any, admin_account: tuple[str, str], lang: str, console_allow: list[str]
) -> None:
    console_allow.append("status of 400")  # the used link's page at the end answers 400 on purpose
    locale = {"ru": "ru-RU", "uk": "uk-UA"}[lang]
    member = browser.new_context(locale=locale)
    staff = browser.new_context(locale="ru-RU")
    for context in (member, staff):
        context.set_default_timeout(15_000)
    try:
        admin = staff.new_page()
        log_in(admin, live_server, *admin_account)
        name = sign_up(member, live_server, "rs")
        address = f"{name}.{secrets.token_hex(2)}@mail.example"
        page = member.new_page()

        # the account page: an address, confirmed by its link
        page.goto(f"{live_server}/account")
        page.fill("#email-input", address)
        page.click("#email-submit")
        page.wait_for_selector("#email-success:visible")
        assert address in page.inner_text("#email-success")
        page.goto(f"{live_server}{_mailed_path(admin, live_server, address, 'verify-email')}")
        page.click("#verify-form button[type=submit]")
        page.wait_for_selector("#form-success:visible")
        page.goto(f"{live_server}/account")
        assert page.inner_text("#email-current") == address
        _shot(page, f"account-{lang}")
        page.context.clear_cookies()

        # «Забыли пароль?» on the login page
        page.goto(f"{live_server}/login")
        forgot = {"ru": "Забыли пароль?", "uk": "Забули пароль?"}[lang]
        assert page.inner_text("#forgot-link") == forgot
        page.set_viewport_size({"width": 390, "height": 844})
        box = page.locator("#forgot-link").bounding_box()
        assert box is not None and box["height"] >= 40  # a phone's tap target
        page.set_viewport_size({"width": 1366, "height": 900})
        page.click("#forgot-link")
        page.wait_for_url(f"{live_server}/password-reset")
        page.fill("#email", address.upper())
        page.click("#forgot-form button[type=submit]")
        page.wait_for_selector("#form-success:visible")
        _shot(page, f"forgot-{lang}")
        path = _mailed_path(admin, live_server, address, "/reset/")
        mail = admin.locator(".mail-item", has=admin.locator(".mail-to", has_text=address)).first.inner_text()
        assert {"ru": "Сброс пароля", "uk": "Скидання пароля"}[lang] in mail

        # the mailed link: a new password, then a login with it
        page.goto(f"{live_server}{path}")
        assert page.inner_text("#reset-username") == name
        page.fill("#password", "short")
        page.fill("#password2", "short")
        page.click("#reset-form button[type=submit]")
        page.wait_for_selector("#form-error:visible")
        new_password = "brand-New-secret-9"
        page.fill("#password", new_password)
        page.fill("#password2", new_password)
        page.click("#reset-form button[type=submit]")
        page.wait_for_selector("#form-success:visible")
        _shot(page, f"reset-{lang}")
        r = member.request.post(
            f"{live_server}/api/auth/login", data={"username": name, "password": PASSWORD}
        )
        assert r.status == 401
        page.click("#to-login")
        landed = log_in(page, live_server, name, new_password)
        assert "/login" not in landed
        # the used link is dead
        page.goto(f"{live_server}{path}")
        assert page.locator("#reset-form").count() == 0
        dead = {"ru": "Ссылка недействительна", "uk": "Посилання недійсне"}[lang]
        assert dead in page.inner_text("#form-error")
    finally:
        member.close()
        staff.close()


def test_deleting_the_account_from_the_account_page(
    live_server: str, browser: Any, console_allow: list[str]
) -> None:
    console_allow.append("status of 403")  # the wrong password, on purpose
    context = browser.new_context(locale="uk-UA")
    context.set_default_timeout(15_000)
    try:
        name = sign_up(context, live_server, "dl")
        page = context.new_page()
        page.goto(f"{live_server}/account")
        page.fill("#delete-password", "wrong-password-1")
        page.click("#delete-submit")  # the site's own dialog asks (never window.confirm, issue 30)
        assert page.inner_text("#delete-dialog-q") == "Видалити обліковий запис назавжди?"
        page.click("#delete-dialog-yes")
        page.wait_for_selector("#delete-error:visible")
        assert "пароль" in page.inner_text("#delete-error").lower()
        page.fill("#delete-password", PASSWORD)
        _shot(page, "delete-uk")
        page.click("#delete-submit")
        page.click("#delete-dialog-yes")
        page.wait_for_url(f"{live_server}/")
        assert context.request.get(f"{live_server}/api/me").status == 401
        r = context.request.post(
            f"{live_server}/api/auth/login", data={"username": name, "password": PASSWORD}
        )
        assert r.status == 401
    finally:
        context.close()
