"""Ratings in a real browser (issue 14 §8): two members play a rated Дві вежі match — «Отменить партию» is
offered until both have moved — one resigns after a few moves, both see their new rating with its change on
the result, both profiles show the new ratings and the match, and the replay steps from the first action to
the last (buttons, arrow keys, the move list). Waits are on the pages' own hooks, never fixed sleeps."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from live_helpers import JS_SEQ_AT_LEAST, Member, api_moves_until, duel

pytestmark = pytest.mark.browser

JS_REPLAY_AT = "(s) => document.getElementById('replay')?.dataset.seq === String(s)"


@pytest.fixture
def two(browser: Any, live_server: str) -> Iterator[tuple[Member, Member]]:
    a = Member(browser, live_server, "rta")
    b = Member(browser, live_server, "rtb")
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def _profile_rating(m: Member, name: str) -> str:
    m.page.goto(f"{m.base}/members/{name}")
    card = m.page.locator("#standings[data-loaded] .standing[data-game='towers'] .standing__rating")
    card.wait_for()
    return str(card.get_attribute("data-rating"))


def test_a_rated_towers_match_changes_both_ratings_shown_everywhere_and_replays(
    two: tuple[Member, Member],
) -> None:
    a, b = two
    mid = duel(a, b, "towers", {}, move_seconds=86_400)
    for m in (a, b):
        m.open_match(mid)
        players = m.page.locator("#match-players[data-rated='1']")
        players.wait_for()
        assert a.name in players.inner_text() and b.name in players.inner_text()
        assert "1500?" in players.inner_text(), "new members: the start rating, provisional"
        m.page.locator("#abort-match:enabled").wait_for()

    # A few moves (the first of each player closes the abort window), the pages following live.
    # at least 5, until both have moved («Граємо знову» can chain one player's actions): no longer abortable
    seq = api_moves_until(a, mid, b, until=lambda st: st["seq"] >= 5 and not st["abortable"])
    for m in (a, b):
        m.page.wait_for_function(JS_SEQ_AT_LEAST, arg=seq)
        m.page.locator("#abort-match").wait_for(state="hidden")

    # B resigns from the page.
    b.page.click("#resign")
    b.page.click("#resign-confirm")
    shown: dict[str, int] = {}
    for m in (a, b):
        m.page.locator("#result").wait_for(state="visible")
        line = m.page.locator("#result-rating[data-delta]")
        line.wait_for()
        shown[m.name] = int(line.get_attribute("data-delta") or 0)
    ratings = {m.name: m.get(f"/api/members/{m.name}")["games"][0] for m in (a, b)}
    for m in (a, b):
        line = m.page.locator("#result-rating")
        mine = ratings[m.name]["rating"]["rating"]
        assert str(mine) in line.inner_text() and "Ваш рейтинг" in line.inner_text()
    assert shown[a.name] > 0 > shown[b.name]
    assert "Победа" in a.page.locator("#result").inner_text()
    assert f"+{shown[a.name]}" in a.page.locator("#result-rating").inner_text()
    assert f"−{-shown[b.name]}" in b.page.locator("#result-rating").inner_text()

    # The replay, on the winner's page: first → last by the arrow keys, then the move list and the buttons.
    page = a.page
    panel = page.locator("#replay")
    panel.wait_for(state="visible")
    last = int(panel.get_attribute("data-last") or 0)
    assert last == seq + 1, "every action, the resignation included"
    assert page.locator("#replay-moves button[data-seq]").count() == last + 1
    page.click("#replay-first")
    page.wait_for_function(JS_REPLAY_AT, arg=0)
    assert "Начальная раздача" in page.inner_text("#replay-action")
    hands = page.inner_text("#replay-hands")
    assert a.name in hands and b.name in hands, "full information: both hands"
    page.locator("body").click(position={"x": 5, "y": 5})
    for step in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(JS_REPLAY_AT, arg=step)
        assert page.inner_text("#replay-action").startswith(f"{step}.")
    assert page.inner_text("#replay-pos") == f"Шаг {last} из {last}"
    assert page.locator("#replay-next").is_disabled() and page.locator("#replay-last").is_disabled()
    assert "сдача" in page.inner_text("#replay-action")
    page.keyboard.press("Home")
    page.wait_for_function(JS_REPLAY_AT, arg=0)
    page.click("#replay-moves button[data-seq='2']")
    page.wait_for_function(JS_REPLAY_AT, arg=2)
    assert page.locator("#replay-moves button[data-seq='2']").get_attribute("aria-current") == "step"
    page.click("#replay-last")
    page.wait_for_function(JS_REPLAY_AT, arg=last)

    # Both profiles: the new ratings, and the match in the history with its change and a replay link.
    for m, other, word in ((a, b, "Победа"), (b, a, "Поражение")):
        expected = ratings[m.name]["rating"]
        text = f"{expected['rating']}?" if expected["provisional"] else str(expected["rating"])
        assert _profile_rating(m, m.name) == text
        row = m.page.locator(f"#history[data-loaded] #history-table tr[data-match='{mid}']")
        row.wait_for()
        assert word in row.inner_text() and other.name in row.inner_text()
        sign = "+" if shown[m.name] > 0 else "−"
        assert f"{sign}{abs(shown[m.name])}" in row.inner_text()
        assert m.page.locator("#history-table tbody tr").count() == 1
        assert m.page.locator("#export-csv").is_visible(), "one's own history downloads"
        # Each sees the other's profile too, with the same rating and no download.
        assert _profile_rating(m, other.name) == _profile_rating(other, other.name)
        m.page.goto(f"{m.base}/members/{other.name}")
        m.page.locator("#history[data-loaded]").wait_for()
        assert m.page.locator("#export-csv").count() == 0

    # The history's «Повтор» opens the match page at the first step of its replay.
    b.page.goto(f"{b.base}/members/{b.name}")
    b.page.locator(f"#history-table a[data-replay='{mid}']").click()
    b.page.wait_for_url(re.compile(rf"/matches/{mid}#replay$"))
    b.page.wait_for_function(JS_REPLAY_AT, arg=0)
    assert b.page.get_attribute("#replay", "data-active") == "1"

    # The leaderboard lists established ratings only: one match leaves both provisional, and each sees
    # their own new rating under the table.
    for m in (a, b):
        m.page.goto(f"{m.base}/leaderboard/towers")
        m.page.locator("#leaderboard[data-loaded]").wait_for()
        assert a.name not in m.page.inner_text("#board") and b.name not in m.page.inner_text("#board")
        mine = m.page.inner_text("#board-me")
        assert f"{ratings[m.name]['rating']['rating']}?" in mine and "предварительный" in mine
    assert not a.errors, a.errors
    assert not b.errors, b.errors


def test_a_resignation_before_both_first_moves_aborts_unrated_and_says_so(
    two: tuple[Member, Member],
) -> None:
    """Issue 31 §1: a rated match resigned before both players moved is aborted — both pages say so, in
    each player's words, and neither profile has a rating."""
    a, b = two
    mid = duel(a, b, "artania", {}, move_seconds=86_400)
    for m in (a, b):
        m.open_match(mid)
        m.page.locator("#match-players[data-rated='1']").wait_for()
    a.page.click("#resign")
    a.page.click("#resign-confirm")
    words = {a.name: "Вы сдались до первых ходов", b.name: "Соперник сдался до первых ходов"}
    for m in (a, b):
        result = m.page.locator("#result")
        result.wait_for(state="visible")
        m.page.wait_for_function(
            "(w) => document.getElementById('result')?.innerText.includes(w)", arg=words[m.name]
        )
        assert "Партия отменена" in result.inner_text() and "рейтинг не изменился" in result.inner_text()
        assert m.page.locator("#result-rating[data-delta]").count() == 0
    assert a.get(f"/api/matches/{mid}")["status"] == "aborted"
    for m in (a, b):
        games = {g["game"]: g for g in m.get(f"/api/members/{m.name}")["games"]}
        assert (games["artania"]["rating"], games["artania"]["matches"]) == (None, 0)
