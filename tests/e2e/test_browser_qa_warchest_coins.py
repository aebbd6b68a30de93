"""QA: unit names on the Сундук войны board coins were cut mid-word («Мечн», «Рыца»).

Each coin now shows a recognisable short name (a whole word or a word cut at a syllable with a dot) that fits
inside the coin, and the coin's <title> gives the full name and the card text (hover / long tap).
"""

from __future__ import annotations

from typing import Any

import pytest
from warchest_page import crowded_state, mount

from duelclub.games.warchest.units import UNIT

pytestmark = pytest.mark.browser

JS_COINS = """() => [...document.querySelectorAll('#board .wc-hex')]
  .filter((g) => g.querySelector('.wc-coin'))
  .map((g) => {
    const coin = g.querySelector('.wc-coin').getBoundingClientRect();
    const name = g.querySelector('.wc-unit-name');
    const box = name.getBoundingClientRect();
    return { hex: Number(g.dataset.hex), name: name.textContent, title: g.querySelector('title').textContent,
             inside: box.left >= coin.left - 0.5 && box.right <= coin.right + 0.5 };
  })"""


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)])
def test_coin_names_fit_and_are_whole_or_marked_short(live_server: str, browser: Any, size: Any) -> None:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="ru-RU")
    try:
        page = context.new_page()
        state = crowded_state()
        mount(page, live_server, state, 0)
        coins = page.evaluate(JS_COINS)
        assert len(coins) == 24
        for c in coins:
            full = UNIT[state.units[c["hex"]].type].ru
            name = c["name"]
            assert c["inside"], c
            assert full in c["title"], c
            # a whole word of the full name, or an abbreviation marked with a dot («Знам.», «Л. кав.»)
            words = full.replace("-", " ").title().split()
            assert name in words or name == full or name.endswith("."), (name, full)
    finally:
        context.close()
