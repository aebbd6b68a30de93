"""QA: the Сундук войны log names hexes the way the board shows them.

The log read «выставляет Граф на (-1,-2)», axial coordinates the board never drew. Now every hex carries
a small label (row letter А…Ж, number in the row), and the log and the admins' action log use the same label.
"""

from __future__ import annotations

from typing import Any

import pytest
from warchest_page import crowded_state, mount

from duelclub.words.warchest import HEX_LABELS

pytestmark = pytest.mark.browser

JS_LABELS = """() => [...document.querySelectorAll('#board .wc-hex')].map((g) =>
  [Number(g.dataset.hex), g.querySelector('.wc-hex-label')?.textContent ?? null])"""

# Hexes whose label's box has a corner outside the hex's polygon (SVG user units, both in one <g>).
JS_LABEL_OUTSIDE = """() => [...document.querySelectorAll('#board .wc-hex')].filter((g) => {
  const poly = g.querySelector('polygon');
  const b = g.querySelector('.wc-hex-label').getBBox();
  const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]];
  return corners.some(([x, y]) => !poly.isPointInFill(new DOMPoint(x, y)));
}).map((g) => [g.dataset.hex, g.querySelector(".wc-hex-label").textContent])"""


def test_every_hex_shows_the_label_the_log_uses(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    try:
        page = context.new_page()
        mount(page, live_server, crowded_state(), 0)
        labels = page.evaluate(JS_LABELS)
        assert len(labels) == 37
        assert all(text == HEX_LABELS[h] for h, text in labels), labels
        # the admins' action log speaks the same labels
        text = page.evaluate("() => wcRenderer.actionText({kind: 'move', coin: 'pikeman', unit: 18, to: 19})")
        assert "Г4" in text and "Г5" in text and "(" not in text, text
        box = page.locator('#board .wc-hex[data-hex="18"] .wc-hex-label').bounding_box()
        assert box and box["height"] >= 6  # drawn, readable size
        # each label lies inside its own hex (it used to straddle the bottom corner and the borders)
        outside = page.evaluate(JS_LABEL_OUTSIDE)
        assert outside == [], outside
    finally:
        context.close()
