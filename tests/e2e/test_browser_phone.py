"""Phone first (issue 16 §2, §7): every game's match page at 390×844 against the bot — no sideways scroll,
and the board's key element and the hand both inside the viewport, the board not covered by the sticky hand;
the lobby on every game tab at 360 and 390 px; Дві вежі's hand above the fold on a 1366×900 desktop."""

from __future__ import annotations

from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
GAMES = {
    # slug: (options, the board's key element, the hand)
    "mezha": ({}, ".field-col:nth-child(3)", "#hand-panel"),
    "towers": ({}, "#tw-board svg", "#hand-panel"),
    "warchest": (
        {"expansions": "base", "draft": "random", "side": "wolf"},
        "#wc-board svg",
        "#wc-controls .wc-hand",
    ),
    "artania": ({}, "#art-field", ".art-hand-panel"),
}
JS_BOTH_IN_VIEW = """([board, hand]) => {
  const b = document.querySelector(board), h = document.querySelector(hand);
  const vh = window.innerHeight, vw = window.innerWidth;
  // put the board's top just under the page top, as a member scrolls to it
  window.scrollTo(0, b.getBoundingClientRect().top + window.scrollY - 8);
  const rb = b.getBoundingClientRect(), rh = h.getBoundingClientRect();
  const inside = (r) =>
    r.width > 0 && r.height > 0 && r.top < vh && r.bottom > 0 && r.left >= -1 && r.right <= vw + 1;
  const x = rb.left + rb.width / 2, y = rb.top + Math.min(rb.height / 2, (vh - rb.top) / 3);
  const hit = document.elementFromPoint(x, y);
  return { board: inside(rb), hand: inside(rh), uncovered: Boolean(hit && hit.closest(board)) };
}"""


@pytest.mark.parametrize("slug", list(GAMES))
def test_match_page_fits_a_phone(live_server: str, browser: Any, slug: str) -> None:
    options, board, hand = GAMES[slug]
    context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True, is_mobile=True)
    errors: list[str] = []
    try:
        sign_up(context, live_server, "ph")
        made = context.request.post(
            f"{live_server}/api/matches",
            data={"game": slug, "vs": "bot", "bot_level": "easy", "options": options},
        )
        assert made.status == 201, made.text()
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{live_server}/matches/{made.json()['id']}")
        page.locator(board).first.wait_for()
        page.locator(hand).first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        seen = page.evaluate(JS_BOTH_IN_VIEW, [board, hand])
        assert seen == {"board": True, "hand": True, "uncovered": True}, seen
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("width", [360, 390])
def test_lobby_has_no_sideways_scroll_on_any_tab(live_server: str, browser: Any, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="ru-RU", has_touch=True)
    try:
        sign_up(context, live_server, "pl")
        page = context.new_page()
        page.goto(f"{live_server}/")
        for slug in GAMES:
            page.locator(f'.game-tab[data-game="{slug}"]').click()
            assert page.evaluate("document.documentElement.scrollWidth") <= width, slug
    finally:
        context.close()


def test_towers_hand_is_above_the_fold_on_a_desktop(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    try:
        sign_up(context, live_server, "pd")
        made = context.request.post(
            f"{live_server}/api/matches", data={"game": "towers", "vs": "bot", "bot_level": "easy"}
        )
        page = context.new_page()
        page.goto(f"{live_server}/matches/{made.json()['id']}")
        card = page.locator("#hand [data-card]").first
        card.wait_for()
        box = card.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 900, box  # a whole card without scrolling
    finally:
        context.close()
