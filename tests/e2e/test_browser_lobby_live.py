"""The lobby's live features in a real browser (issue 6), with two browser contexts (two members):
one publishes a challenge, the other sees it appear in the table without reloading and accepts it, both land
on the match and play; then both press «Найти соперника» and are paired. Межа is the game (a real one from the
registry); every move is a click. Waits use the pages' own hooks, never fixed sleeps."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser

MATCH_URL = re.compile(r"/matches/[^/]+$")
JS_SEQ_ABOVE = "(s) => Number(document.getElementById('match')?.dataset.seq ?? -1) > s"
JS_SEQ_AT_LEAST = "(s) => Number(document.getElementById('match')?.dataset.seq ?? -1) >= s"
JS_STATE = "() => document.getElementById('match')?.dataset.seq !== undefined"


def _page(browser: Any, base: str, prefix: str) -> tuple[Any, Any, str, list[str]]:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    context.set_default_timeout(15_000)
    name = sign_up(context, base, prefix)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    # 4xx answers the page expects (e.g. the session check) log a console error of their own: not ours.
    page.on("console", lambda msg: _console(msg, errors))
    return context, page, name, errors


def _console(msg: Any, errors: list[str]) -> None:
    if msg.type == "error" and "status of 4" not in msg.text:
        errors.append(msg.text)


def _seq(page: Any) -> int:
    return int(page.get_attribute("#match", "data-seq") or -1)


def _take_turn(page: Any, rng: random.Random) -> bool:
    """Act once in Межа if this page may: «Следующий сезон», a card onto a highlighted field, or «Пас»."""
    if not page.locator("#result").is_hidden():
        return False
    next_season = page.locator("#next-season")
    if next_season.is_visible() and next_season.is_enabled():
        next_season.click()
        return True
    if page.locator("#turn").inner_text().strip() != "Ваш ход":
        return False
    cards = page.locator("#hand [data-card]:enabled")
    if cards.count():
        cards.nth(rng.randrange(cards.count())).click()
        fields = page.locator(".half-me.droppable[data-field]")
        fields.first.wait_for(state="visible")
        fields.nth(rng.randrange(fields.count())).click()
    else:
        page.locator("#pass").click()
    return True


def _play_moves(a: Any, b: Any, moves: int) -> None:
    """Alternate until ``moves`` actions were made (both players act), each seen by the other page."""
    rng = random.Random(5)
    made, deadline = 0, time.monotonic() + 40
    while made < moves:
        assert time.monotonic() < deadline, "the players could not move"
        for me, other in ((a, b), (b, a)):
            before = _seq(me)
            if _take_turn(me, rng):
                me.wait_for_function(JS_SEQ_ABOVE, arg=before)
                other.wait_for_function(JS_SEQ_AT_LEAST, arg=_seq(me))
                made += 1
                break
        else:
            a.wait_for_timeout(50)


def test_a_challenge_from_the_table_and_a_queue_pairing(live_server: str, browser: Any) -> None:
    ctx_a, a, name_a, errors_a = _page(browser, live_server, "cha")
    ctx_b, b, name_b, errors_b = _page(browser, live_server, "chb")
    try:
        for p in (a, b):
            p.goto(f"{live_server}/#mezha")
            p.locator("#challenges-panel[data-live='1']").wait_for()
        # A publishes; B's table shows it live, with A's name and the commitment.
        a.get_by_role("radio", name=re.compile("Дом Ольхи")).check()
        a.click("#publish-challenge")
        row = b.locator("#challenge-rows tr[data-challenge]", has_text=name_a)
        row.wait_for()
        assert "Межа" in row.inner_text() and "без часов" in row.inner_text()
        assert re.search(r"[0-9a-f]{12}…", row.locator("code").inner_text())
        mine = a.locator("#challenge-rows tr[data-challenge] [data-cancel-challenge]")
        mine.wait_for()  # A's own table may update a moment after B's (each by its own socket; a loaded CI)
        assert mine.count() == 1
        row.locator("[data-accept]").click()
        # Both land on the same match at once: B by the click, A by the lobby socket's notice.
        b.wait_for_url(MATCH_URL)
        a.wait_for_url(b.url)
        for p in (a, b):
            p.wait_for_function(JS_STATE)
            p.locator("#opponent-conn.opp-conn--on").wait_for()
        _play_moves(a, b, 4)
        # B resigns; both see the result, and the challenge is gone from the table.
        b.click("#resign")
        b.click("#resign-confirm")
        for p in (a, b):
            p.locator("#result").wait_for(state="visible")
        assert "Победа" in a.locator("#result").inner_text()
        assert "Поражение" in b.locator("#result").inner_text()

        # Matchmaking: both press «Найти соперника» for Межа and are paired into one match.
        for p in (a, b):
            p.goto(f"{live_server}/#mezha")
            p.locator("#challenges-panel[data-live='1']").wait_for()
        assert b.locator("#challenge-rows tr[data-challenge]", has_text=name_a).count() == 0
        a.click("#find-opponent")
        a.locator("#queue-box").wait_for(state="visible")
        b.click("#find-opponent")
        b.wait_for_url(MATCH_URL)
        a.wait_for_url(b.url)
        for p in (a, b):
            p.wait_for_function(JS_STATE)
        names = {a.locator("#match").inner_text(), b.locator("#match").inner_text()}
        assert all(name_a in t or name_b in t for t in names)
        _play_moves(a, b, 2)
        assert not errors_a, errors_a
        assert not errors_b, errors_b
    finally:
        ctx_a.close()
        ctx_b.close()


def test_the_challenge_table_fits_a_phone(live_server: str, browser: Any) -> None:
    """On a 390 px phone the table of challenges scrolled sideways and cut «Хеш раздачи» and its empty line (a
    fresh-user run); now each challenge is a card of labelled lines, as the profile's history is."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU", is_mobile=True)
    context.set_default_timeout(15_000)
    sign_up(context, live_server, "ph")
    r = context.request.post(f"{live_server}/api/challenges", data={"game": "towers", "move_seconds": 60})
    assert r.status == 201, r.text()
    page = context.new_page()
    try:
        page.goto(f"{live_server}/")
        row = page.locator("#challenge-rows tr[data-challenge]")
        row.wait_for()
        table = page.locator("#challenge-table")
        assert table.evaluate("(t) => t.scrollWidth <= t.parentElement.clientWidth + 1")
        box, width = row.bounding_box(), page.viewport_size["width"]
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        labels = row.locator("td[data-label]").evaluate_all(
            "(tds) => tds.map((td) => getComputedStyle(td, '::before').content)"
        )
        assert labels == ['"Игра"', '"Автор"', '"Условия"', '"Время на ход"', '"Хеш раздачи"'], labels
        assert "(вы)" in row.locator('td[data-label="Автор"]').inner_text()
    finally:
        context.close()
