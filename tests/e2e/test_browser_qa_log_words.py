"""QA: the result words agree in person and number («Ваша башня разрушена»).

Seen by a new member: Дві вежі «башня ваша разрушена», «соперник трижды подряд не успели сходить». (Артания's
«Вы берёт 3 карты» is worded on the server now: tests/games/test_artania_words.py.)
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

JS_TOWERS = """async () => {
  const m = await import('/static/js/towers.js');
  const out = [];
  for (const [seat, winner, reason] of [[0, 1, 'destruction'], [0, 0, 'timeout'], [0, 1, 'timeout']]) {
    const r = m.createRenderer({ root: document.createElement('div'), catalog: {}, username: 'qa' });
    out.push(r.outcome({ seat, view: { you: seat, targets: { tower: 50, resource: 150 } },
                         result: { winner, reason } }).reason);
  }
  return out;
}"""


def test_towers_words(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="ru-RU")
    try:
        page = context.new_page()
        page.goto(f"{live_server}/login")
        lost, won, lost_clock = page.evaluate(JS_TOWERS)
        assert lost == "Ваша башня разрушена", lost
        assert won == "Соперник трижды подряд не успел сходить", won
        assert lost_clock == "Вы трижды подряд не успели сходить", lost_clock
    finally:
        context.close()
