"""Артания и Куявия in a real browser: one whole match against the easy bot, played by clicking.

Placement: a warrior in the hand is clicked for each slot of the step (once during the match the highlighted
slot is clicked first: that sends nothing and only says to pick a warrior in the hand — it used to place the
first warrior the step allowed, one the member never chose). Equipment windows: «Пас» is clicked
until, halfway through, the player ticks «пасовать автоматически, когда нечего сыграть» — from then on the
page passes by itself whenever «Пас» is the only legal action (the server still receives a pass).
"""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import pytest
from accounts import sign_up
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

MATCH_DEADLINE = 300.0  # a cap for a loaded machine; a match takes 20–50 s
JS_READY = """(s) => {
  const m = document.getElementById('match');
  if (!m || m.dataset.seq === undefined) return false;
  if (Number(m.dataset.seq) !== s) return true;
  if (!document.getElementById('result').hidden) return true;
  return document.getElementById('turn').textContent.trim() === 'Ваш ход';
}"""
JS_SEQ_ABOVE = "(s) => Number(document.getElementById('match')?.dataset.seq ?? -1) > s"


def _seq(page: Any) -> int:
    raw = page.get_attribute("#match", "data-seq")
    return int(raw) if raw is not None else -1


def _place(page: Any, by_slot: bool) -> None:
    """Pick warriors until the step is sent (one or two clicks); ``by_slot``: the empty slot is clicked first,
    and must send nothing but the hint."""
    before = _seq(page)
    if by_slot:
        page.locator(".art-slot-target").first.click(timeout=3000)
        page.wait_for_selector("#art-step.art-step-nudge")
        assert "Нажмите воина в руке" in page.locator("#art-step").inner_text()
        page.wait_for_timeout(300)
        placed = _seq(page) != before or page.locator(".art-card-picked").count()
        assert not placed, "a click on the empty slot placed a warrior"
    for _ in range(2):
        page.locator("#art-hand .art-card:enabled:not(.art-arch-equipment)").first.click(timeout=3000)
        try:
            page.wait_for_function(JS_SEQ_ABOVE, arg=before, timeout=1500)
            return
        except PlaywrightTimeout:
            continue


def _take_turn(page: Any, done: dict[str, int]) -> bool:
    """One decision by clicking; False if it is not our turn."""
    try:
        if page.locator("#result").is_visible():
            return False
        if page.locator("#turn").inner_text().strip() != "Ваш ход":
            return False
        if page.locator(".art-slot-target").count():
            by_slot = done["place"] == 2
            _place(page, by_slot)
            done["place"] += 1
            done["slot"] += int(by_slot)
            return True
        if done["pass"] >= 6 and not page.locator("#art-autopass").is_checked():
            page.locator("#art-autopass").check()
            done["auto"] = 1
            return True
        page.locator("#art-pass").click(timeout=3000)
        done["pass"] += 1
        return True
    except PlaywrightTimeout:
        return False


def test_play_the_easy_bot_to_the_end_by_clicking(live_server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    try:
        sign_up(context, live_server, "ak")
        page.goto(f"{live_server}/#artania")
        page.locator('.game-tab[data-game="artania"]').click()
        page.get_by_role("radio", name=re.compile("Куявия")).check()
        page.get_by_role("radio", name=re.compile("Лёгкий")).check()
        page.click("#play-bot")
        page.wait_for_url(re.compile(r"/matches/[^/]+$"))
        page.wait_for_function(JS_READY, arg=-1)

        assert page.locator("#art-field .art-pair").count() == 3
        assert page.locator("#art-field .art-slot").count() == 6
        assert page.locator("#art-me .art-token").count() == 5
        assert page.locator("#art-opp .art-token").count() == 5
        assert "Куявия" in page.locator("#art-me").inner_text()
        assert "Противоклассы" in page.locator("#side-game").inner_text()
        assert page.locator("#art-hand .art-card").count() == 5

        deadline = time.monotonic() + MATCH_DEADLINE
        done = {"place": 0, "pass": 0, "slot": 0, "auto": 0}
        saw_numbers = False
        while not page.locator("#result").is_visible():
            assert time.monotonic() < deadline, "the match vs the bot took too long"
            saw_numbers = saw_numbers or page.locator("#art-field .art-base").count() > 0
            assert "null" not in page.locator("#art-opp").inner_text()
            before = _seq(page)
            if _take_turn(page, done):
                if done["auto"] == 1:
                    done["auto"] = 2
                    continue
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_function(JS_SEQ_ABOVE, arg=before, timeout=5000)
            else:
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_function(JS_READY, arg=before, timeout=5000)
        text = page.locator("#result").inner_text()
        assert any(w in text for w in ("Победа", "Поражение", "Ничья")), text
        assert done["place"] >= 4 and done["slot"] == 1 and done["auto"] == 2
        assert saw_numbers, "the slots never showed their swords"
        log = page.locator("#log").inner_text()
        assert "в слот 1" in log and "пас" in log and "Кругляш" in log
        assert page.locator("#art-reveal").is_visible()
        assert "null" not in page.locator("#board").inner_text()
        assert not errors, errors
    finally:
        context.close()
