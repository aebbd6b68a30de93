"""The verify page and the admin pages in a real browser (DESIGN.md §Web; rules/fairness.md).

- static/js/fairness.js, imported by a page, reproduces every fairness.md test vector with crypto.subtle, and
  its ``redraw`` recomputes the engine's recorded draws (and catches a changed one);
- a finished match's verify page, opened from the match page, shows every check ✓; tampered data (changed on
  its way by Playwright) shows ✗; a member who did not play gets the full check, a live match a partial one;
- an admin (made with ``duelclub create-admin``) filters the list, opens a finished match, steps its replay,
  sees the seeds, and aborts a live match.

Matches are set up through the JSON API with the browser context's own cookies (``context.request``).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from accounts import sign_up

from duelclub.games.fairness import match_key, recording
from duelclub.games.mezha import GAME as MEZHA

pytestmark = pytest.mark.browser

SEED = bytes(range(32))
CHECKS = ["commitment", "key", "draws"]

JS_VECTORS = """async (draws) => {
  const f = await import('/static/js/fairness.js');
  const S = new Uint8Array(32).map((_, i) => i);
  const out = { C: await f.commitment(S, 'm-0001'), keys: [] };
  for (const [a, b] of [['', ''], ['c0ffee', '5eed']]) {
    const K = await f.matchKey(S, 'm-0001', a, b);
    let st = new f.Stream(K);
    const words = [await st.word(), await st.word(), await st.word(), await st.word()];
    st = new f.Stream(K);
    const lot = await st.randint(2);
    const shuffle = await st.shuffled(Array.from({ length: 20 }, (_, i) => i + 1));
    out.keys.push({ K: f.bytesToHex(K), words, lot, shuffle });
  }
  out.badSeedRejected = await f.matchKey(S, 'm-0001', 'XYZ', '').then(() => false, () => true);
  const K = await f.matchKey(S, 'm-0001', 'c0ffee', '5eed');
  out.redraw = await f.redraw(K, draws);
  const changed = draws.map((d) => ({ ...d }));
  changed[5].value = (changed[5].value + 1) % changed[5].bound;
  out.changed = await f.redraw(K, changed);
  return out;
}"""


def _context(browser: Any) -> tuple[Any, Any, list[str]]:
    """A fresh context (own cookies) and page; page errors and console errors are collected."""
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="ru-RU")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    return context, page, errors


def _bot_match(context: Any, base: str) -> str:
    body = {"game": "mezha", "vs": "bot", "bot_level": "easy", "client_seed": "c0ffee"}
    body["options"] = {"house": "gorn"}
    r = context.request.post(f"{base}/api/matches", data=body)
    assert r.status == 201, r.text()
    return str(r.json()["id"])


def _play(context: Any, base: str, match_id: str, moves: int) -> None:
    """Make ``moves`` moves through the API (a card when one can be played), letting the bot answer."""
    deadline = time.monotonic() + 20
    made = 0
    while made < moves:
        assert time.monotonic() < deadline, "the bot did not answer"
        st = context.request.get(f"{base}/api/matches/{match_id}/state").json()
        if st["status"] != "active":
            return
        if not st["legal"]:
            time.sleep(0.05)
            continue
        action = next((a for a in st["legal"] if a["kind"] == "play"), st["legal"][0])
        body = {"id": f"p{made}", "seq": st["seq"], "action": action}
        if context.request.post(f"{base}/api/matches/{match_id}/actions", data=body).status == 200:
            made += 1


def _resign(context: Any, base: str, match_id: str) -> None:
    """Resign through the API (retrying when the bot moved in between)."""
    for i in range(50):
        st = context.request.get(f"{base}/api/matches/{match_id}/state").json()
        body = {"id": f"r{i}", "seq": st["seq"], "action": {"kind": "resign"}}
        r = context.request.post(f"{base}/api/matches/{match_id}/actions", data=body)
        if r.status == 200:
            assert r.json()["status"] == "finished"
            return
        assert r.json()["code"] == "stale_seq", r.text()
    raise AssertionError("could not resign")


def _checks(page: Any, base: str, match_id: str) -> tuple[str, dict[str, str]]:
    """Open the verify page, wait for its verdict; → (verdict, {check: "true" | "false" | "na"})."""
    page.goto(f"{base}/matches/{match_id}/verify")
    page.wait_for_selector("#verify[data-verdict]")
    rows = page.locator("#checks li[data-check]")
    found = {}
    for i in range(rows.count()):
        found[str(rows.nth(i).get_attribute("data-check"))] = str(rows.nth(i).get_attribute("data-ok"))
    return str(page.get_attribute("#verify", "data-verdict")), found


# -- fairness.js ---------------------------------------------------------------------------------
def test_fairness_js_reproduces_the_test_vectors(live_server: str, browser: Any) -> None:
    context, page, errors = _context(browser)
    try:
        page.goto(f"{live_server}/login")
        key = match_key(SEED, "m-0001", "c0ffee", "5eed")
        with recording(key) as drawn:
            dealt = MEZHA.new_match(key, MEZHA.parse_options({"house": "olkha"}))
        out = page.evaluate(JS_VECTORS, [{"bound": d.bound, "value": d.value} for d in drawn])
        assert out["C"] == "45f1c0709b64359031c2eca9b5e4c7a5c2587cb509bcae2f106142b6931a963a"
        plain, seeded = out["keys"]
        assert plain["K"] == "9ce3700c14c9f827cbdc80690ddb5bc52343e669841455cd542c2a1eaa372b03"
        assert plain["words"] == [330121460, 3402065252, 911597157, 4122952066]
        assert plain["lot"] == 0
        assert plain["shuffle"] == [4, 12, 8, 10, 16, 19, 6, 20, 14, 3, 1, 2, 18, 17, 7, 9, 5, 11, 15, 13]
        assert seeded["K"] == "80dfb495674cc881fc103c052e7bf18ee96bb42b36e977f3ea38e319546670f9"
        assert seeded["words"] == [3819662481, 3858418194, 1694984375, 717120549]
        assert seeded["lot"] == 1
        assert seeded["shuffle"] == [1, 18, 6, 2, 9, 12, 16, 11, 7, 14, 4, 5, 13, 8, 17, 3, 20, 10, 19, 15]
        assert out["badSeedRejected"] is True
        # The browser recomputes the engine's draws of a Mezha deal (1 lot, 19 + 19 + 3 shuffle steps).
        assert len(drawn) == 42
        assert out["redraw"] == {
            "ok": True,
            "checked": 42,
            "words": dealt.stream.position,
            "at": None,
            "computed": None,
        }
        assert out["changed"]["ok"] is False and out["changed"]["at"] == 5 and out["changed"]["checked"] == 5
        assert not errors, errors
    finally:
        context.close()


# -- the verify page -----------------------------------------------------------------------------
def test_verify_page_from_a_finished_match_shows_every_check_passed(live_server: str, browser: Any) -> None:
    context, page, errors = _context(browser)
    try:
        sign_up(context, live_server, "fa")
        mid = _bot_match(context, live_server)
        page.goto(f"{live_server}/matches/{mid}")
        page.click("#resign")
        page.click("#resign-confirm")
        page.locator("#result").wait_for(state="visible")
        page.locator("#verify-link").click()
        page.wait_for_url(f"{live_server}/matches/{mid}/verify")
        page.wait_for_selector("#verify[data-verdict]")
        assert page.get_attribute("#verify", "data-verdict") == "ok"
        rows = page.locator("#checks li[data-check]")
        assert [rows.nth(i).get_attribute("data-check") for i in range(rows.count())] == CHECKS
        assert page.locator("#checks li[data-ok=true]").count() == len(CHECKS)
        assert page.locator(".check__mark").all_inner_texts() == ["✓"] * len(CHECKS)
        assert page.locator("#verdict").inner_text().startswith("✓")
        summary = context.request.get(f"{live_server}/api/matches/{mid}").json()
        values = page.locator("#values").inner_text()
        assert summary["server_seed"] in values and summary["commitment"] in values and "c0ffee" in values
        assert "duelclub verify log.json" in page.locator("main").inner_text()
        assert not errors, errors
    finally:
        context.close()


def test_tampered_data_fails_the_checks(live_server: str, browser: Any) -> None:
    context, page, errors = _context(browser)
    try:
        sign_up(context, live_server, "fa")
        mid = _bot_match(context, live_server)
        _resign(context, live_server, mid)
        tamper: dict[str, Any] = {}

        def on_data(route: Any) -> None:
            response = route.fetch()
            body = response.json()
            tamper["edit"](body, route.request.url)
            route.fulfill(response=response, json=body)

        page.route(re.compile(re.escape(f"/api/matches/{mid}") + "(/draws)?$"), on_data)

        def swap_draws(body: dict[str, Any], url: str) -> None:  # the other player starts
            if url.endswith("/draws"):
                body["draws"][0]["value"] = 1 - body["draws"][0]["value"]

        tamper["edit"] = swap_draws
        verdict, checks = _checks(page, live_server, mid)
        assert verdict == "fail" and checks == {"commitment": "true", "key": "true", "draws": "false"}
        assert "✗" in page.locator("[data-check=draws] .check__mark").inner_text()
        assert page.locator("#verdict").inner_text().startswith("✗")

        def other_client_seed(body: dict[str, Any], url: str) -> None:  # the hash holds, the draws do not
            if not url.endswith("/draws"):
                body["client_seeds"]["a"] = "c0ffef"

        tamper["edit"] = other_client_seed
        verdict, checks = _checks(page, live_server, mid)
        assert verdict == "fail" and checks == {"commitment": "true", "key": "true", "draws": "false"}

        def other_server_seed(body: dict[str, Any], url: str) -> None:
            if not url.endswith("/draws"):
                seed = body["server_seed"]
                body["server_seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]

        tamper["edit"] = other_server_seed
        verdict, checks = _checks(page, live_server, mid)
        assert verdict == "fail" and checks["commitment"] == "false"
        assert not errors, errors
    finally:
        context.close()


def test_verify_page_for_a_non_player_and_for_a_live_match(live_server: str, browser: Any) -> None:
    owner, _owner_page, _ = _context(browser)
    context, page, errors = _context(browser)
    try:
        sign_up(owner, live_server)
        finished, live = _bot_match(owner, live_server), _bot_match(owner, live_server)
        _resign(owner, live_server, finished)
        sign_up(context, live_server, "fa")
        verdict, checks = _checks(page, live_server, finished)  # any member: the draws are public once ended
        assert verdict == "ok" and checks == {"commitment": "true", "key": "true", "draws": "true"}
        assert "бот не добавляет своё зерно" in page.inner_text("#values")
        hidden = page.locator("#checks .visually-hidden").all_inner_texts()
        assert hidden and {t.strip() for t in hidden} == {"— пройдена"}
        verdict, checks = _checks(page, live_server, live)
        assert verdict == "partial" and checks == {"commitment": "na"}
        assert "раскроется" in page.locator("#values").inner_text()
        assert errors == [], errors
    finally:
        context.close()
        owner.close()


# -- the admin pages -----------------------------------------------------------------------------
def _admin_login(page: Any, base: str, account: tuple[str, str]) -> None:
    page.goto(f"{base}/login?next=/admin")
    page.fill("#username", account[0])
    page.fill("#password", account[1])
    page.click("#auth-form button[type=submit]")
    page.wait_for_url(f"{base}/admin")


def test_admin_opens_a_finished_match_steps_the_replay_and_sees_the_seeds(
    live_server: str, browser: Any, admin_account: tuple[str, str]
) -> None:
    member, _member_page, _ = _context(browser)
    context, page, errors = _context(browser)
    try:
        name = sign_up(member, live_server)
        mid = _bot_match(member, live_server)
        _play(member, live_server, mid, 3)
        _resign(member, live_server, mid)
        summary = member.request.get(f"{live_server}/api/matches/{mid}").json()

        _admin_login(page, live_server, admin_account)
        assert page.locator("#admin-link").is_visible()
        page.wait_for_selector("#admin[data-loaded='1']")
        assert page.locator("#matches tbody tr").count() >= 1  # unfiltered: every match
        page.fill("#f-user", name)
        page.select_option("#f-status", "finished")
        page.click("#filters button[type=submit]")
        page.wait_for_url(re.compile(r"/admin\?.*user="))
        page.wait_for_selector("#admin[data-loaded='2']")
        row = page.locator(f"#matches tr[data-match-id='{mid}']")
        assert page.locator("#matches tbody tr").count() == 1
        row.locator("a").click()

        page.wait_for_url(f"{live_server}/admin/matches/{mid}")
        page.wait_for_selector("#admin-match[data-seq='0']")
        assert page.locator("#server-seed").inner_text().strip() == summary["server_seed"]
        audit = page.locator("#audit").inner_text()
        assert summary["commitment"] in audit and "c0ffee" in audit
        assert page.locator("#abort").is_hidden()
        assert page.locator("#analysis-link").is_visible()  # a finished match: its «Анализ партии»
        assert page.get_attribute("#analysis-link", "href") == f"/matches/{mid}#analysis"
        log = page.request.get(f"{live_server}/api/admin/matches/{mid}/log").json()
        last = len(log["actions"])
        assert last >= 4
        assert page.locator("#actions tbody tr").count() == last
        assert "Начальная раздача" in page.locator("#replay-action").inner_text()
        assert page.locator("#board [data-field]").count() == 3
        side = page.locator("#side-game").inner_text()  # the full view: both hands are shown
        assert "Рука игрока 1: 8 карт" in side and "Рука игрока 2: 8 карт" in side
        assert "ваш" not in page.inner_text("#omen-desc").lower()  # the replay has no «you»
        # what only the full view shows, as Межа's renderer words it (renderer.secrets)
        assert page.locator(".replay-secrets").is_visible()
        assert page.inner_text("#secrets-title") == "Колоды и приметы"
        secrets = page.inner_text("#secrets")
        assert "Колода игрока 1 (сверху вниз)" in secrets and "Колода игрока 2 (сверху вниз)" in secrets
        assert page.locator("#secrets .omens-list li").count() >= 3 and "сезон 1: " in secrets
        facts = page.inner_text("#facts")
        assert "у игрока 1" in facts and "{" not in facts

        page.click("#replay-next")
        page.wait_for_selector("#admin-match[data-seq='1']")
        assert page.locator("#replay-pos").inner_text() == f"Шаг 1 из {last}"
        assert page.locator("#replay-action").inner_text().startswith("Действие 1")
        assert page.locator("#replay-events li").count() >= 1  # what the first action caused, in words
        assert page.locator("#actions tbody tr.is-current").get_attribute("data-seq") == "1"
        page.click("#replay-last")
        page.wait_for_selector(f"#admin-match[data-seq='{last}']")
        assert "сдача" in page.locator("#replay-action").inner_text()
        assert page.locator("#replay-next").is_disabled()
        page.click("#replay-first")
        page.wait_for_selector("#admin-match[data-seq='0']")

        # a phone: the list stacks each row, the players are readable within the screen
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{live_server}/admin?user={name}")
        page.wait_for_selector(f"#matches tr[data-match-id='{mid}']")
        cell = page.locator(f"#matches tr[data-match-id='{mid}'] td[data-label='Игроки']")
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert name in cell.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert not errors, errors
    finally:
        context.close()
        member.close()


def test_admin_aborts_a_live_match_whose_seed_stays_hidden_until_then(
    live_server: str, browser: Any, admin_account: tuple[str, str]
) -> None:
    member, _member_page, _ = _context(browser)
    context, page, errors = _context(browser)
    try:
        sign_up(member, live_server)
        mid = _bot_match(member, live_server)
        _admin_login(page, live_server, admin_account)
        page.goto(f"{live_server}/admin/matches/{mid}")
        page.wait_for_selector("#admin-match[data-ready=true]")
        assert page.locator("#server-seed-hidden").is_visible()
        assert page.locator("#server-seed").count() == 0
        assert page.locator("#not-ended").is_visible() and page.locator("#replay").is_hidden()
        assert page.locator("#analysis-link").is_hidden()  # live: nothing to analyse yet
        page.click("#abort")
        page.click("#abort-confirm")
        page.wait_for_selector("#server-seed")
        assert page.locator("#am-status").inner_text() == "прервана"
        summary = member.request.get(f"{live_server}/api/matches/{mid}").json()
        assert summary["status"] == "aborted"
        assert page.locator("#server-seed").inner_text().strip() == summary["server_seed"]
        assert page.locator("#analysis-link").is_hidden()  # an aborted match is not analysed
        assert not errors, errors
    finally:
        context.close()
        member.close()
