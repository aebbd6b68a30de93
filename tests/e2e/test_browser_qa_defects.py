"""QA defects of issue 16 §4–6, checked on the game renderers mounted on a bare page with real views.

Seen by a new member: Сундук войны printed a literal «null» beside the side panels of the base game; the
Артания result emptied the board, so the deciding turn was gone, and the match page showed the engine's step
codes («окно снаряжения W0», «выставление P4»); a spectator or an admin saw both Дві вежі towers pink, the
«50» above a full tower clipped and «Победа игрока 2» instead of the name; result lines were lowercase or did
not say who («пять кругляшей.»); log lines read «+3 отрядов», «Ход 7: соперника», «3 меч.».
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from warchest_page import mount as mount_warchest

from duelclub.games.artania import GAME as ARTANIA
from duelclub.games.towers import GAME as TOWERS
from duelclub.games.warchest import GAME as WARCHEST
from duelclub.games.warchest.actions import WarchestOptions
from duelclub.words import words_for

pytestmark = pytest.mark.browser

SEATS = [{"seat": 0, "username": "alice", "bot": None}, {"seat": 1, "username": "bob", "bot": None}]
JS_MOUNT = """async ({ slug, catalog, msg, seats }) => {
  const m = await import(`/static/js/${slug}.js`);
  const root = document.createElement('div');
  const side = document.createElement('div');
  root.id = 'board';
  const main = document.querySelector('main') || document.body;
  main.replaceChildren(root, side);
  window.r = m.createRenderer({ root, side, catalog, act: () => {}, username: 'alice', info: { seats } });
  window.r.render(msg);
  return { text: root.innerText + '\\n' + side.innerText, outcome: window.r.outcome(msg) };
}"""
STEP_CODE = re.compile(r"\b[WP]\d\b")


def play_out(game: Any, options: dict[str, Any], seed: int) -> Any:
    """A whole match with random legal actions (never resigning): the finished state."""
    rng = random.Random(seed)
    state = game.new_match(bytes([seed]) * 32, game.parse_options(options))
    while game.outcome(state) is None:
        seat = min(game.to_move(state))
        actions = [a for a in game.legal_actions(state, seat) if a.kind != "resign"]
        game.apply(state, seat, rng.choice(actions))
    return state


def mount(page: Any, base: str, game: Any, state: Any, seat: int | None, status: str) -> dict[str, Any]:
    page.goto(f"{base}/login")
    view = game.view(state, seat)
    outcome = game.outcome(state)
    msg = {
        "seq": 9,
        "seat": seat,
        "status": status,
        "view": view,
        "legal": [],
        "result": outcome.to_json() if outcome else None,
    }
    catalog = words_for(game.slug).catalog()
    return page.evaluate(JS_MOUNT, {"slug": game.slug, "catalog": catalog, "msg": msg, "seats": SEATS})


@pytest.fixture
def page(browser: Any) -> Any:
    context = browser.new_context(locale="ru-RU")
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("seat", [0, None])
def test_warchest_base_game_prints_no_null(live_server: str, page: Any, seat: int | None) -> None:
    state = WARCHEST.new_match(bytes(32), WarchestOptions(expansions="base", draft="club"))
    mount_warchest(page, live_server, state, seat)
    assert "null" not in page.locator("#board").inner_text()


def test_artania_result_keeps_the_deciding_turn(live_server: str, page: Any) -> None:
    state = play_out(ARTANIA, {}, 3)
    assert state.outcome.reason in ("five_tokens", "deck_exhausted")
    got = mount(page, live_server, ARTANIA, state, 0, "finished")
    last = ARTANIA.view(state, 0)["results"][-1]
    names = {c["id"]: c["name"] for c in words_for("artania").catalog()["cards"]}
    shown = page.locator("#art-field .art-card-name").all_inner_texts()
    placed = [names[s["card"]] for side in last["slots"] for s in side if s["card"]]
    assert sorted(shown) == sorted(placed) and shown, (shown, placed)
    assert f"Решающий ход {last['turn']}" in page.locator("#art-totals").inner_text()
    assert not STEP_CODE.search(got["text"]), got["text"]


def test_artania_steps_are_words_not_codes(live_server: str, page: Any) -> None:
    state = ARTANIA.new_match(bytes(32), ARTANIA.parse_options({}))
    rng = random.Random(1)
    for _ in range(5):
        seat = min(ARTANIA.to_move(state))
        ARTANIA.apply(
            state, seat, rng.choice([a for a in ARTANIA.legal_actions(state, seat) if a.kind != "resign"])
        )
        got = mount(page, live_server, ARTANIA, state, 0, "active")
        step = page.locator("#art-step").inner_text()
        assert step and not STEP_CODE.search(step), step
        assert not STEP_CODE.search(got["text"]), got["text"]


def test_artania_swords_agree_with_their_number(live_server: str, page: Any) -> None:
    mount(page, live_server, ARTANIA, ARTANIA.new_match(bytes(32), ARTANIA.parse_options({})), 0, "active")
    scored = [
        {"kind": "turn_scored", "turn": 1, "first": 0, "slots": [], "totals": [n, 5]} for n in (1, 2, 3, 4)
    ]
    titles = [
        line and line["text"] for line in words_for("artania").event_lines(scored, 0)
    ]  # worded on the server
    assert titles[0] == "Ход 1: мечи — вы 1, соперник 5", titles
    tips = page.locator("#art-hand [data-card]").evaluate_all("(bs) => bs.map((b) => b.title)")
    assert not [t for t in tips if "меч." in t], tips
    assert all(re.search(r"\d (меч|меча|мечей)$", t) or "—" in t or len(t) > 30 for t in tips), tips


@pytest.mark.parametrize("seat", [None, 0])
def test_towers_finished_match_in_player_colours_and_names(
    live_server: str, page: Any, seat: int | None
) -> None:
    state = play_out(TOWERS, {"battlefield": "archmage_citadel"}, 5)
    got = mount(page, live_server, TOWERS, state, seat, "finished")
    mine = page.locator("#tw-board .tw-tower.tw-mine").count()
    theirs = page.locator("#tw-board .tw-tower.tw-theirs").count()
    assert (mine, theirs) == (1, 1)
    tops = page.locator("#tw-board .tw-num").evaluate_all("(ts) => ts.map((t) => t.getBBox().y)")
    assert min(tops) >= 0, tops  # no tower's number is cut off above the picture
    o = got["outcome"]
    winner = state.outcome.winner
    if seat is None and winner is not None:
        assert o["text"] == f"Победа: {SEATS[winner]['username']}", o
    assert o["reason"][:1].isupper(), o


def test_result_lines_name_winner_and_cause(live_server: str, page: Any) -> None:
    art = play_out(ARTANIA, {}, 3)
    for seat in (0, 1, None):
        o = mount(page, live_server, ARTANIA, art, seat, "finished")["outcome"]
        assert "кругляш" in o["reason"] and (seat is None or o["reason"][:1].isupper()), o
        if art.outcome.winner is not None and art.outcome.reason == "five_tokens":
            subject = {art.outcome.winner: "Вы", 1 - art.outcome.winner: "Соперник"}
            expected = subject[seat] if seat is not None else SEATS[art.outcome.winner]["username"]
            assert o["reason"].startswith(expected), o
    war = WARCHEST.new_match(bytes(32), WarchestOptions(expansions="base", draft="random"))
    mount_warchest(page, live_server, war, None)
    o = page.evaluate(
        "() => wcRenderer.outcome({ seat: 1, view: null, result: { winner: 0, reason: 'control' } })"
    )
    assert o["reason"] == "Соперник первым выставил все свои маркеры контроля", o
