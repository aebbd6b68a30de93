"""«Ваш ход» everywhere (issue 16 §6, §7): the header badge counts the member's matches waiting for their
move, live on any page (here the account page, another tab), with the tab title «(1) Ваш ход — Дуэль-клуб»."""

from __future__ import annotations

from typing import Any

import pytest
from live_helpers import Member, api_move, duel

pytestmark = pytest.mark.browser

JS_COUNT = "(n) => document.getElementById('turn-badge').dataset.count === String(n)"


def test_the_badge_counts_a_waiting_match_live(live_server: str, browser: Any) -> None:
    a, b = Member(browser, live_server, "tba"), Member(browser, live_server, "tbb")
    try:
        for m in (a, b):
            m.page.goto(f"{live_server}/account")
        match_id = duel(a, b, "mezha", {"house": "olkha"})
        st = a.get(f"/api/matches/{match_id}/state")
        mover, other = (a, b) if st["seat"] in st["to_move"] else (b, a)
        # pages opened before the match started would find it at the next re-list: open them again now
        for m in (mover, other):
            m.page.reload()
        mover.page.wait_for_function(JS_COUNT, arg=1)
        assert mover.page.locator("#turn-badge").is_visible()
        assert mover.page.title() == "(1) Ваш ход — Дуэль-клуб"
        other.page.wait_for_function(JS_COUNT, arg=0)
        assert not other.page.locator("#turn-badge").is_visible()
        assert other.page.title() == "Профиль — Дуэль-клуб"

        assert api_move(mover, match_id) is not None  # the move is pushed: the badge changes sides live
        other.page.wait_for_function(JS_COUNT, arg=1)
        assert other.page.title().startswith("(1) ")
        mover.page.wait_for_function(JS_COUNT, arg=0)
        assert not a.errors and not b.errors, a.errors + b.errors
    finally:
        a.close()
        b.close()
