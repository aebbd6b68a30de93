"""The API docs work offline (issue 13 §1.7): ``/docs`` and ``/redoc`` load their assets from this server,
start under the app's own CSP (any console error fails the test, conftest.py), and list the endpoints."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def _open(browser: Any, live_server: str, path: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context()
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(f"{live_server}{path}")
    return context, page, requested


def test_swagger_ui_lists_the_endpoints_from_local_assets(browser: Any, live_server: str) -> None:
    context, page, requested = _open(browser, live_server, "/docs")
    try:
        page.wait_for_selector(".opblock", timeout=20_000)
        paths = page.locator(".opblock-summary-path").all_inner_texts()
        flat = {p.replace("\u200b", "") for p in paths}
        assert "/api/matches/{match_id}/actions" in flat
        assert "/api/auth/login" in flat
        assert all(url.startswith(live_server) for url in requested), requested
    finally:
        context.close()


def test_redoc_lists_the_endpoints_from_local_assets(browser: Any, live_server: str) -> None:
    context, page, requested = _open(browser, live_server, "/redoc")
    try:
        page.get_by_text("/api/matches/{match_id}/actions").first.wait_for(state="attached", timeout=30_000)
        assert page.get_by_text("Log in (sets the session cookie)").count() >= 1
        assert all(url.startswith(live_server) for url in requested), requested
    finally:
        context.close()
