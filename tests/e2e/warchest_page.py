"""Mount the Сундук войны renderer on a bare page with a view built here (no match needed): QA tests."""

from __future__ import annotations

from typing import Any

from duelclub.games.warchest import GAME
from duelclub.games.warchest.actions import WarchestOptions
from duelclub.games.warchest.board import HEX_ID
from duelclub.games.warchest.state import State, Unit
from duelclub.games.warchest.units import UNIT_TYPES
from duelclub.words import words_for

JS_MOUNT = """async ({ catalog, msg }) => {
  if (!document.querySelector('link[data-wc]')) {
    const link = document.createElement('link');
    link.rel = 'stylesheet'; link.href = '/static/css/warchest.css'; link.dataset.wc = '1';
    document.head.append(link);
    await new Promise((ok) => { link.onload = ok; link.onerror = ok; });
  }
  const m = await import('/static/js/warchest.js');
  const root = document.createElement('div');
  root.id = 'board';
  const main = document.querySelector('main') || document.body;
  main.replaceChildren(root);
  window.wcRenderer = m.createRenderer({ root, catalog, act: () => {} });
  window.wcRenderer.render(msg);
}"""


def crowded_state() -> State:
    """A play-phase state with one unit of every type on the board (long names side by side)."""
    s: State = GAME.new_match(bytes(32), WarchestOptions(expansions="both", draft="random"))
    hexes = sorted(HEX_ID.values())
    for i, u in enumerate(UNIT_TYPES):
        s.uid += 1
        s.units[hexes[i + 6]] = Unit(i % 2, u.id, 1 + i % 3, 0, s.uid)
    return s


def mount(page: Any, base: str, state: State, seat: int | None) -> None:
    """Open a plain page of the club and render ``state`` as ``seat`` sees it."""
    page.goto(f"{base}/login")
    msg = {"seq": 1, "seat": seat, "status": "active", "view": GAME.view(state, seat), "legal": []}
    page.evaluate(JS_MOUNT, {"catalog": words_for("warchest").catalog(), "msg": msg})


__all__ = ["crowded_state", "mount"]
