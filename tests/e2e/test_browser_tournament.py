"""A club evening in a real browser (issue 26 §Done when): a 4-member round robin of Межа from the creation
form to the final table — one member on a phone-sized window (390 px, no sideways scroll) joins from the page,
sees «Ваша партия готова», opens the match and resigns there; the others' matches end through the API.
Waits are on the pages' own hooks (#tournament[data-status], #tournament-ready), never fixed sleeps. On the
phone every tap target of the tournament pages — the buttons, «Скачать CSV», the list's tabs, the header's
links — is at least 40 px both ways."""

from __future__ import annotations

import time
from typing import Any

import pytest
from live_helpers import Member

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
TAP_PX = 40
JS_SMALL_TARGETS = """([selector, px]) => [...document.querySelectorAll(selector)]
  .filter((e) => e.offsetParent !== null)
  .map((e) => ({ what: e.id || e.textContent.trim(), ...e.getBoundingClientRect().toJSON() }))
  .filter((r) => r.height < px || r.width < px)"""
HEADER_TARGETS = ".site-nav a:not([hidden]), .site-nav button, .brand"


def small_targets(page: Any, selector: str) -> list[dict[str, Any]]:
    """The visible elements of ``selector`` smaller than :data:`TAP_PX` either way (a phone's tap target)."""
    return list(page.evaluate(JS_SMALL_TARGETS, [selector, TAP_PX]))


class PhoneMember(Member):
    def __init__(self, browser: Any, base: str, prefix: str) -> None:
        super().__init__(browser, base, prefix)
        self.context.close()
        from accounts import sign_up

        self.context = browser.new_context(viewport=PHONE, locale="ru-RU", has_touch=True, is_mobile=True)
        self.context.set_default_timeout(20_000)
        self.name = sign_up(self.context, base, prefix)
        self.page = self.new_page()


def _in_play(t: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for r in t["rounds"] for p in r["pairings"] if p["match_id"] and p["result"] is None]


def test_a_round_robin_evening_from_the_form_to_the_final_table(browser: Any, live_server: str) -> None:
    org = Member(browser, live_server, "trg")
    phone = PhoneMember(browser, live_server, "trp")
    others = [Member(browser, live_server, f"tr{i}") for i in (1, 2)]
    everyone = {m.name: m for m in (org, phone, *others)}
    try:
        page = org.page
        page.goto(f"{live_server}/tournaments")
        # a long name, as members write them: its badge on the match page must wrap inside a phone's width
        page.fill("input[name=name]", "Клубный вечер — пятничная Межа для всех желающих")
        page.check("input[name=game][value=mezha]")
        page.check("input[name=format][value=round_robin]")
        page.click("#create-tournament")
        page.wait_for_url("**/tournaments/*")
        page.locator("#tournament[data-status='open']").wait_for()
        tid = page.url.rsplit("/", 1)[1]
        assert "Клубный вечер" in page.locator("#tournament-name").inner_text()
        assert "Бергера" in page.locator("#tournament-rules").inner_text()
        page.click("#tournament-join")
        page.locator("#tournament-leave").wait_for()

        phone.page.goto(f"{live_server}/tournaments/{tid}")
        phone.page.click("#tournament-join")
        phone.page.locator("#tournament-leave").wait_for()
        targets = f"{HEADER_TARGETS}, #crosstable-csv, #tournament-actions .btn"
        assert phone.page.locator("#crosstable-csv").is_visible()
        assert small_targets(phone.page, targets) == [], "tap targets on the tournament page"
        phone.page.goto(f"{live_server}/tournaments")
        phone.page.locator("#tournament-items[data-loaded]").wait_for(state="attached")
        targets = f"{HEADER_TARGETS}, .tournament-tab, #new-tournament-link, #create-tournament"
        assert phone.page.locator(".tournament-tab").count() == 3
        assert small_targets(phone.page, targets) == [], "tap targets on /tournaments"
        assert phone.page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        # the form's fields are the site's (16 px: a phone does not zoom in on focus), number and time too
        small = phone.page.evaluate(
            """() => [...document.querySelectorAll('#tournament-form input')]
              .filter((e) => e.type !== 'radio' && e.type !== 'checkbox')
              .filter((e) => parseFloat(getComputedStyle(e).fontSize) < 16).map((e) => e.name)"""
        )
        assert small == [], small
        for m in others:
            m.post(f"/api/tournaments/{tid}/join")
        page.wait_for_function("() => document.querySelectorAll('#tournament-players li').length === 4")
        page.click("#tournament-start")
        page.locator("#tournament[data-status='running']").wait_for()

        resigned_on_page = False
        deadline = time.monotonic() + 120
        while True:
            t = org.get(f"/api/tournaments/{tid}")
            if t["status"] == "finished":
                break
            assert time.monotonic() < deadline, "the tournament did not finish"
            for p in _in_play(t):
                loser = everyone[p["seats"][1]]
                if loser is phone and not resigned_on_page:
                    phone.page.goto(f"{live_server}/tournaments/{tid}")
                    phone.page.locator("#tournament-ready:not([hidden]) #tournament-play").click()
                    phone.page.wait_for_url(f"**/matches/{p['match_id']}")
                    phone.page.click("#resign")
                    phone.page.click("#resign-confirm")
                    phone.page.locator("#result").wait_for(state="visible")
                    assert "Клубный вечер" in phone.page.locator(".badge-tournament").inner_text()
                    width = phone.page.evaluate("() => document.documentElement.scrollWidth")
                    assert width <= PHONE["width"], f"the match page scrolls sideways ({width} px)"
                    resigned_on_page = True
                    continue
                st = loser.get(f"/api/matches/{p['match_id']}/state")
                if st["status"] == "active":
                    loser.post(
                        f"/api/matches/{p['match_id']}/actions",
                        {"id": "gg", "seq": st["seq"], "action": {"kind": "resign"}},
                    )
            time.sleep(0.2)
        assert resigned_on_page, "the phone member played a match from the tournament page"

        page.locator("#tournament[data-status='finished']").wait_for()
        assert page.locator("#standings tbody tr").count() == 4
        assert page.locator("#crosstable tbody tr").count() == 4
        assert page.locator("#tournament-rounds .tournament-round").count() == 3
        top = page.locator("#standings tbody tr").first.inner_text()
        assert "3" in top, "someone won all three"
        csv = org.context.request.get(f"{live_server}/api/tournaments/{tid}/crosstable.csv")
        assert csv.ok and phone.name in csv.text() and csv.text().count("\n") == 5

        phone.page.goto(f"{live_server}/tournaments/{tid}")
        phone.page.locator("#tournament[data-status='finished']").wait_for()
        width = phone.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"no sideways scroll on a phone ({width} px)"
        for m in everyone.values():
            assert m.errors == [], m.errors
    finally:
        for m in everyone.values():
            m.close()
