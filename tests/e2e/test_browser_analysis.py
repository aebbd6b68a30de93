"""Post-game analysis in a real browser (issue 17 §4, §6): two members play some of a Межа match and one
resigns; the bot workers of the server compute the analysis once it is asked for; the replay page then shows
the win-chance graph (inline SVG, one point per action) and the list of marked moves, and clicking a point
moves the replay to that action. A screenshot of the panel is saved as /tmp/analysis-mezha.png."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from live_helpers import Member, api_move, duel

pytestmark = pytest.mark.browser

JS_REPLAY_AT = "(s) => document.getElementById('replay')?.dataset.seq === String(s)"
SCREENSHOT = "/tmp/analysis-mezha.png"


@pytest.fixture
def two(browser: Any, live_server: str) -> Iterator[tuple[Member, Member]]:
    a = Member(browser, live_server, "ana")
    b = Member(browser, live_server, "anb")
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def _analysis(m: Member, mid: str, timeout: float = 90.0) -> dict[str, Any]:
    """Ask for the analysis until the bot workers have computed it (202 ``pending`` until then)."""
    deadline = time.monotonic() + timeout
    while True:
        r = m.context.request.get(f"{m.base}/api/matches/{mid}/analysis")
        if r.status == 200:
            return dict(r.json())
        assert (r.status, r.json()["status"]) == (202, "pending"), r.text()
        assert time.monotonic() < deadline, "the analysis was never computed"
        time.sleep(0.5)


def _resigned_after(a: Member, b: Member, moves: int) -> str:
    """A Межа match between ``a`` and ``b``: ``moves`` actions, then ``b`` resigns (one more action)."""
    mid = duel(a, b, "mezha", {})
    for _ in range(moves):
        assert (api_move(a, mid) or api_move(b, mid)) is not None
    st = b.get(f"/api/matches/{mid}/state")
    b.post(f"/api/matches/{mid}/actions", {"id": "gg", "seq": st["seq"], "action": {"kind": "resign"}})
    return mid


def test_the_replay_shows_the_win_chance_graph_and_a_click_jumps_there(
    two: tuple[Member, Member],
) -> None:
    a, b = two
    mid = _resigned_after(a, b, 14)
    analysis = _analysis(a, mid)
    last = len(analysis["entries"])
    assert last == 15 and [e["seq"] for e in analysis["entries"]] == list(range(1, 16))

    page = a.page
    a.open_match(mid)
    page.locator("#analysis-ask").click()  # the page asks only when the member wants it
    panel = page.locator("#analysis[data-ready]")
    panel.wait_for()
    assert page.locator("#replay").get_attribute("data-last") == str(last)
    points = page.locator("#analysis-graph circle.analysis-point")
    assert points.count() == last, "one point per action"
    # one line per seat through its own moves' estimates (a single line zig-zagged between the two views)
    for seat in (0, 1):
        own = [e for e in analysis["entries"] if e["seat"] == seat]
        line = page.locator(f"#analysis-graph polyline.analysis-line.is-seat{seat}")
        assert len(str(line.get_attribute("points")).split()) == len(own)
        assert page.locator(f"#analysis-graph circle.is-seat{seat}").count() == len(own)
    legend = page.locator("#analysis-legend li").all_inner_texts()
    assert legend == [f"{a.name}: оценка после своих ходов", f"{b.name}: оценка после своих ходов"], legend
    marked = [e for e in analysis["entries"] if e["mark"]]
    assert page.locator(
        "#analysis-graph circle.is-mistake, #analysis-graph circle.is-inaccuracy"
    ).count() == len(marked)
    assert page.locator("#analysis-mistakes li.analysis-mistake").count() == len(marked)
    for text in page.locator("#analysis-mistakes .analysis-best").all_inner_texts():
        # the preferred move alone: «Бот предпочёл: Вы: …» named the actor twice (a fresh-user run)
        assert text.startswith("Бот предпочёл: "), text
        assert not re.match(r"Бот предпочёл: (Вы|Соперник)\b", text), text
    assert "Шансы на победу" in page.inner_text("#analysis-status")

    page.locator("#analysis-graph circle.analysis-point[data-seq='6']").click()
    page.wait_for_function(JS_REPLAY_AT, arg=6)
    assert page.inner_text("#replay-action").startswith("6.")
    assert page.locator("#analysis-graph circle.is-current").get_attribute("data-seq") == "6"
    page.locator("#analysis-graph circle.analysis-point[data-seq='11']").click()
    page.wait_for_function(JS_REPLAY_AT, arg=11)
    page.locator("#replay").screenshot(path=SCREENSHOT)


def test_a_link_to_the_analysis_shows_it_without_asking(
    two: tuple[Member, Member],
) -> None:
    """``/matches/{id}#analysis`` (the admin match page's «Анализ партии» links there) asks for the analysis
    at once and scrolls to it."""
    a, b = two
    mid = _resigned_after(a, b, 6)
    page = a.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{a.base}/matches/{mid}#analysis")
    page.locator("#analysis[data-ready]").wait_for(timeout=90_000)
    assert page.locator("#analysis-ask").is_hidden()
    assert page.locator("#analysis-graph circle.analysis-point").count() == 7
    box = page.locator("#analysis").bounding_box()
    assert box is not None and box["y"] < 844, box  # scrolled into the phone's screen
