"""A profile's «Турниры» on a phone (issue 26 §Pages: profiles list the member's tournaments; phone first,
390 px): each line is the tournament's name as a link with a full tap target, then its game, format and
status — drawn as the lobby's list draws them, with no stray « · » opening the wrapped line."""

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
        assert facts == "Межа · Круговой · набор участников", facts
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert ann.errors == []
    finally:
        ann.close()
