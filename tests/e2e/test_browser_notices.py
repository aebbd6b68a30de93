"""«Письма о ходе» in a real browser (issue 28 §3): the account page's choice is stored at once (PUT
/api/me/notices), survives a reload, and says that mails wait for a confirmed address; the unsubscribe
link's page turns the mails off with one button and no login."""

from __future__ import annotations

from typing import Any

import pytest
from accounts import sign_up

from duelclub.notify import unsubscribe

pytestmark = pytest.mark.browser


def test_choose_turn_mails_on_the_account_page_and_unsubscribe_by_the_link(
    live_server: str, browser: Any, server_env: dict[str, str]
) -> None:
    base = live_server
    me = browser.new_context(locale="ru-RU", viewport={"width": 1366, "height": 900})
    me.set_default_timeout(15_000)
    stranger = browser.new_context(locale="uk-UA")
    stranger.set_default_timeout(15_000)
    try:
        sign_up(me, base, "ntc")
        page = me.new_page()
        page.goto(f"{base}/account")
        assert page.input_value("#notices-email") == "off"
        page.select_option("#notices-email", "digest")
        page.wait_for_selector("#notices-success:not([hidden])")
        assert "подтвердите адрес" in page.inner_text("#notices-success")
        assert me.request.get(f"{base}/api/me/notices").json()["email"] == "digest"
        page.reload()
        assert page.input_value("#notices-email") == "digest"

        uid = me.request.get(f"{base}/api/me").json()["id"]
        token = unsubscribe.make(server_env["SECRET_KEY"], uid)  # the link of this member's mails
        other = stranger.new_page()  # another browser, no session
        other.goto(f"{base}/unsubscribe/{token}")
        other.click("#unsubscribe-submit")
        other.wait_for_selector("#unsubscribe-done")
        assert me.request.get(f"{base}/api/me/notices").json()["email"] == "off"
        page.reload()
        assert page.input_value("#notices-email") == "off"
    finally:
        me.close()
        stranger.close()
