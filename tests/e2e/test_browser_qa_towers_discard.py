"""QA: Дві вежі showed the public discard pile only as a count.

With the normal deck the whole discard pile is public (rules/towers.md §8.3), so the side panel now has a
«Сброс: N» list to unfold, newest card first, each by name and cost (its text on hover).
"""

from __future__ import annotations

from typing import Any

import pytest

from duelclub.games.towers import GAME
from duelclub.games.towers.actions import TowersOptions
from duelclub.words import words_for

pytestmark = pytest.mark.browser

JS_MOUNT = """async ({ catalog, msg }) => {
  const m = await import('/static/js/towers.js');
  const root = document.createElement('div');
  const side = document.createElement('div');
  (document.querySelector('main') || document.body).replaceChildren(root, side);
  window.twRenderer = m.createRenderer({ root, side, catalog, act: () => {}, username: 'x' });
  window.twRenderer.render(msg);
}"""


def _msg(state: Any, seq: int) -> dict[str, Any]:
    return {"seq": seq, "seat": 0, "status": "active", "view": GAME.view(state, 0), "legal": []}


def test_discard_pile_is_listed_newest_first(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    try:
        page = context.new_page()
        page.goto(f"{live_server}/login")
        state = GAME.new_match(bytes(32), TowersOptions(deck="normal"))
        state.discard = [state.pile.pop(), state.pile.pop(), state.pile.pop()]
        page.evaluate(JS_MOUNT, {"catalog": words_for("towers").catalog(), "msg": _msg(state, 1)})
        pile = page.locator("#tw-discard-pile")
        assert "Сброс: 3" in pile.locator("summary").inner_text()
        pile.locator("summary").click()
        names = {c["id"]: c["name"] for c in words_for("towers").catalog()["cards"]}
        items = pile.locator("li")
        ids = items.evaluate_all("(els) => els.map((e) => Number(e.dataset.card))")
        assert ids == state.discard[::-1]
        assert names[state.discard[-1]] in items.first.inner_text()
        # a re-render (the next turn) keeps the list open and adds the new card on top
        state.discard.append(state.pile.pop())
        page.evaluate("(msg) => twRenderer.render(msg)", _msg(state, 2))
        assert page.locator("#tw-discard-pile").get_attribute("open") is not None
        assert page.locator("#tw-discard-pile li").count() == 4
        assert names[state.discard[-1]] in page.locator("#tw-discard-pile li").first.inner_text()
    finally:
        context.close()
