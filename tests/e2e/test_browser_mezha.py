"""Межа in a real browser: register, play the bot to the end, and play a live match between two accounts.

Every move is made by clicking, as a person would: a card in hand, then a highlighted field of one's own half,
or «Пас»; «Следующий сезон» in the pause. The tests wait on the page's own hooks (``#match[data-seq]``, the
result banner) through Playwright's auto-waiting, never on fixed sleeps.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
import time
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PASSWORD = "e2e-Password-42"
MATCH_DEADLINE = 50.0  # seconds for one whole match
HEX64 = re.compile(r"^[0-9a-f]{64}$")

# True when the page may act now or something changed since seq `s`.
JS_READY = """(s) => {
  const m = document.getElementById('match');
  if (!m || m.dataset.seq === undefined) return false;
  if (Number(m.dataset.seq) !== s) return true;
  if (!document.getElementById('result').hidden) return true;
  const n = document.getElementById('next-season');
  if (n && !n.hidden && !n.disabled) return true;
  return document.getElementById('turn').textContent.trim() === 'Ваш ход';
}"""
JS_SEQ_ABOVE = "(s) => Number(document.getElementById('match')?.dataset.seq ?? -1) > s"
JS_SEQ_AT_LEAST = "(s) => Number(document.getElementById('match')?.dataset.seq ?? -1) >= s"


def _new_page(browser: Any) -> tuple[Any, Any, list[str]]:
    """A fresh context (own cookies) and page; page errors are collected into the returned list."""
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if _unexpected(msg) else None)
    return context, page, errors


def _unexpected(msg: Any) -> bool:
    """A console error other than the browser's note on an expected 401 (session check right after login)."""
    return msg.type == "error" and "status of 401" not in msg.text


def _username(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(4)}"


def _register(page: Any, base: str, username: str, *, at_form: bool = False) -> None:
    """Fill the registration form (opening it unless ``at_form``) and submit it."""
    if not at_form:
        page.goto(f"{base}/register")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD)
    page.click("#auth-form button[type=submit]")


def _seq(page: Any) -> int:
    raw = page.get_attribute("#match", "data-seq")
    return int(raw) if raw is not None else -1


def _finished(page: Any) -> bool:
    return bool(page.locator("#result").is_visible())


def _take_turn(page: Any, rng: random.Random) -> bool:
    """Act once if this page may act now (returns True): a legal card onto a highlighted field, a pass,
    or «Следующий сезон» in the pause."""
    if _finished(page):
        return False
    next_season = page.locator("#next-season")
    if next_season.is_visible() and next_season.is_enabled():
        next_season.click()
        return True
    if page.locator("#turn").inner_text().strip() != "Ваш ход":
        return False
    cards = page.locator("#hand [data-card]:enabled")
    count = cards.count()
    if count and rng.random() < 0.8:
        cards.nth(rng.randrange(count)).click()
        fields = page.locator(".half-me.droppable[data-field]")
        fields.first.wait_for(state="visible")
        fields.nth(rng.randrange(fields.count())).click()
    else:
        pass_button = page.locator("#pass")
        if not (pass_button.is_visible() and pass_button.is_enabled()):
            return False  # the turn text was read just before a new state (a season's end): look again
        pass_button.click()
    return True


def _check_fairness(page: Any, commitment: str) -> None:
    """After the end: the revealed server seed opens the commitment shown from the start (fairness.md)."""
    match_id = page.get_attribute("#match", "data-match-id")
    seed = page.locator("#server-seed")
    seed.wait_for(state="visible")
    server_seed = seed.inner_text().strip()
    assert HEX64.match(server_seed), server_seed
    digest = hashlib.sha256(
        b"duelclub/v1/commit\0" + bytes.fromhex(server_seed) + b"\0" + match_id.encode()
    ).hexdigest()
    assert digest == commitment


def _result_text(page: Any) -> str:
    text = page.locator("#result").inner_text()
    assert any(word in text for word in ("Победа", "Поражение", "Ничья")), text
    return text


def test_play_the_easy_bot_to_the_end(live_server: str, browser: Any) -> None:
    context, page, errors = _new_page(browser)
    try:
        _register(page, live_server, _username("bot"))
        page.wait_for_url(f"{live_server}/")
        page.get_by_role("radio", name=re.compile("Дом Горна")).check()
        page.get_by_role("radio", name=re.compile("Лёгкий")).check()
        page.click("#play-bot")
        page.wait_for_url(re.compile(r"/matches/[^/]+$"))

        page.wait_for_function(JS_READY, arg=-1)
        commitment = page.locator("#commitment").inner_text().strip()
        assert HEX64.match(commitment), commitment  # shown from the start
        assert page.locator("#server-seed").is_hidden()
        assert page.locator("[data-field]").count() == 3
        assert page.locator("#omen").inner_text().strip().startswith("Примета")

        rng = random.Random(7)
        deadline = time.monotonic() + MATCH_DEADLINE
        moves = 0
        while not _finished(page):
            assert time.monotonic() < deadline, "the match vs the bot took too long"
            before = _seq(page)
            if _take_turn(page, rng):
                moves += 1
                page.wait_for_function(JS_SEQ_ABOVE, arg=before)
            else:
                page.wait_for_function(JS_READY, arg=before)

        _result_text(page)
        assert moves > 3
        assert page.locator("#log li").count() > moves
        assert "Сезон 1" in page.locator("#log").inner_text()
        _check_fairness(page, commitment)
        assert page.locator("#resign").is_hidden()
        assert not errors, errors
    finally:
        context.close()


def test_resign_against_the_bot(live_server: str, browser: Any) -> None:
    context, page, errors = _new_page(browser)
    try:
        _register(page, live_server, _username("res"))
        page.wait_for_url(f"{live_server}/")
        page.click("#play-bot")
        page.wait_for_url(re.compile(r"/matches/[^/]+$"))
        page.wait_for_function(JS_READY, arg=-1)
        page.click("#resign")
        page.click("#resign-confirm")
        page.locator("#result").wait_for(state="visible")
        assert "Поражение" in _result_text(page)
        assert "сдал" in page.locator("#log").inner_text()
        assert not errors, errors
    finally:
        context.close()


def test_two_players_play_a_live_match_by_invite(live_server: str, browser: Any) -> None:
    ctx_a, a, errors_a = _new_page(browser)
    ctx_b, b, errors_b = _new_page(browser)
    try:
        # A opens an invite for Дом Ольхи.
        _register(a, live_server, _username("alice"))
        a.wait_for_url(f"{live_server}/")
        a.get_by_role("radio", name=re.compile("Дом Ольхи")).check()
        a.click("#invite-friend")
        a.locator("#invite-box").wait_for(state="visible")
        invite_url = a.locator("#invite-url").input_value()
        commitment = a.locator("#invite-commitment").inner_text().strip()
        assert "/invite/" in invite_url
        assert HEX64.match(commitment), commitment

        # B, not logged in, follows the link: login first → registration → back to the invite.
        b.goto(invite_url)
        b.wait_for_url(re.compile(r"/login\?next="))
        b.click("#switch-link")
        b.wait_for_url(re.compile(r"/register\?next="))
        _register(b, live_server, _username("bob"), at_form=True)
        b.wait_for_url(invite_url)
        b.locator("#invite-body").wait_for(state="visible")
        assert b.locator("#commitment").inner_text().strip() == commitment
        assert "Дом Горна" in b.locator("#invite-options-text").inner_text()
        b.click("#accept")

        # Both end on the same match page; A was waiting and is redirected.
        b.wait_for_url(re.compile(r"/matches/[^/]+$"))
        a.wait_for_url(b.url)
        for p in (a, b):
            p.wait_for_function(JS_READY, arg=-1)
            assert p.locator("#commitment").inner_text().strip() == commitment

        rng = random.Random(11)
        deadline = time.monotonic() + MATCH_DEADLINE
        pages = ((a, b), (b, a))
        while not (_finished(a) and _finished(b)):
            assert time.monotonic() < deadline, "the live match took too long"
            acted = False
            for me, other in pages:
                before = _seq(me)
                if _take_turn(me, rng):
                    me.wait_for_function(JS_SEQ_ABOVE, arg=before)
                    other.wait_for_function(JS_SEQ_AT_LEAST, arg=_seq(me))
                    acted = True
                    break
            if not acted:
                a.wait_for_function(JS_READY, arg=_seq(a))

        result_a, result_b = _result_text(a), _result_text(b)
        if "Ничья" in result_a:
            assert "Ничья" in result_b
        else:
            assert ("Победа" in result_a) != ("Победа" in result_b)
        for p in (a, b):
            _check_fairness(p, commitment)
        assert not errors_a, errors_a
        assert not errors_b, errors_b
    finally:
        ctx_a.close()
        ctx_b.close()
