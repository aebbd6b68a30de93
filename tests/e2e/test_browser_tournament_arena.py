"""An arena's page and a tournament's options after a fresh-user QA pass (issue 26 §Pages, phone first), in
a real browser at 390×844:

- an arena lists its games as one list, most recent first, the newest 20 in view and the rest folded under
  «Ещё N партий», headed «Партии» (each pairing wave was a «Пары N» section: after a 5-minute arena of 5
  players, 214 of them made a phone page 30,817 px tall); the page stays short, with no sideways scroll
  and 40 px tap targets, with the fold closed and open;
- the page's facts say which variant is played, in the words of match lists («Дом Горна у игрока 1»).

A real arena is created and started; its detail is then answered with 214 pairing waves added (the
browser's route), as a long arena's would be — playing 214 games would take the suite minutes."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from accounts import sign_up
from test_browser_phone_targets import JS_MEASURE, PHONE, TAP_PX

pytestmark = pytest.mark.browser

WAVES = 214
TALL_PX = 6000
"""The phone page's height at most (the 214 sections made it 30,817 px)."""


def _long_arena(detail: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """``detail`` with ``WAVES`` ended pairing waves of one board each, as the API gives them."""
    rounds = []
    for n in range(1, WAVES + 1):
        a, b = (names[0], names[1]) if n % 2 else (names[1], names[0])
        pairing = {
            "board": 1,
            "match_id": f"long{n:03d}",
            "seats": [a, b],
            "commitment": secrets.token_hex(32),
            "server_seed": secrets.token_hex(32),
            "result": "1-0",
            "score": 1.0,
            "forfeit": False,
            "status": "ended",
        }
        rounds.append({"number": n, "pairings": [pairing]})
    return {**detail, "rounds": rounds, "current_round": WAVES}


def _measure(page: Any, where: str) -> None:
    seen = page.evaluate(JS_MEASURE, TAP_PX)
    assert not seen["small"], f"{where}: tap targets under {TAP_PX} px:\n" + "\n".join(seen["small"])
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{where}: sideways scroll ({width} px)"


def test_a_long_arena_lists_its_games_newest_first_and_folds_the_rest_on_a_phone(
    browser: Any, live_server: str
) -> None:
    phone = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True, is_mobile=True)
    other = browser.new_context()
    try:
        phone.set_default_timeout(20_000)
        names = [sign_up(phone, live_server, "arena"), sign_up(other, live_server, "arenb")]
        options = {"house": "gorn"}
        body = {"game": "mezha", "format": "arena", "minutes": 5, "rated": False, "options": options}
        made = phone.request.post(f"{live_server}/api/tournaments", data=body)
        assert made.status == 201, made.text()
        tid = made.json()["id"]
        for context in (phone, other):
            assert context.request.post(f"{live_server}/api/tournaments/{tid}/join", data={}).ok
        started = phone.request.post(f"{live_server}/api/tournaments/{tid}/start", data={})
        assert started.ok, started.text()

        def long_detail(route: Any) -> None:
            real = route.fetch()
            route.fulfill(response=real, json=_long_arena(real.json(), names))

        page = phone.new_page()
        page.route(f"**/api/tournaments/{tid}", long_detail)
        page.goto(f"{live_server}/tournaments/{tid}")
        page.locator("#arena-games li").first.wait_for()

        assert "Дом Горна у игрока 1" in page.locator("#tournament-facts").inner_text()
        assert page.locator("#rounds-title").inner_text() == "Партии"
        assert page.locator(".tournament-round").count() == 0, "no «Пары N» sections"
        shown = page.locator("#arena-games li")
        assert shown.count() == 20
        assert shown.first.get_attribute("data-match") == f"long{WAVES:03d}", "the newest game first"
        assert shown.last.get_attribute("data-match") == f"long{WAVES - 19:03d}"
        summary = page.locator("#arena-older summary")
        assert summary.inner_text() == f"Ещё {WAVES - 20} партии"
        assert page.locator("#arena-older-games li").count() == 0, "the fold's rows wait for it to open"
        page.wait_for_load_state("networkidle")
        tall = page.evaluate("document.documentElement.scrollHeight")
        assert tall <= TALL_PX, f"the arena's page is {tall} px tall"
        _measure(page, "a long arena, fold closed")

        summary.click()
        older = page.locator("#arena-older-games li")
        older.first.wait_for()
        assert older.count() == WAVES - 20
        assert older.first.get_attribute("data-match") == f"long{WAVES - 20:03d}"
        assert older.last.get_attribute("data-match") == "long001"
        _measure(page, "a long arena, fold open")
    finally:
        phone.close()
        other.close()
