"""QA: the event log and result words agree in person and number («Вы берёте», not «Вы берёт»).

Seen by a new member: Артания «Вы берёт 3 карты», «кругляш берёт вы»; Дві вежі «башня ваша разрушена»,
«соперник трижды подряд не успели сходить».
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

JS_ARTANIA = """async () => {
  const m = await import('/static/js/artania.js');
  const r = m.createRenderer({ root: document.createElement('div'), catalog: {}, username: 'qa' });
  r.outcome({ seat: 0, result: { winner: 0, reason: 'tokens' } });  // fixes the viewer's seat: 0
  return [
    r.describe({ kind: 'draw', seat: 0, count: 3, reason: 'turn', cards: [] }).text,
    r.describe({ kind: 'draw', seat: 1, count: 1, reason: 'chasy' }).text,
  ];
}"""
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


def test_artania_and_towers_words(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="ru-RU")
    try:
        page = context.new_page()
        page.goto(f"{live_server}/login")
        mine, theirs = page.evaluate(JS_ARTANIA)
        assert mine.startswith("Вы берёте 3 карты"), mine
        assert theirs.startswith("Соперник берёт 1 карту"), theirs
        lost, won, lost_clock = page.evaluate(JS_TOWERS)
        assert lost == "Ваша башня разрушена", lost
        assert won == "Соперник трижды подряд не успел сходить", won
        assert lost_clock == "Вы трижды подряд не успели сходить", lost_clock
    finally:
        context.close()
