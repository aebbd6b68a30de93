"""The admins' page «Состояние сервера» (issue 13 §2): reachable from «Админка», it shows live matches, this
worker's sockets, bots waiting and thinking and the recent errors, on a phone and on a desktop."""

from __future__ import annotations

from typing import Any

import pytest
from accounts import log_in

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 900}])
def test_an_admin_reads_the_server_status(
    browser: Any, live_server: str, admin_account: tuple[str, str], viewport: dict[str, int]
) -> None:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    try:
        log_in(page, live_server, *admin_account, next_path="/admin")
        page.click("#status-link")
        page.wait_for_url("**/admin/status")
        page.wait_for_selector("#status-page[data-loaded]")
        assert page.inner_text("h1") == "Состояние сервера"
        assert "Идут" in page.inner_text("#st-live")
        sockets = page.inner_text("#st-sockets")
        assert "Сокеты партий" in sockets and "в порядке" in sockets
        assert "Ждут бота" in page.inner_text("#st-bots")
        assert "Процесс" in page.inner_text("#status-note")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()


def test_a_member_gets_no_server_status(browser: Any, live_server: str, console_allow: list[str]) -> None:
    from accounts import sign_up

    console_allow.append(r"status of 403")  # the page itself answers 403
    context = browser.new_context()
    page = context.new_page()
    try:
        sign_up(context, live_server)
        response = page.goto(f"{live_server}/admin/status")
        assert response is not None and response.status == 403
    finally:
        context.close()
