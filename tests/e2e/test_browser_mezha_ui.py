"""The Межа match page as a member reads it, in a real browser (rules/mezha.md §What each player sees).

Two kinds of tests:

- the renderer (static/js/mezha.js) mounted on a plain page of the site with hand-made views and events, so
  the exact words can be pinned: a season's line from each side («ваша : соперника», spectators «игрок 1 :
  игрок 2»), who starts the next season, the result's reason, «без эффекта» for a tactic that did nothing,
  the tactic's preview on the fields, the units' badges and strength breakdown, card names that never break
  inside a word (desktop and phone);
- live matches: the phone layout (the hand a sticky, horizontally scrolling bar; the last events near the
  top), the pause's next-starter line, the log rewritten with every card once the match is over, the page with
  the connection down («Переподключение…», nothing clickable, no stacked toasts), and both players pressing
  «Следующий сезон» at once (no error for the one who came second).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

JS_SEQ_ABOVE = "(s) => Number(document.getElementById('match')?.dataset.seq ?? -1) > s"
JS_MY_TURN_OR_PAUSE = """() => {
  const n = document.getElementById('next-season');
  if (n && !n.hidden && !n.disabled) return true;
  if (!document.getElementById('result').hidden) return true;
  return document.getElementById('turn').textContent.trim() === 'Ваш ход';
}"""

# Mount the renderer on any page of the site: window.__r is the renderer, window.__acted the last action.
JS_MOUNT = """async ({view, seat, legal, seats, status, result}) => {
  const m = await import('/static/js/mezha.js');
  const games = await (await fetch('/api/games')).json();
  const catalog = games.find((g) => g.slug === 'mezha').catalog;
  const board = document.createElement('div');
  board.id = 'board';
  board.className = 'board';
  const side = document.createElement('div');
  side.id = 'side-game';
  document.querySelector('main').replaceChildren(board, side);
  window.__acted = null;
  window.__r = m.createRenderer({
    root: board, side, infoBar: null, info: { seats }, catalog, username: 'me',
    act: (a) => { window.__acted = a; },
  });
  window.__r.render({ seat, view, legal, status: status || 'active', result });
  return true;
}"""


def _half(
    units: list[dict[str, Any]] | None = None, total: int | None = None, hidden: int = 0
) -> dict[str, Any]:
    units = units or []
    if total is None:
        total = sum(u.get("strength", 0) for u in units if not u.get("hidden"))
    return {"units": units, "total": total, "hidden": hidden}


def _unit(card: str, strength: int, placement: int, **kw: Any) -> dict[str, Any]:
    u = {
        "card": card,
        "strength": strength,
        "shield": None,
        "placement": placement,
        "face_down": False,
        "carried": False,
    }
    u.update(kw)
    return u


def _view(**kw: Any) -> dict[str, Any]:
    """A Mezha view (src/duelclub/games/mezha/view.py) with empty fields; keywords override."""
    v: dict[str, Any] = {
        "game": "mezha",
        "you": 0,
        "phase": "season",
        "season": 1,
        "omen": "thaw",
        "results": [],
        "wins": [0, 0],
        "starter": 0,
        "turn": 0,
        "to_move": [0],
        "passed": [False, False],
        "auto_passed": [False, False],
        "capacity": 4,
        "houses": ["olkha", "gorn"],
        "hand": [],
        "hand_sizes": [0, 8],
        "deck_sizes": [12, 12],
        "discards": [[], []],
        "fields": [[_half(), _half()] for _ in range(3)],
        "outcome": None,
    }
    v.update(kw)
    return v


SEATS = [{"username": "alice"}, {"username": "bob"}]
# The QA report's season: Луг to seat 1, Брод to nobody, Холм to seat 0; fields 1:1, strength 14:15.
TIED = {
    "season": 1,
    "omen": "thaw",
    "starter": 0,
    "fields": [1, None, 0],
    "totals": [[2, 9], [5, 5], [7, 1]],
    "strength": [14, 15],
    "winner": 1,
}


def _context(browser: Any, viewport: dict[str, int] = DESKTOP) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=viewport, locale="ru-RU")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on(
        "console",
        lambda m: (
            errors.append(f"console: {m.text}")
            if m.type == "error" and "status of 401" not in m.text
            else None
        ),
    )
    return context, page, errors


def _mount(
    page: Any,
    base: str,
    view: dict[str, Any],
    seat: int | None = 0,
    legal: list[Any] | None = None,
    **kw: Any,
) -> None:
    if not page.url.startswith(base):
        page.goto(f"{base}/login")
    page.evaluate(JS_MOUNT, {"view": view, "seat": seat, "legal": legal or [], "seats": SEATS, **kw})


def _bot_match(context: Any, base: str, house: str = "olkha") -> str:
    body = {"game": "mezha", "vs": "bot", "bot_level": "easy", "options": {"house": house}}
    r = context.request.post(f"{base}/api/matches", data=body)
    assert r.status == 201, r.text()
    return str(r.json()["id"])


def _seq(page: Any) -> int:
    raw = page.get_attribute("#match", "data-seq")
    return int(raw) if raw is not None else -1


def _my_turn(page: Any) -> bool:
    return bool(page.locator("#turn").inner_text().strip() == "Ваш ход")


def _in_pause(page: Any) -> bool:
    n = page.locator("#next-season")
    return bool(n.is_visible() and n.is_enabled())


def _log_lines(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#log li").all_inner_texts()]


SEASON_LINE = re.compile(
    r"^Сезон (\d) — (ваша победа|победа соперника|ничья): поля (\d):(\d) "
    r"\(Луг — (вы|соперник|никому), Брод — (вы|соперник|никому), Холм — (вы|соперник|никому)\)"
    r"(?:, решила общая сила (\d+):(\d+)|, общая сила тоже поровну — (\d+):(\d+))?$"
)


def _check_season_line(line: str, table_cells: list[str]) -> str:
    """The season line agrees with itself and with the «Прошлые сезоны» row (cells «ваша:соперника»)."""
    m = SEASON_LINE.match(line)
    assert m, line
    verdict, mine, theirs = m.group(2), int(m.group(3)), int(m.group(4))
    holders = [m.group(5), m.group(6), m.group(7)]
    assert holders.count("вы") == mine and holders.count("соперник") == theirs, line
    totals = [tuple(int(x) for x in c.split(":")) for c in table_cells]
    for (a, b), h in zip(totals, holders, strict=True):
        assert h == ("вы" if a > b else "соперник" if b > a else "никому"), (line, table_cells)
    sa, sb = sum(a for a, _ in totals), sum(b for _, b in totals)
    if mine != theirs:
        assert verdict == ("ваша победа" if mine > theirs else "победа соперника"), line
        assert m.group(8) is None and m.group(10) is None, line
    elif sa != sb:
        assert (int(m.group(8)), int(m.group(9))) == (sa, sb), line
        assert verdict == ("ваша победа" if sa > sb else "победа соперника"), line
    else:
        assert verdict == "ничья" and (int(m.group(10)), int(m.group(11))) == (sa, sb), line
    return verdict


# -- the renderer with hand-made views ------------------------------------------------------------
def test_season_lines_read_from_the_viewers_side(live_server: str, browser: Any) -> None:
    context, page, errors = _context(browser)
    try:
        expected = {
            0: "Сезон 1 — победа соперника: поля 1:1 (Луг — соперник, Брод — никому, Холм — вы), "
            "решила общая сила 14:15",
            1: "Сезон 1 — ваша победа: поля 1:1 (Луг — вы, Брод — никому, Холм — соперник), "
            "решила общая сила 15:14",
            None: "Сезон 1 — победа игрока 2: поля 1:1 (Луг — игрок 2, Брод — никому, Холм — игрок 1), "
            "решила общая сила 14:15",
        }
        for seat, line in expected.items():
            _mount(
                page,
                live_server,
                _view(you=seat, phase="pause", turn=None, results=[TIED], wins=[0, 1]),
                seat,
            )
            assert page.locator("#season-line").inner_text() == line
        assert not errors, errors
    finally:
        context.close()


def test_the_pause_says_who_starts_the_next_season(live_server: str, browser: Any) -> None:
    context, page, errors = _context(browser)
    try:
        pause = {"phase": "pause", "turn": None, "to_move": [0, 1], "passed": [True, True], "wins": [0, 1]}
        legal = [{"kind": "next_season"}]
        # Season 1 won by seat 1 (started by seat 0): the winner starts season 2.
        _mount(page, live_server, _view(you=0, results=[TIED], **pause), 0, legal)
        assert (
            page.locator("#next-starter").inner_text()
            == "Сезон 2 начнёт соперник — соперник выиграл сезон 1."
        )
        assert "любой из игроков" in page.locator("#pause-banner").inner_text()
        assert page.locator("#next-season").is_visible() and page.locator("#next-season").is_enabled()
        assert page.locator("#hint").inner_text().startswith("Сезон 2 начнёт соперник")
        _mount(page, live_server, _view(you=1, results=[TIED], **pause), 1, legal)
        assert page.locator("#next-starter").inner_text() == "Сезон 2 начнёте вы — вы выиграли сезон 1."
        _mount(page, live_server, _view(you=None, hand=None, results=[TIED], **pause), None)
        assert page.locator("#next-starter").inner_text() == "Сезон 2 начнёт игрок 2 — он выиграл сезон 1."

        # A drawn season: the player who did not start it starts the next one.
        drawn = {
            **TIED,
            "fields": [None, None, None],
            "totals": [[0, 0]] * 3,
            "strength": [0, 0],
            "winner": None,
        }
        _mount(
            page, live_server, _view(you=0, starter=0, results=[drawn], **{**pause, "wins": [0, 0]}), 0, legal
        )
        assert page.locator("#next-starter").inner_text() == (
            "Сезон 2 начнёт соперник — сезон 1 сыгран вничью, а начинали его вы."
        )
        _mount(
            page, live_server, _view(you=1, starter=0, results=[drawn], **{**pause, "wins": [0, 0]}), 1, legal
        )
        assert page.locator("#next-starter").inner_text() == (
            "Сезон 2 начнёте вы — сезон 1 сыгран вничью, а начинал его соперник."
        )
        # During a season there is no pause banner.
        _mount(page, live_server, _view(), 0)
        assert page.locator("#pause-banner").is_hidden()
        assert not errors, errors
    finally:
        context.close()


def test_result_reasons_say_who(live_server: str, browser: Any) -> None:
    context, page, errors = _context(browser)
    try:
        cases = [
            (
                {"winner": 1, "reason": "two_seasons"},
                [1, 2],
                0,
                ("loss", "Поражение", "Соперник выиграл два сезона (1:2)"),
            ),
            (
                {"winner": 1, "reason": "two_seasons"},
                [1, 2],
                1,
                ("win", "Победа", "Вы выиграли два сезона (2:1)"),
            ),
            (
                {"winner": 0, "reason": "more_seasons"},
                [1, 0],
                0,
                ("win", "Победа", "Вы выиграли больше сезонов (1:0 при двух ничьих)"),
            ),
            (
                {"winner": 0, "reason": "more_seasons"},
                [1, 0],
                1,
                ("loss", "Поражение", "Соперник выиграл больше сезонов (0:1 при двух ничьих)"),
            ),
            (
                {"winner": None, "reason": "draw"},
                [1, 1],
                0,
                ("draw", "Ничья", "Поровну выигранных сезонов (1:1, третий сезон — ничья)"),
            ),
            (
                {"winner": None, "reason": "draw"},
                [0, 0],
                1,
                ("draw", "Ничья", "Поровну выигранных сезонов (0:0: все три сезона — ничьи)"),
            ),
            ({"winner": 0, "reason": "resign"}, [0, 0], 0, ("win", "Победа", "Соперник сдался")),
            ({"winner": 0, "reason": "resign"}, [0, 0], 1, ("loss", "Поражение", "Вы сдались")),
            # a spectator reads the players' names (issue 16 §4)
            ({"winner": 0, "reason": "resign"}, [0, 0], None, ("draw", "Победа: alice", "bob сдаётся")),
        ]
        for result, wins, seat, (kind, title, reason) in cases:
            view = _view(you=seat, phase="over", turn=None, wins=wins, outcome=result)
            _mount(page, live_server, view, seat, status="finished", result=result)
            got = page.evaluate(
                "([view, result, seat]) => window.__r.outcome({view, result, seat, status: 'finished'})",
                [view, result, seat],
            )
            assert (got["kind"], got["text"], got["reason"]) == (kind, title, reason), (result, seat)
        assert not errors, errors
    finally:
        context.close()


def test_tactic_fields_are_marked_before_the_card_is_played(live_server: str, browser: Any) -> None:
    context, page, errors = _context(browser)
    try:
        # Ольха: Роса helps on Луг (Сеянец +2, Бортник +1) and Холм (a face-down Тень), not on Брод.
        fields = [
            [_half([_unit("seyanets", 3, 1), _unit("bortnik", 4, 2)]), _half()],
            [_half(), _half([_unit("kuznets", 5, 3)])],
            [_half([_unit("ten_v_listve", 5, 4, face_down=True)]), _half()],
        ]
        legal = [{"kind": "play", "card": c, "field": f} for c in ("seyanets", "rosa") for f in (0, 1, 2)]
        legal.append({"kind": "pass"})
        _mount(page, live_server, _view(hand=["seyanets", "rosa"], fields=fields), 0, legal)
        page.click("#hand [data-card=rosa]")
        halves = page.locator(".half-me")
        assert [halves.nth(f).get_attribute("data-effect") for f in range(3)] == ["yes", "no", "yes"]
        assert halves.nth(0).locator(".half__preview").inner_text() == "Роса: +1 ×1, +2 ×1 (росток)"
        assert halves.nth(1).locator(".half__preview").inner_text() == "Без эффекта: здесь нет ваших отрядов"
        assert "droppable-noeffect" in (halves.nth(1).get_attribute("class") or "")
        assert "droppable-effect" in (halves.nth(0).get_attribute("class") or "")
        assert "поля, где он подействует, выделены" in page.locator("#hint").inner_text()
        # A unit card marks no effects; the previews go away.
        page.click("#hand [data-card=seyanets]")
        assert page.locator(".half__preview:visible").count() == 0
        # D6: a no-effect field can still be chosen.
        page.click("#hand [data-card=rosa]")
        halves.nth(1).click()
        assert page.evaluate("window.__acted") == {"kind": "play", "card": "rosa", "field": 1}

        # Горн: Поджог reaches face-up enemy units only.
        fields = [
            [_half(), _half([{"hidden": True, "placement": 1}], total=0, hidden=1)],
            [_half(), _half([_unit("bortnik", 4, 2), _unit("seyanets", 2, 3)])],
            [_half(), _half()],
        ]
        legal = [{"kind": "play", "card": "podzhog", "field": f} for f in (0, 1, 2)] + [{"kind": "pass"}]
        _mount(page, live_server, _view(houses=["gorn", "olkha"], hand=["podzhog"], fields=fields), 0, legal)
        page.click("#hand [data-card=podzhog]")
        assert [halves.nth(f).get_attribute("data-effect") for f in range(3)] == ["no", "yes", "no"]
        assert (
            halves.nth(0).locator(".half__preview").inner_text()
            == "Без эффекта: скрытые карты поджог не задевает"
        )
        assert halves.nth(1).locator(".half__preview").inner_text() == "Поджог: −2 ×2, сгорит ×1"
        assert (
            halves.nth(2).locator(".half__preview").inner_text() == "Без эффекта: здесь нет отрядов соперника"
        )
        assert page.locator(".field-col.tactic-target").count() == 1
        assert not errors, errors
    finally:
        context.close()


def test_units_show_abilities_and_where_their_strength_comes_from(live_server: str, browser: Any) -> None:
    context, page, errors = _context(browser)
    try:
        fields = [
            [
                _half([_unit("sova", 5, 1, face_down=True), _unit("stary_dub", 6, 2, carried=True)]),
                _half([_unit("golem", 8, 3, shield="spent"), _unit("pushkar", 1, 4)]),
            ],
            [_half([_unit("otshelnik", 6, 5)]), _half([_unit("shchitonosets", 4, 6, shield="ready")])],
            [
                _half([_unit("khozyayka_roshchi", 6, 7)]),
                _half([{"hidden": True, "placement": 8}], total=0, hidden=1),
            ],
        ]
        _mount(page, live_server, _view(fields=fields), 0)

        def unit(placement: int) -> Any:
            return page.locator(f".unit[data-placement='{placement}']")

        def tags(placement: int) -> list[str]:
            return [t.strip() for t in unit(placement).locator(".unit__tag").all_inner_texts()]

        assert tags(1) == ["тайник: рубашкой вверх", "росток"]
        assert unit(1).locator(".unit__strbox").inner_text().split() == ["5", "(3+2)"]
        assert tags(2) == ["корни: с прошлого сезона"]
        assert unit(2).locator(".unit__strbox").inner_text().split() == ["6", "(5+1)"]
        assert tags(3) == ["щит потрачен"] and unit(3).locator(".unit__calc").count() == 0
        assert tags(4) == ["выстрел 3"]
        assert unit(4).locator(".unit__strbox").inner_text().split() == ["1", "(3−2)"]
        assert tags(5) == ["одиночка"] and unit(5).locator(".unit__calc").inner_text() == "(3+3)"
        assert tags(6) == ["щит готов"]
        assert tags(7) == ["корни"]
        assert unit(8).inner_text().split() == ["#8", "скрыт", "?"]
        for p in (1, 2, 3, 4, 5, 6, 7):
            assert unit(p).locator(".unit__tag").first.get_attribute("title"), p
        assert "печатная 3 + 2" in (unit(1).get_attribute("title") or "")
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_card_names_never_break_inside_a_word(
    live_server: str, browser: Any, viewport: dict[str, int]
) -> None:
    context, page, errors = _context(browser, viewport)
    try:
        page.goto(f"{live_server}/login")
        catalog = page.evaluate(
            "async () => (await (await fetch('/api/games')).json()).find((g) => g.slug === 'mezha').catalog"
        )
        for house, other in (("olkha", "gorn"), ("gorn", "olkha")):
            ids = [c["id"] for c in catalog["cards"] if c["house"] == house]
            legal = [{"kind": "play", "card": c, "field": 0} for c in ids] + [{"kind": "pass"}]
            _mount(page, live_server, _view(houses=[house, other], hand=ids), 0, legal)
            found = page.evaluate(
                """() => [...document.querySelectorAll('.hand-card')].map((card) => {
                     const name = card.querySelector('.hand-card__name');
                     const cs = getComputedStyle(name);
                     return { text: name.textContent, wrap: cs.overflowWrap, brk: cs.wordBreak,
                              hyph: cs.hyphens, name: name.scrollWidth - name.clientWidth,
                              card: card.scrollWidth - card.clientWidth };
                   })"""
            )
            assert len(found) == len(ids)
            for f in found:
                assert (f["wrap"], f["brk"], f["hyph"]) == ("normal", "normal", "manual"), f
                assert f["name"] <= 0 and f["card"] <= 0, f  # the longest word fits: no overflow, no break
        assert not errors, errors
    finally:
        context.close()


# -- live matches --------------------------------------------------------------------------------
def test_phone_hand_is_a_sticky_bar_and_the_log_is_near_the_top(live_server: str, browser: Any) -> None:
    context, page, errors = _context(browser, PHONE)
    try:
        sign_up(context, live_server, "ui")
        mid = _bot_match(context, live_server, "olkha")
        page.goto(f"{live_server}/matches/{mid}")
        page.wait_for_function(JS_MY_TURN_OR_PAUSE)
        page.evaluate("window.scrollTo(0, 0)")

        box = page.evaluate(
            """() => { const p = document.getElementById('hand-panel'); const r = p.getBoundingClientRect();
                 const h = document.getElementById('hand'); const cs = getComputedStyle(h);
                 return { pos: getComputedStyle(p).position, top: r.top, bottom: r.bottom, vh: innerHeight,
                          wrap: cs.flexWrap, ox: cs.overflowX, sw: h.scrollWidth, cw: h.clientWidth,
                          fields: document.getElementById('fields').getBoundingClientRect().top }; }"""
        )
        assert box["pos"] == "sticky"
        # stuck to the bottom at the top of the page
        assert box["vh"] - 2 <= box["bottom"] <= box["vh"] + 1, box
        assert box["fields"] < box["top"], box  # the fields are on screen above it
        assert box["top"] > box["vh"] * 0.45, box  # it leaves most of the screen to the board
        assert box["wrap"] == "nowrap" and box["ox"] == "auto" and box["sw"] > box["cw"], box

        # The last events are near the top, and they are the log's last lines.
        strip = page.locator("#log-strip li")
        page.wait_for_selector("#log-strip-wrap", state="visible", timeout=10_000)  # drawn with the events
        assert 1 <= strip.count() <= 3
        # the log may still be catching up (events since the last seq): wait until both show the same end
        page.wait_for_function(
            """() => { const s = [...document.querySelectorAll('#log-strip li')].pop();
                 const l = [...document.querySelectorAll('#log li')].pop();
                 return s && l && s.innerText.trim() === l.innerText.trim(); }""",
            timeout=5000,
        )
        assert (
            page.locator("#log-strip-wrap").bounding_box()["y"] < page.locator("#fields").bounding_box()["y"]
        )

        # Pick a card, then a field, without scrolling by hand.
        if _my_turn(page):
            page.locator("#hand [data-card]:enabled").first.click()
            before = _seq(page)
            page.locator(".half-me.droppable").first.click()
            page.wait_for_function(JS_SEQ_ABOVE, arg=before)

        # Pass to the end of the season; the pause says how it went and who starts next.
        deadline = time.monotonic() + 30
        while not _in_pause(page):
            assert time.monotonic() < deadline, "season 1 did not end"
            assert page.locator("#result").is_hidden(), "the match ended in season 1"
            if _my_turn(page):
                before = _seq(page)
                page.click("#pass")
                page.wait_for_function(JS_SEQ_ABOVE, arg=before)
            else:
                page.wait_for_function(JS_MY_TURN_OR_PAUSE)
        line = page.locator("#season-line").inner_text()
        cells = page.locator("#past-seasons tbody tr").first.locator("td").all_inner_texts()[1:4]
        verdict = _check_season_line(line, cells)
        assert line in _log_lines(page)
        nxt = page.locator("#next-starter").inner_text()
        if verdict == "ваша победа":
            assert nxt == "Сезон 2 начнёте вы — вы выиграли сезон 1.", nxt
        elif verdict == "победа соперника":
            assert nxt == "Сезон 2 начнёт соперник — соперник выиграл сезон 1.", nxt
        else:
            assert re.fullmatch(
                r"Сезон 2 (начнёте вы|начнёт соперник) — сезон 1 сыгран вничью, а начинал.*\.", nxt
            ), nxt
        assert page.locator("#next-season").is_visible()

        # Season 2 (both draw two: the opponent's cards are secret now), then resign.
        before = _seq(page)
        page.click("#next-season")
        page.wait_for_function(JS_SEQ_ABOVE, arg=before)
        assert "Сезон 2" in page.locator("#season-chip").inner_text()
        assert "Соперник тянет карту" in _log_lines(page)
        page.click("#resign")
        page.click("#resign-confirm")
        page.locator("#result").wait_for(state="visible")
        assert page.locator("#result-title").inner_text() == "Поражение"
        assert page.locator("#result-reason").inner_text() == "Вы сдались."
        # After the end the log is fetched again with every card named.
        page.wait_for_selector("#match[data-log-full='1']")
        lines = _log_lines(page)
        assert "Соперник тянет карту" not in lines
        assert any(x.startswith("Соперник тянет карту: ") for x in lines), lines
        assert lines[-1] == "Партия окончена: поражение — вы сдались"
        assert page.locator("#hand-panel").is_hidden()
        assert not errors, errors
    finally:
        context.close()


def test_no_moves_while_the_connection_is_down(
    live_server: str, browser: Any, console_allow: list[str]
) -> None:
    console_allow.append(r"ERR_INTERNET_DISCONNECTED")  # the test takes the page offline
    context, page, errors = _context(browser)
    try:
        sockets: list[Any] = []

        def on_ws(ws: Any) -> None:
            ws.connect_to_server()
            sockets.append(ws)

        page.route_web_socket(re.compile(r"/ws/matches/"), on_ws)
        sign_up(context, live_server, "ui")
        mid = _bot_match(context, live_server)
        page.goto(f"{live_server}/matches/{mid}")
        page.wait_for_function(JS_MY_TURN_OR_PAUSE)
        page.wait_for_function("() => document.getElementById('turn').textContent.trim() === 'Ваш ход'")
        assert page.locator("#hand [data-card]:enabled").count() > 0

        context.set_offline(True)  # HTTP and new sockets fail …
        sockets[-1].close(code=1001)  # … and the open socket drops
        page.wait_for_function(
            "() => document.getElementById('turn').textContent.trim() === 'Переподключение…'"
        )
        assert page.locator("#hand [data-card]:enabled").count() == 0
        assert page.locator("#pass").is_disabled()
        assert page.locator("#resign").is_disabled()
        assert page.locator("#offline-note").is_visible()
        page.locator("#hand [data-card]").first.click(force=True)  # nothing happens: no selection, no field
        assert page.locator(".half-me.droppable").count() == 0
        page.wait_for_timeout(4500)  # a few reconnect attempts and HTTP polls, all failing
        assert page.locator("#turn").inner_text().strip() == "Переподключение…"
        texts = [t.strip() for t in page.locator(".toast:not(.toast-out)").all_inner_texts()]
        assert len(texts) == len(set(texts)), texts  # never two identical toasts
        assert not any("Нет связи" in t for t in texts), texts  # the page already says so

        context.set_offline(False)
        page.wait_for_function(
            "() => document.getElementById('turn').textContent.trim() === 'Ваш ход'", timeout=20_000
        )
        assert page.get_attribute("#match", "data-conn") == "open"
        assert page.locator("#hand [data-card]:enabled").count() > 0
        assert page.locator("#offline-note").is_hidden()
        assert not [e for e in errors if "ERR_INTERNET_DISCONNECTED" not in e and "WebSocket" not in e], (
            errors
        )
    finally:
        context.close()


def test_both_press_next_season_at_once(live_server: str, browser: Any) -> None:
    ctx_a, a, errors_a = _context(browser)
    ctx_b, b, errors_b = _context(browser)
    try:
        sign_up(ctx_a, live_server, "na")
        sign_up(ctx_b, live_server, "nb")
        r = ctx_a.request.post(
            f"{live_server}/api/matches",
            data={"game": "mezha", "vs": "invite", "options": {"house": "olkha"}},
        )
        assert r.status == 201, r.text()
        token = r.json()["invite_token"]
        r = ctx_b.request.post(f"{live_server}/api/invites/{token}/accept", data={})
        assert r.status == 200, r.text()
        mid = r.json()["id"]

        # B's socket can be held: what the server sends waits until released.
        held: dict[str, Any] = {"on": False, "buf": [], "page": None}

        def on_ws(ws: Any) -> None:
            server = ws.connect_to_server()
            held["page"] = ws

            def from_server(message: Any) -> None:
                if held["on"]:
                    held["buf"].append(message)
                else:
                    ws.send(message)

            server.on_message(from_server)

        b.route_web_socket(re.compile(r"/ws/matches/"), on_ws)
        for p in (a, b):
            p.goto(f"{live_server}/matches/{mid}")
        for p in (a, b):
            p.wait_for_function("() => document.getElementById('match').dataset.seq !== undefined")

        # Both pass at once: an empty, drawn season 1.
        starter = None
        deadline = time.monotonic() + 20
        while not (_in_pause(a) and _in_pause(b)):
            assert time.monotonic() < deadline, "season 1 did not end"
            for p in (a, b):
                if _my_turn(p):
                    starter = starter or p
                    before = _seq(p)
                    p.click("#pass")
                    p.wait_for_function(JS_SEQ_ABOVE, arg=before)
            time.sleep(0.05)
        assert starter is not None
        other = b if starter is a else a
        empty = (
            "Сезон 1 — ничья: поля 0:0 (Луг — никому, Брод — никому, Холм — никому), "
            "общая сила тоже поровну — 0:0"
        )
        for p in (a, b):
            p.wait_for_function("() => !!document.getElementById('season-line')")
            assert p.locator("#season-line").inner_text() == empty
        assert starter.locator("#next-starter").inner_text() == (
            "Сезон 2 начнёт соперник — сезон 1 сыгран вничью, а начинали его вы."
        )
        assert other.locator("#next-starter").inner_text() == (
            "Сезон 2 начнёте вы — сезон 1 сыгран вничью, а начинал его соперник."
        )

        # A presses first; B, not yet told, presses too, at the old seq.
        pause_seq = _seq(a)
        held["on"] = True
        a.click("#next-season")
        a.wait_for_function(JS_SEQ_ABOVE, arg=pause_seq)
        b.click("#next-season")
        deadline = time.monotonic() + 10
        while not any("stale_seq" in str(m) or "not_in_pause" in str(m) for m in held["buf"]):
            assert time.monotonic() < deadline, f"B's late press was not rejected: {held['buf']}"
            b.wait_for_timeout(50)
        held["on"] = False
        for message in held["buf"]:
            held["page"].send(message)
        held["buf"].clear()
        b.wait_for_function(JS_SEQ_ABOVE, arg=pause_seq)
        b.wait_for_timeout(800)
        for p in (a, b):
            assert "Сезон 2" in p.locator("#season-chip").inner_text()
            assert p.locator(".toast-error").count() == 0, p.locator(".toast").all_inner_texts()
            assert p.locator("#pause-banner").is_hidden()

        a.click("#resign")
        a.click("#resign-confirm")
        for p, reason in ((a, "Вы сдались."), (b, "Соперник сдался.")):
            p.locator("#result").wait_for(state="visible")
            assert p.locator("#result-reason").inner_text() == reason
        assert not errors_a, errors_a
        assert not errors_b, errors_b
    finally:
        ctx_a.close()
        ctx_b.close()
