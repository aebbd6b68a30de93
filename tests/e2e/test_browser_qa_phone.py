"""QA on a phone (390×844): the sticky hand bar must leave the game readable.

Seen by a new member: in Дві вежі the hand (six cards in a two-column grid) made the sticky bottom bar taller
than half the screen, so with the towers in view it covered the player's own counters, and further down it
covered the towers themselves: the board could not be read together with the hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
JS_SCROLL_TO = "(s) => window.scrollTo(0, document.querySelector(s).getBoundingClientRect().top + scrollY)"
JS_UNCOVERED = """(sel) => {
  const box = document.querySelector(sel).getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return Boolean(hit && hit.closest(sel));
}"""


def test_towers_hand_bar_leaves_the_board_readable(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True)
    try:
        sign_up(context, live_server, "twp")
        made = context.request.post(
            f"{live_server}/api/matches", data={"game": "towers", "vs": "bot", "bot_level": "easy"}
        )
        assert made.status == 201, made.text()
        page = context.new_page()
        page.goto(f"{live_server}/matches/{made.json()['id']}")
        page.locator("#hand [data-card]").first.wait_for()
        assert page.locator("#hand [data-card]").count() == 6

        panel = page.locator("#hand-panel").bounding_box()
        assert panel is not None and panel["height"] <= 0.45 * PHONE["height"], panel

        page.evaluate(JS_SCROLL_TO, "#tw-opp")
        page.wait_for_timeout(200)
        for part in ("#tw-opp", "#tw-board .tw-mine", "#tw-board .tw-theirs", "#tw-me"):
            assert page.evaluate(JS_UNCOVERED, part), f"{part} is covered by the hand bar"
    finally:
        context.close()
