"""The verify page gives its own verdict for a finished match of each of the four games (issue 15 §5).

Each game is played against the bot for a few moves through the JSON API, then resigned; the verify page
recomputes the commitment, the key and every draw of the fairness stream in the browser (fairness.js
``redraw`` over ``GET /api/matches/{id}/draws``) and says «Проверено» / «Перевірено». A changed server seed or
a changed draw, altered on its way to the page by Playwright, gives ✗.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser

VERIFIED = {"ru": "✓ Проверено: хеш раздачи совпал", "uk": "✓ Перевірено: хеш роздачі збігся"}
MISMATCH = {"ru": "✗ Найдены расхождения", "uk": "✗ Знайдено розбіжності"}


def _bot_match(context: Any, base: str, game: str, moves: int) -> str:
    """A match against the easy bot: ``moves`` of our actions (the first legal one), then resignation."""
    r = context.request.post(f"{base}/api/matches", data={"game": game, "vs": "bot", "bot_level": "easy"})
    assert r.status == 201, r.text()
    mid = str(r.json()["id"])
    made, deadline = 0, time.monotonic() + 60
    while made < moves:
        assert time.monotonic() < deadline, "the bot did not answer"
        st = context.request.get(f"{base}/api/matches/{mid}/state").json()
        if st["status"] != "active":
            return mid
        if not st["legal"]:
            time.sleep(0.05)
            continue
        body = {"id": f"p{made}", "seq": st["seq"], "action": st["legal"][0]}
        if context.request.post(f"{base}/api/matches/{mid}/actions", data=body).status == 200:
            made += 1
    for i in range(50):  # the bot may move between our read and our resignation (stale_seq): read again
        st = context.request.get(f"{base}/api/matches/{mid}/state").json()
        if st["status"] != "active":
            return mid
        body = {"id": f"r{i}", "seq": st["seq"], "action": {"kind": "resign"}}
        if context.request.post(f"{base}/api/matches/{mid}/actions", data=body).status == 200:
            return mid
    raise AssertionError("could not resign")


def _open(page: Any, base: str, mid: str) -> tuple[str, dict[str, str]]:
    """The verify page's verdict and its checks ({name: "true" | "false" | "na"})."""
    page.goto(f"{base}/matches/{mid}/verify")
    page.wait_for_selector("#verify[data-verdict]")
    rows = page.locator("#checks li[data-check]")
    checks = {
        str(rows.nth(i).get_attribute("data-check")): str(rows.nth(i).get_attribute("data-ok"))
        for i in range(rows.count())
    }
    return str(page.get_attribute("#verify", "data-verdict")), checks


@pytest.mark.parametrize("game", ["mezha", "towers", "warchest", "artania"])
def test_a_finished_match_of_each_game_is_verified_in_the_browser(
    live_server: str, browser: Any, game: str
) -> None:
    context = browser.new_context(locale="ru-RU")
    context.set_default_timeout(20_000)
    try:
        sign_up(context, live_server, "vq")
        mid = _bot_match(context, live_server, game, 4)
        draws = context.request.get(f"{live_server}/api/matches/{mid}/draws").json()["draws"]
        assert len(draws) >= 5  # several: the lot, the shuffles or the first coin draws
        page = context.new_page()
        for lang in ("ru", "uk"):
            page.goto(f"{live_server}/lang/{lang}?next=/")
            verdict, checks = _open(page, live_server, mid)
            assert page.locator("html").get_attribute("lang") == lang
            assert verdict == "ok" and checks == {"commitment": "true", "key": "true", "draws": "true"}
            said = page.locator("#verdict").inner_text()
            assert said.startswith(VERIFIED[lang]), said
            assert str(len(draws)) in said
            assert str(len(draws)) in page.locator("[data-check=draws]").inner_text()
    finally:
        context.close()


def test_a_changed_seed_or_draw_is_not_verified(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="uk-UA")
    context.set_default_timeout(20_000)
    try:
        sign_up(context, live_server, "vt")
        mid = _bot_match(context, live_server, "warchest", 3)
        page = context.new_page()
        verdict, _ = _open(page, live_server, mid)
        assert verdict == "ok"
        tamper: dict[str, Any] = {}

        def edit(route: Any) -> None:
            response = route.fetch()
            body = response.json()
            tamper["edit"](body)
            route.fulfill(response=response, json=body)

        def next_value(body: dict[str, Any], i: int) -> None:
            d = body["draws"][i]
            d["value"] = (d["value"] + 1) % d["bound"]

        page.route(re.compile(re.escape(f"/api/matches/{mid}/draws") + "$"), edit)
        for i in (0, -1):  # the first lot and the last draw
            tamper["edit"] = lambda body, i=i: next_value(body, i)
            verdict, checks = _open(page, live_server, mid)
            assert verdict == "fail" and checks == {"commitment": "true", "key": "true", "draws": "false"}
            assert page.locator("#verdict").inner_text().startswith(MISMATCH["uk"])

        page.unroute(re.compile(re.escape(f"/api/matches/{mid}/draws") + "$"))

        def other_seed(body: dict[str, Any]) -> None:
            seed = body["server_seed"]
            body["server_seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]

        tamper["edit"] = other_seed
        page.route(re.compile(re.escape(f"/api/matches/{mid}") + "$"), edit)
        verdict, checks = _open(page, live_server, mid)
        assert verdict == "fail" and checks["commitment"] == "false" and checks["draws"] == "false"
        assert page.locator("#verdict").inner_text().startswith(MISMATCH["uk"])
    finally:
        context.close()


def test_a_match_cancelled_before_the_deal_has_nothing_to_redraw(live_server: str, browser: Any) -> None:
    context = browser.new_context(locale="ru-RU")
    context.set_default_timeout(20_000)
    try:
        sign_up(context, live_server, "vc")
        r = context.request.post(f"{live_server}/api/matches", data={"game": "artania", "vs": "invite"})
        assert r.status == 201, r.text()
        mid = str(r.json()["id"])
        assert context.request.delete(f"{live_server}/api/matches/{mid}", data={}).status == 200
        page = context.new_page()
        verdict, checks = _open(page, live_server, mid)
        assert verdict == "partial" and checks == {"commitment": "true", "key": "true", "draws": "na"}
        assert "прервали до раздачи" in page.locator("#verdict").inner_text()
    finally:
        context.close()
