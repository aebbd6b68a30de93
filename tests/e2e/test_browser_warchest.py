"""Сундук войны in a real browser: draft and play one whole match against the easy bot by clicking.

Each of our turns is made as a person would: a draft card; then a coin from the hand and «Пас» (or
«Отказаться» in a follow-up decision), so the bot wins in a few rounds and the test stays fast. The
board, the draft cards and the log are checked on the way.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from accounts import sign_up
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

MATCH_DEADLINE = 300.0  # a cap for a loaded machine; a match takes about 20 s
JS_READY = """(s) => {
  const m = document.getElementById('match');
  if (!m || m.dataset.seq === undefined) return false;
  if (Number(m.dataset.seq) !== s) return true;
  if (!document.getElementById('result').hidden) return true;
  const t = document.getElementById('turn').textContent.trim();
  return t === 'Ваш ход' || t === 'Драфт: ваш выбор';
}"""
JS_SEQ_ABOVE = "(s) => Number(document.getElementById('match')?.dataset.seq ?? -1) > s"


def _seq(page: Any) -> int:
    raw = page.get_attribute("#match", "data-seq")
    return int(raw) if raw is not None else -1


def _take_turn(page: Any) -> bool:
    """One of our decisions by clicking; False if it is not our turn (or the page re-rendered under us)."""
    try:
        return _click_turn(page)
    except PlaywrightTimeout:
        return False


def _click_turn(page: Any) -> bool:
    if page.locator("#result").is_visible():
        return False
    turn = page.locator("#turn").inner_text().strip()
    if turn == "Драфт: ваш выбор":
        page.locator("#wc-draft .wc-card.wc-hot").first.click(timeout=3000)
        return True
    if turn != "Ваш ход":
        return False
    coins = page.locator("#wc-controls [data-coin]")
    if coins.count():
        coins.first.click(timeout=3000)
        page.locator("#wc-controls [data-kind]").first.wait_for(timeout=3000)
    for kind in ("pass", "decline"):
        button = page.locator(f'#wc-controls [data-kind="{kind}"]')
        if button.count():
            button.first.click(timeout=3000)
            return True
    page.locator("#wc-controls [data-kind]").first.click(timeout=3000)
    for _ in range(6):  # parameters: highlighted hexes or value buttons, until the action is sent
        values = page.locator("#wc-controls [data-value]")
        hexes = page.locator("#board .wc-hot[data-hex]")
        if values.count():
            values.first.click(timeout=3000)
        elif hexes.count():
            hexes.first.click(timeout=3000)
        else:
            break
    return True


def test_draft_and_play_the_easy_bot_to_the_end(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    try:
        sign_up(context, live_server, "wc")
        page.goto(f"{live_server}/#warchest")
        page.locator('.game-tab[data-game="warchest"]').click()
        page.get_by_role("radio", name=re.compile("Знать и Ночь")).check()
        page.get_by_role("radio", name=re.compile("^Ворон")).check()
        page.get_by_role("radio", name=re.compile("Лёгкий")).check()
        page.click("#play-bot")
        page.wait_for_url(re.compile(r"/matches/[^/]+$"))
        page.wait_for_function(JS_READY, arg=-1)
        assert page.locator("#wc-draft .wc-card").count() == 24  # the whole pool, both expansions
        assert "Тактика" in page.locator("#wc-draft").inner_text()

        deadline = time.monotonic() + MATCH_DEADLINE
        moves = 0
        saw_board = False
        while not page.locator("#result").is_visible():
            assert time.monotonic() < deadline, "the match vs the bot took too long"
            saw_board = saw_board or page.locator("#board .wc-hex").count() == 37
            before = _seq(page)
            if _take_turn(page):
                moves += 1
                page.wait_for_function(JS_SEQ_ABOVE, arg=before)
            elif page.locator("#turn").inner_text().strip() in ("Ваш ход", "Драфт: ваш выбор"):
                page.wait_for_timeout(100)  # a click landed on a re-rendered panel: try again
            else:
                page.wait_for_function(JS_READY, arg=before)
        text = page.locator("#result").inner_text()
        assert "Поражение" in text, text
        assert saw_board and moves > 4
        log = page.locator("#log").inner_text()
        assert "выбирает отряд" in log and "берёт под контроль" in log
        # the replay names the actors as the other games do (it said the member's own username)
        page.locator("#replay-moves button[data-seq]").nth(1).wait_for()
        moves_text = page.locator("#replay-moves").inner_text()
        assert "Вы: " in moves_text and "Соперник: " in moves_text, moves_text[:300]
        assert not errors, errors
    finally:
        context.close()
