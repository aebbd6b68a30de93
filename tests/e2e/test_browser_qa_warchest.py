"""QA: Сундук войны says clearly whose turn it is and why the match ended.

Seen by a new member: «Ваш ход» was a grey pill (the renderer used CSS classes that do not exist, so it was
not highlighted as in the other games), a spectator read «Ход соперника», and a match won by control ended
with «Причина: control.» (the engine's code, untranslated).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser

JS_SPECTATOR_TURN = "() => /^Ходит (Волк|Ворон)$/.test(document.getElementById('turn').textContent.trim())"
CASES = [[0, 0, "control"], [0, 1, "control"], [None, 1, "control"], [0, None, "round_limit"]]
JS_OUTCOME = """async (args) => {
  const m = await import('/static/js/warchest.js');
  const r = m.createRenderer({ root: document.createElement('div'), catalog: {} });
  const view = { wolf_seat: 1, phase: 'over' };
  return args.map(([seat, winner, reason]) => r.outcome({ seat, view, result: { winner, reason } }));
}"""


def test_turn_is_highlighted_and_named_for_a_spectator(live_server: str, browser: Any) -> None:
    player = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU")
    watcher = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ru-RU")
    try:
        sign_up(player, live_server, "wcq")
        sign_up(watcher, live_server, "wcw")
        made = player.request.post(
            f"{live_server}/api/matches",
            data={
                "game": "warchest",
                "vs": "bot",
                "bot_level": "easy",
                "options": {"draft": "random", "side": "raven"},
            },
        )
        assert made.status == 201, made.text()
        match_id = made.json()["id"]
        page = player.new_page()
        page.goto(f"{live_server}/matches/{match_id}")
        page.wait_for_function("() => document.getElementById('turn').textContent.trim() === 'Ваш ход'")
        assert "turn-mine" in (page.get_attribute("#turn", "class") or "")

        spy = watcher.new_page()
        spy.goto(f"{live_server}/matches/{match_id}")
        spy.wait_for_function(JS_SPECTATOR_TURN)
        assert "соперник" not in spy.locator("#turn").inner_text()

        page.click("#resign")
        page.click("#resign-confirm")
        page.locator("#result").wait_for(state="visible")
        text = page.locator("#result").inner_text()
        assert "Поражение" in text and "Вы сдались" in text, text
        assert not re.search(r"[A-Za-z]", page.locator("#result-reason").inner_text())
    finally:
        player.close()
        watcher.close()


def test_result_reasons_are_in_russian(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="ru-RU")
    try:
        page = context.new_page()
        page.goto(f"{live_server}/login")
        got = page.evaluate(JS_OUTCOME, CASES)
        # (result lines name the winner and the cause as a sentence, issue 16 §4)
        assert got[0] == {
            "kind": "win",
            "text": "Победа",
            "reason": "Вы первыми выставили все свои маркеры контроля",
        }
        assert got[1]["kind"] == "loss" and got[1]["text"] == "Поражение"
        assert got[1]["reason"] == "Соперник первым выставил все свои маркеры контроля"
        assert got[2]["text"] == "Победа: Волк" and got[2]["reason"].startswith("Волк первым выставил")
        assert got[3] == {"kind": "draw", "text": "Ничья", "reason": "Сыграно 100 раундов без победителя"}
    finally:
        context.close()
