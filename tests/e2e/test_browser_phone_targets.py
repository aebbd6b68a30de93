"""Phone tap targets (issue 30 §9) at 390×844: on every page a member uses — the header (its «Меню» open and
closed), the lobby on every game tab, the account page, the tournaments, the rules, every game's match page in
play and after the end — every visible link, button, field, check box (its label is the target) and summary is
at least 40 px on its smaller side, and the header is at most 64 px tall, also with a 20-character name (the
longest a name may be). A failure lists the offending elements with their sizes.

Matches are against the easy bot; the member plays a few random legal actions through the API (a seeded
choice, so mid-game controls show) before the page is measured, then resigns for the end-of-match page
(Артания is played on to its own end instead).
Motion is reduced, so no element is measured in the middle of an entrance animation."""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from accounts import PASSWORD

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TAP_PX = 40
HEADER_PX = 64
GAMES: dict[str, dict[str, Any]] = {
    "mezha": {},
    "towers": {},
    "warchest": {"expansions": "base", "draft": "random", "side": "wolf"},
    "artania": {},
}
JS_MEASURE = """async (px) => {
  // a target is measured at rest: an entrance animation (the turn badge scales in) shrinks its box meanwhile
  const settling = document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity);
  await Promise.all(settling.map((a) => a.finished.catch(() => null)));
  const SEL = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], '
    + '[role=tab]';
  const name = (el) => {
    let s = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '');
    if (el.classList.length) s += '.' + [...el.classList].slice(0, 2).join('.');
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim()
      .replace(/\\s+/g, ' ');
    return `${s} «${text.slice(0, 30)}»`;
  };
  const target = (el) => {  // a check box is tapped through its label
    if (!el.matches('input[type=checkbox], input[type=radio]')) return el;
    return el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el;
  };
  const small = [];
  for (const el of document.querySelectorAll(SEL)) {
    const own = el.getBoundingClientRect(), style = getComputedStyle(el);
    if (own.width === 0 || own.height === 0 || style.visibility === 'hidden') continue;
    const r = target(el).getBoundingClientRect();
    const size = `${Math.round(r.width)}×${Math.round(r.height)}`;
    if (Math.min(r.width, r.height) < px) small.push(`${name(el)} ${size}`);
  }
  const header = document.querySelector('.site-header').getBoundingClientRect().height;
  return { small, header: Math.round(header) };
}"""
JS_HAS_STATE = "() => document.getElementById('match')?.dataset.seq !== undefined"


def assert_fits(page: Any, where: str) -> None:
    """The page's targets are all at least :data:`TAP_PX` and its header at most :data:`HEADER_PX` tall."""
    page.wait_for_load_state("networkidle")
    seen = page.evaluate(JS_MEASURE, TAP_PX)
    assert seen["header"] <= HEADER_PX, f"{where}: the header is {seen['header']} px tall"
    assert not seen["small"], f"{where}: tap targets under {TAP_PX} px:\n" + "\n".join(seen["small"])
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{where}: sideways scroll ({width} px)"


def assert_menu_fits(page: Any, where: str) -> None:
    """The same with the header's «Меню» open; it closes again on a second tap."""
    page.click("#nav-toggle")
    page.locator("#site-menu").wait_for(state="visible")
    assert_fits(page, f"{where} (menu open)")
    page.click("#nav-toggle")
    page.locator("#site-menu").wait_for(state="hidden")


@pytest.fixture
def phone(browser: Any, live_server: str) -> Iterator[Any]:
    """A phone-sized browser context of a fresh member whose name is 20 characters long."""
    context = browser.new_context(
        viewport=PHONE, locale="ru-RU", has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    context.set_default_timeout(20_000)
    name = "longname" + secrets.token_hex(6)
    body = {"username": name, "password": PASSWORD}
    made = context.request.post(f"{live_server}/api/auth/register", data=body)
    assert made.status == 201, made.text()
    try:
        yield context
    finally:
        context.close()


def play_a_little(context: Any, base: str, match_id: str, actions: int, seed: int) -> None:
    """Up to ``actions`` random legal actions (never resign) of the member, the bot answering between them."""
    rng = random.Random(seed)
    done, deadline = 0, time.monotonic() + 120
    while done < actions and time.monotonic() < deadline:
        st = context.request.get(f"{base}/api/matches/{match_id}/state").json()
        if st["status"] != "active":
            return
        legal = [a for a in st["legal"] or [] if a.get("kind") != "resign"]
        if st["seat"] not in st["to_move"] or not legal:
            time.sleep(0.1)
            continue
        body = {"id": f"phone-{st['seq']}", "seq": st["seq"], "action": rng.choice(legal)}
        done += context.request.post(f"{base}/api/matches/{match_id}/actions", data=body).ok


def test_the_pages_around_the_games_fit_a_phone(phone: Any, live_server: str) -> None:
    body = {"game": "mezha", "format": "round_robin"}
    made = phone.request.post(f"{live_server}/api/tournaments", data=body)
    assert made.ok, made.text()
    page = phone.new_page()
    page.goto(f"{live_server}/")
    assert_menu_fits(page, "lobby")
    for slug in GAMES:
        page.locator(f'.game-tab[data-game="{slug}"]').click()
        assert_fits(page, f"lobby, tab {slug}")
    for path in ("/account", "/tournaments", f"/tournaments/{made.json()['id']}", "/leaderboard"):
        page.goto(f"{live_server}{path}")
        assert_fits(page, path)
    for slug in GAMES:
        page.goto(f"{live_server}/games/{slug}/rules")
        assert_fits(page, f"rules of {slug}")


def test_a_visitor_s_pages_fit_a_phone(browser: Any, live_server: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="uk-UA", has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        for path in ("/", "/login", "/register", "/password-reset"):
            page.goto(f"{live_server}{path}")
            assert_fits(page, path)
        assert_menu_fits(page, "a visitor's header")
    finally:
        context.close()


@pytest.mark.parametrize("slug", list(GAMES))
def test_a_match_page_fits_a_phone_in_play_and_at_the_end(phone: Any, live_server: str, slug: str) -> None:
    body = {"game": slug, "vs": "bot", "bot_level": "easy", "options": GAMES[slug]}
    made = phone.request.post(f"{live_server}/api/matches", data=body)
    assert made.status == 201, made.text()
    match_id = made.json()["id"]
    play_a_little(phone, live_server, match_id, actions=6, seed=len(slug))
    page = phone.new_page()
    page.goto(f"{live_server}/matches/{match_id}")
    page.wait_for_function(JS_HAS_STATE)
    assert_fits(page, f"{slug} in play")
    assert_menu_fits(page, f"{slug} in play")

    if slug == "artania":  # played to its own end: its end page once had about 120 small targets
        play_a_little(phone, live_server, match_id, actions=400, seed=1)
    st = phone.request.get(f"{live_server}/api/matches/{match_id}/state").json()
    if st["status"] == "active":
        body = {"id": "phone-resign", "seq": st["seq"], "action": {"kind": "resign"}}
        assert phone.request.post(f"{live_server}/api/matches/{match_id}/actions", data=body).ok
    page.goto(f"{live_server}/matches/{match_id}")
    page.locator(".replay-move").first.wait_for()
    assert_fits(page, f"{slug} at the end")
