"""A profile's «Турниры» and the tournament pages on a phone (issue 26 §Pages: profiles list the member's
tournaments; phone first, 390 px, no sideways scroll): each profile line is the tournament's name as a link
with a full tap target, then its game, format, options and status, with no stray « · » opening the wrapped
line; a long name without spaces wraps."""

from __future__ import annotations

from typing import Any

import pytest
from live_helpers import Member

pytestmark = pytest.mark.browser


def test_a_profiles_tournament_line_reads_cleanly_on_a_phone(browser: Any, live_server: str) -> None:
    ann = Member(browser, live_server, "tpp")
    try:
        created = ann.post(
            "/api/tournaments", {"game": "mezha", "format": "round_robin", "name": "Клубный вечер"}
        )
        ann.post(f"/api/tournaments/{created['id']}/join")
        page = ann.page
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{live_server}/members/{ann.name}")
        page.locator("#member-tournament-items[data-loaded]").wait_for()
        item = page.locator(f"#member-tournament-items li[data-id='{created['id']}']")
        link = item.locator("a")
        assert link.inner_text() == "Клубный вечер"
        assert link.bounding_box()["height"] >= 44, "a phone's tap target"
        facts = item.locator("span").inner_text().strip()
        assert facts == "Межа · Круговой · Дом Ольхи у игрока 1 · набор участников", facts
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert ann.errors == []
    finally:
        ann.close()


def test_a_long_name_without_spaces_does_not_push_a_phone_page_sideways(
    browser: Any, live_server: str
) -> None:
    """80 characters of tournament name and a 20-character member name, none of them spaces: the tournament
    page, the /tournaments list and the profile stay 390 px wide (the tables may scroll in their own box)."""
    org = Member(browser, live_server, "Konstantinop")  # + 8 hex digits: a member name's 20 characters
    other = Member(browser, live_server, "tpl")
    try:
        name = "Чемпионат" + "Ж" * 71
        created = org.post("/api/tournaments", {"game": "mezha", "format": "round_robin", "name": name})
        tid = created["id"]
        org.post(f"/api/tournaments/{tid}/join")
        other.post(f"/api/tournaments/{tid}/join")
        page = org.page
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{live_server}/tournaments/{tid}")
        page.locator("#tournament[data-status='open']").wait_for()
        assert page.locator("#tournament-name").inner_text() == name
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the tournament page"
        page.goto(f"{live_server}/tournaments")
        page.locator(f"#tournament-items li[data-id='{tid}']").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the list"
        page.goto(f"{live_server}/members/{org.name}")
        page.locator(f"#member-tournament-items li[data-id='{tid}']").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the profile"
        assert org.errors == [] and other.errors == []
    finally:
        org.close()
        other.close()
