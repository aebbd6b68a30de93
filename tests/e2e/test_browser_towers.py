"""Дві вежі in a real browser: one whole match against the easy bot, played by clicking.

Each of our decisions is made as a person would: click the first playable card in the hand, or — when none
is playable — discard one with its «Сбросить» button; once during the match a card is discarded by a
right-click instead. At «Візьміть карту, скиньте карту» the clicked card is the one discarded. The board (two
towers drawn as SVG with the victory line), the resources, the hand, the opponent's last cards and the log
are checked on the way.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from accounts import sign_up
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

MATCH_DEADLINE = 300.0  # a cap for a loaded machine; a match takes 20–50 s
MY_TURN = ("Ваш ход", "Ваш ход (ещё действие)", "Сбросьте карту")
JS_READY = """(s) => {
  const m = document.getElementById('match');
  if (!m || m.dataset.seq === undefined) return false;
  if (Number(m.dataset.seq) !== s) return true;
  if (!document.getElementById('result').hidden) return true;
  const t = document.getElementById('turn').textContent.trim();
  return t.startsWith('Ваш ход') || t === 'Сбросьте карту';
}"""
JS_SEQ_ABOVE = "(s) => Number(document.getElementById('match')?.dataset.seq ?? -1) > s"


def _seq(page: Any) -> int:
    raw = page.get_attribute("#match", "data-seq")
    return int(raw) if raw is not None else -1


def _take_turn(page: Any, right_click: bool) -> str | None:
    """One decision by clicking: "play", "discard" or "right"; None if it is not our turn."""
    try:
        if page.locator("#result").is_visible():
            return None
        turn = page.locator("#turn").inner_text().strip()
        if turn not in MY_TURN:
            return None
        if turn == "Сбросьте карту":
            page.locator("#hand [data-card]:enabled").first.click(timeout=3000)
            return "discard"
        playable = page.locator("#hand [data-card]:enabled:not([aria-disabled])")
        if right_click:
            # The last card may be unaffordable (dimmed, aria-disabled): a right-click still discards it, so
            # skip Playwright's "enabled" wait, which counts aria-disabled as disabled.
            page.locator("#hand [data-card]").last.click(button="right", force=True, timeout=3000)
            return "right"
        if playable.count():
            playable.first.click(timeout=3000)
            return "play"
        page.locator("#hand button[data-discard]:enabled").first.click(timeout=3000)
        return "discard"
    except PlaywrightTimeout:
        return None


def test_play_the_easy_bot_to_the_end_by_clicking(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    try:
        sign_up(context, live_server, "tw")
        page.goto(f"{live_server}/#towers")
        page.locator('.game-tab[data-game="towers"]').click()
        page.get_by_role("radio", name=re.compile("Цитадель Архімага")).check()
        page.get_by_role("radio", name=re.compile("Бесконечная")).check()  # options in the reader's language
        page.get_by_role("radio", name=re.compile("Лёгкий")).check()
        page.click("#play-bot")
        page.wait_for_url(re.compile(r"/matches/[^/]+$"))
        page.wait_for_function(JS_READY, arg=-1)

        assert page.locator("#tw-board svg .tw-tower").count() == 2
        assert page.locator("#tw-board svg .tw-target").count() == 1
        assert "цель: башня 50" in page.locator("#tw-board").inner_text()
        assert page.locator("#tw-me .tw-res").count() == 3 and page.locator("#tw-opp .tw-res").count() == 3
        assert page.locator("#hand [data-card]").count() == 6
        assert "Бесконечная колода" in page.locator("#tw-deck").inner_text()
        assert "Цитадель Архімага" in page.locator("#tw-side").inner_text()
        assert "null" not in page.locator("#tw-side").inner_text()  # no discard pile with the infinite deck

        deadline = time.monotonic() + MATCH_DEADLINE
        done: dict[str, int] = {"play": 0, "discard": 0, "right": 0}
        saw_last = False
        while not page.locator("#result").is_visible():
            assert time.monotonic() < deadline, "the match vs the bot took too long"
            saw_last = saw_last or page.locator("#tw-last-opp [data-shown]").count() > 0
            before = _seq(page)
            what = _take_turn(page, right_click=done["play"] >= 2 and not done["right"])
            if what is not None:
                done[what] += 1
                page.wait_for_function(JS_SEQ_ABOVE, arg=before)
            elif page.locator("#turn").inner_text().strip() in MY_TURN:
                page.wait_for_timeout(100)  # a click landed on a re-rendered hand: try again
            else:
                page.wait_for_function(JS_READY, arg=before)
        text = page.locator("#result").inner_text()
        assert any(w in text for w in ("Победа", "Поражение", "Ничья")), text
        assert done["play"] >= 2 and done["right"] == 1
        assert saw_last, "the opponent's last cards were never shown"
        log = page.locator("#log").inner_text()
        assert "играет «" in log and "Вы играете «" in log and "сбрасываете «" in log
        assert not errors, errors
    finally:
        context.close()
