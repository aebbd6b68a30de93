"""What just happened is visible on the board (issue 16 §3, §7): in every game the bot's last action is marked
(the unit placed or moved and its path, the slot filled, the cards played and the towers they changed), with a
legend and an animation switch; under prefers-reduced-motion nothing is animated."""

from __future__ import annotations

import time
from typing import Any

import pytest
from live_helpers import Member, api_move

pytestmark = pytest.mark.browser

GAMES = {
    "mezha": {},
    "towers": {},
    "warchest": {"expansions": "base", "draft": "random", "side": "wolf"},
    "artania": {},
}
MARKED = ".last-move, .wc-last"
JS_ANIMATED = """() => [...document.querySelectorAll('.last-fresh, .wc-last-fresh')]
  .some((n) => getComputedStyle(n).animationName !== 'none')"""


def play_until_marked(m: Member, match_id: str, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not m.page.locator(MARKED).count():
        assert time.monotonic() < deadline, "the bot's last action was never marked"
        st = m.get(f"/api/matches/{match_id}/state")
        assert st["status"] == "active", "the match ended before the bot did anything visible"
        if api_move(m, match_id) is None:
            time.sleep(0.1)
        else:
            m.page.wait_for_timeout(150)


@pytest.mark.parametrize("slug", list(GAMES))
def test_the_bots_last_action_is_marked(live_server: str, browser: Any, slug: str) -> None:
    m = Member(browser, live_server, "lm")
    try:
        made = m.post(
            "/api/matches", {"game": slug, "vs": "bot", "bot_level": "easy", "options": GAMES[slug]}
        )
        m.open_match(made["id"])
        assert m.page.locator("#last-legend").is_visible()
        play_until_marked(m, made["id"])
        # the legend lives in the header: the board and the side column stay the layout's two cells
        assert m.page.evaluate("document.querySelectorAll('.match-layout > *').length") == 2
        assert not m.errors, m.errors
    finally:
        m.close()


def test_the_animation_can_be_switched_off_and_respects_reduced_motion(
    live_server: str, browser: Any
) -> None:
    m = Member(browser, live_server, "la")
    try:
        made = m.post("/api/matches", {"game": "towers", "vs": "bot", "bot_level": "easy"})
        m.open_match(made["id"])
        assert m.page.locator("#move-anim").is_checked()
        m.page.uncheck("#move-anim")
        assert not m.page.evaluate("document.body.classList.contains('move-anim')")
        m.page.emulate_media(reduced_motion="reduce")
        m.page.check("#move-anim")
        play_until_marked(m, made["id"])
        assert not m.page.evaluate(JS_ANIMATED)
    finally:
        m.close()
