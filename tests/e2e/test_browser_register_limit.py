"""The registration form refused by the limiter (issue 31 §5): it shows the server's 429 message, which names
the wait in the reader's language (web/ratelimit.py; tests/web/test_ratelimit.py checks the server's side),
instead of a line that does not say how long."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser

WAIT_MESSAGE = "Забагато реєстрацій із цієї адреси; спробуйте через 3 хв."


def test_the_registration_form_says_when_to_try_again(
    live_server: str, browser: Any, console_allow: list[str]
) -> None:
    console_allow.append(r"status of 429")  # the browser logs the refused request
    context = browser.new_context(locale="uk-UA")
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        # The e2e server's limits are lifted for the other tests: its refusal is played here, as the
        # server words it for a Ukrainian reader.
        body = json.dumps({"code": "rate_limited", "message": WAIT_MESSAGE})
        page.route(
            re.compile(r"/api/auth/register$"),
            lambda route: route.fulfill(
                status=429, headers={"Retry-After": "150"}, content_type="application/json", body=body
            ),
        )
        page.goto(f"{live_server}/register")
        page.fill("#username", "novachok")
        page.fill("#password", "e2e-Password-42")
        page.fill("#password2", "e2e-Password-42")
        page.click("#auth-form button[type=submit]")
        page.wait_for_selector("#form-error:not([hidden])")
        assert page.inner_text("#form-error") == WAIT_MESSAGE
        assert page.url.startswith(f"{live_server}/register")
    finally:
        context.close()
