"""Сундук войны's controls while an action is in flight (the hunt for a refused move, issue 27's stop-45 QA):
the controls only ever send a member of ``legal``, and a tap on the controls still on screen after an action
was sent (a double tap, a tap while the answer is on its way) neither sends a second action nor changes the
choice — it used to light the hexes of every coin's actions of the tapped kind while the action was in
flight, and kept that half-made choice until the next state (static/js/warchest.js ``whenFree``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from duelclub.games.warchest import GAME
from duelclub.games.warchest.actions import WarchestOptions
from duelclub.words import words_for

pytestmark = pytest.mark.browser

JS_MOUNT = """async ({ catalog, msg }) => {
  const m = await import('/static/js/warchest.js');
  const root = document.createElement('div');
  root.id = 'board';
  (document.querySelector('main') || document.body).replaceChildren(root);
  window.sent = [];
  window.wcRenderer = m.createRenderer({ root, catalog, act: (a) => window.sent.push(a) });
  window.wcRenderer.render(msg);
}"""
JS_HOT = "() => [...document.querySelectorAll('#board g.wc-hot')].map((g) => Number(g.dataset.hex))"


def _mount(page: Any, base: str, state: Any, seat: int, legal: list[Any]) -> None:
    page.goto(f"{base}/login")
    msg = {"seq": 1, "seat": seat, "status": "active", "view": GAME.view(state, seat), "legal": legal}
    page.evaluate(JS_MOUNT, {"catalog": words_for("warchest").catalog(), "msg": msg})


def _first_turn() -> tuple[Any, int, list[Any], str]:
    """A first turn (random deal, no draft) whose hand holds a unit coin that can pass and deploy."""
    for i in range(50):
        s = GAME.new_match(random.Random(i).randbytes(32), WarchestOptions(expansions="base", draft="random"))
        seat = next(iter(GAME.to_move(s)))
        legal = [GAME.action_to_json(a) for a in GAME.legal_actions(s, seat)]
        for coin in sorted({a.get("coin") for a in legal if a["kind"] == "deploy"}):
            if {"kind": "pass", "coin": coin} in legal:
                return s, seat, legal, coin
    raise AssertionError("no such deal")


def test_a_second_tap_after_an_action_was_sent_changes_nothing(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU")
    try:
        page = context.new_page()
        state, seat, legal, coin = _first_turn()
        _mount(page, live_server, state, seat, legal)
        page.click(f'#wc-controls .wc-coin-btn[data-coin="{coin}"]')
        assert page.evaluate(JS_HOT) == []
        page.click('#wc-controls [data-kind="pass"]')
        assert page.evaluate("() => window.sent") == [{"kind": "pass", "coin": coin}]
        # The answer has not come: the old buttons are still there. A quick second tap on «Выставить»:
        page.locator('#wc-controls [data-kind="deploy"]').dispatch_event("click")
        assert page.evaluate("() => window.sent.length") == 1
        assert page.evaluate(JS_HOT) == [], "hexes lit while the action is in flight"
    finally:
        context.close()


def test_every_legal_action_of_a_turn_is_sent_as_listed(live_server: str, browser: Any) -> None:
    """Coin → action → value/hex for each legal action of a first turn: the act is that action, verbatim."""
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    try:
        page = context.new_page()
        state, seat, legal, _ = _first_turn()
        for action in legal:
            _mount(page, live_server, state, seat, legal)
            page.click(f'#wc-controls .wc-coin-btn[data-coin="{action["coin"]}"]')
            page.click(f'#wc-controls [data-kind="{action["kind"]}"]')
            for field in ("type", "to", "unit"):
                if page.evaluate("() => window.sent.length"):
                    break
                if field == "type" and "type" in action:
                    page.click(f'#wc-controls [data-value="{action["type"]}"]')
                elif field in action and action[field] in page.evaluate(JS_HOT):
                    page.dispatch_event(f'#board g.wc-hot[data-hex="{action[field]}"]', "click")
            assert page.evaluate("() => window.sent") == [action]
    finally:
        context.close()
