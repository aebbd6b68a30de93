"""The tournament page after a fresh-user QA pass (issue 26 §Pages), in a real browser: a refusal reads in the
page's language (Ukrainian here), never the API's English; the start time and, for an arena, the end with a
live countdown; the organiser picks a bot's level; «Отменить турнир» asks first, and the match it aborts says
the tournament was cancelled, not «администратор»; an unknown tournament is the 404 page."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from live_helpers import Member

pytestmark = pytest.mark.browser


def _tournament(org: Member, **body: Any) -> str:
    created = org.post("/api/tournaments", {"game": "mezha", "format": "round_robin", "rated": False, **body})
    return str(created["id"])


def _started(org: Member, *others: Member, **body: Any) -> tuple[str, dict[str, Any]]:
    """A tournament of ``org`` and ``others`` (``body`` as :func:`_tournament`), started: its id and the
    start's answer."""
    tid = _tournament(org, **body)
    for m in (org, *others):
        m.post(f"/api/tournaments/{tid}/join")
    return tid, org.post(f"/api/tournaments/{tid}/start")


def _board_recorded(org: Member, tid: str, seconds: float = 15.0) -> dict[str, Any]:
    """The first board of round 1 once the tournament driver has recorded its result (it does so on
    hearing the match end, a moment after the players see it: play/tournament_driver.py)."""
    deadline = time.monotonic() + seconds
    while True:
        board: dict[str, Any] = org.get(f"/api/tournaments/{tid}")["rounds"][0]["pairings"][0]
        if board["result"] is not None or time.monotonic() > deadline:
            return board
        time.sleep(0.1)


def _ask_then_keep(page: Any, action: str, question: str) -> None:
    """Tap the button of ``action``: its dialog asks ``question``, and its «keep» button closes it."""
    page.click(f"#tournament-{action}")
    dialog = page.locator(f"#tournament-{action}-dialog")
    assert dialog.is_visible() and question in dialog.inner_text()
    page.click(f"#tournament-{action}-keep")
    assert not dialog.is_visible()


def test_a_refusal_reads_in_ukrainian_and_the_start_time_is_shown(
    browser: Any, live_server: str, console_allow: list[str]
) -> None:
    console_allow.append("status of 409")  # the refused start, on purpose
    org, other = Member(browser, live_server, "tqo"), Member(browser, live_server, "tqb")
    try:
        starts = datetime.now(UTC) + timedelta(days=1)
        tid = _tournament(org, format="swiss", rounds=5, starts_at=starts.isoformat())
        org.post(f"/api/tournaments/{tid}/join")
        other.post(f"/api/tournaments/{tid}/join")
        page = org.page
        page.goto(f"{live_server}/lang/uk?next=/tournaments/{tid}")
        page.locator("#tournament[data-status='open']").wait_for()
        when = page.locator("#tournament-when").inner_text()
        local = page.evaluate("(iso) => new Date(iso).getHours()", starts.isoformat())
        assert when.startswith("Початок:") and f"{local:02d}:" in when, when
        note = page.locator("#tournament-note").inner_text()
        assert "турів буде 1, а не 5" in note, note
        page.click("#tournament-start")
        toast = page.locator(".toast").first
        toast.wait_for()
        text = toast.inner_text()
        assert text.startswith("Забагато турів") and "не більше ніж 1 туру" in text, text
        assert "players" not in text and "allow" not in text
        assert org.errors == [] and other.errors == []
    finally:
        org.close()
        other.close()


def test_the_organiser_enters_a_bot_of_the_level_they_pick(browser: Any, live_server: str) -> None:
    org = Member(browser, live_server, "tqv")
    try:
        tid = _tournament(org)
        page = org.page
        page.goto(f"{live_server}/tournaments/{tid}")
        page.locator("#tournament[data-status='open']").wait_for()
        options = page.locator("#tournament-bot-level option")
        assert options.count() == 5 and "Мастер" in options.last.inner_text()
        default = page.locator("#tournament-bot-level option:checked").inner_text()
        assert "Лёгкий" in default, "the lobby's default level"
        page.select_option("#tournament-bot-level", "master")
        page.click("#tournament-bots")
        page.wait_for_function("() => document.querySelectorAll('#tournament-players li').length === 1")
        assert [p["username"] for p in org.get(f"/api/tournaments/{tid}")["players"]] == ["bot:master"]
        assert org.errors == []
    finally:
        org.close()


def test_cancel_asks_first_and_the_aborted_match_says_the_tournament_was_cancelled(
    browser: Any, live_server: str
) -> None:
    org, other = Member(browser, live_server, "tqc"), Member(browser, live_server, "tqd")
    try:
        tid, started = _started(org, other)
        mid = started["rounds"][0]["pairings"][0]["match_id"]
        page = org.page
        page.goto(f"{live_server}/tournaments/{tid}")
        page.locator("#tournament[data-status='running']").wait_for()
        _ask_then_keep(page, "cancel", "Отменить турнир?")
        status = org.get(f"/api/tournaments/{tid}")["status"]
        assert status == "running", "closing the question changes nothing"
        page.click("#tournament-cancel")
        page.click("#tournament-cancel-confirm")
        page.locator("#tournament[data-status='cancelled']").wait_for()

        other.page.goto(f"{live_server}/matches/{mid}")
        result = other.page.locator("#result")
        result.wait_for(state="visible")
        words = result.inner_text()
        assert "Турнир отменён" in words and "администратор" not in words.lower(), words
        assert org.errors == [] and other.errors == []
    finally:
        org.close()
        other.close()


def test_withdrawing_asks_first(browser: Any, live_server: str) -> None:
    """«Выбыть из турнира» loses the game in play and the rest: one tap must not do it (a phone puts it
    right under «Ваша партия готова: Играть»)."""
    org, other = Member(browser, live_server, "tqw"), Member(browser, live_server, "tqx")
    try:
        tid, _ = _started(org, other)
        page = other.page
        page.goto(f"{live_server}/tournaments/{tid}")
        page.locator("#tournament[data-status='running']").wait_for()
        _ask_then_keep(page, "withdraw", "Выбыть из турнира?")
        players = org.get(f"/api/tournaments/{tid}")["players"]
        assert not any(p["withdrawn"] for p in players), "closing the question changes nothing"
        page.click("#tournament-withdraw")
        page.click("#tournament-withdraw-confirm")
        page.wait_for_function("() => !document.querySelector('#tournament-withdraw')", polling=100)
        players = org.get(f"/api/tournaments/{tid}")["players"]
        assert [p["username"] for p in players if p["withdrawn"]] == [other.name]
        assert org.errors == [] and other.errors == []
    finally:
        org.close()
        other.close()


def test_a_player_without_a_game_in_play_reads_why(browser: Any, live_server: str) -> None:
    """Three players: round 1's bye reads that they sit out with a point and when the next round comes; once
    round 1's game ends, the page (following the lobby socket) offers round 2's game instead. (A game over
    before the round: tests/js/tournament_words.test.mjs.)"""
    members = [Member(browser, live_server, p) for p in ("tqr", "tqs", "tqt")]
    by_name = {m.name: m for m in members}
    try:
        tid, t = _started(*members)
        pairings = t["rounds"][0]["pairings"]
        bye = by_name[next(p["seats"][0] for p in pairings if p["seats"][1] is None)]
        board = next(p for p in pairings if p["seats"][1] is not None)
        page = bye.page
        page.goto(f"{live_server}/tournaments/{tid}")
        waiting = page.locator("#tournament-waiting")
        waiting.wait_for(state="visible")
        assert waiting.inner_text().startswith("В этом туре вы отдыхаете и получаете 1 очко."), (
            waiting.inner_text()
        )
        assert "Следующий тур начнётся" in waiting.inner_text()
        assert not page.locator("#tournament-ready").is_visible()

        loser = by_name[board["seats"][1]]
        st = loser.get(f"/api/matches/{board['match_id']}/state")
        loser.post(
            f"/api/matches/{board['match_id']}/actions",
            {"id": "gg", "seq": st["seq"], "action": {"kind": "resign"}},
        )
        page.locator("#tournament-ready:not([hidden]) #tournament-play").wait_for()
        assert not waiting.is_visible()
        for m in members:
            assert m.errors == [], m.errors
    finally:
        for m in members:
            m.close()


def test_the_lobby_list_opens_on_the_running_tournaments_when_none_is_upcoming(
    browser: Any, live_server: str
) -> None:
    """The lobby's «Турниры» opens on «Скоро»; with nothing upcoming and a tournament running (a club evening
    in progress) it opens on «Идут» instead. (The server is shared: the test answers the upcoming list.)"""
    org, other = Member(browser, live_server, "tql"), Member(browser, live_server, "tqm")
    try:
        tid, _ = _started(org, other)
        page = org.page
        selected = "() => document.querySelector('.tournament-tab[aria-selected=true]').dataset.status"
        page.route("**/api/tournaments?status=open", lambda route: route.fulfill(json=[]))
        page.goto(f"{live_server}/")
        page.locator("#tournament-items[data-loaded]").wait_for(state="attached")
        assert page.evaluate(selected) == "running"
        assert page.locator(f"#tournament-items li[data-id='{tid}']").is_visible()

        page.route("**/api/tournaments?status=running", lambda route: route.fulfill(json=[]))
        page.route("**/api/tournaments?status=paused", lambda route: route.fulfill(json=[]))
        page.goto(f"{live_server}/")
        page.locator("#tournament-items[data-loaded]").wait_for(state="attached")
        assert page.evaluate(selected) == "open", "nothing anywhere: the upcoming tab"
        assert page.locator("#tournament-items").inner_text() == "Пока нет турниров."
        assert org.errors == []
    finally:
        org.close()
        other.close()


def test_a_board_ended_before_the_first_moves_reads_as_the_forfeit_the_table_counts(
    browser: Any, live_server: str
) -> None:
    """A rated board where one player resigns before both first moves: the tournament scores a forfeit (+/-),
    so the match page and the lobby's list say «Победа без игры» / «Поражение без игры», not «не в счёт» or
    «Отменена»; and a tournament board offers no «Отменить партию»."""
    org, other = Member(browser, live_server, "tqf"), Member(browser, live_server, "tqg")
    try:
        tid, started = _started(org, other, game="towers", rated=True)  # Межа is never rated
        mid = started["rounds"][0]["pairings"][0]["match_id"]
        page = org.page
        page.goto(f"{live_server}/matches/{mid}")
        page.locator("#board").wait_for()
        page.wait_for_function("() => document.querySelector('#turn').textContent.trim() !== '—'")
        assert not page.locator("#abort-match").is_visible(), "no «Отменить партию» on a tournament board"
        st = other.get(f"/api/matches/{mid}/state")
        other.post(
            f"/api/matches/{mid}/actions", {"id": "gg", "seq": st["seq"], "action": {"kind": "resign"}}
        )
        result = page.locator("#result")
        result.wait_for(state="visible")
        assert page.locator("#result-title").inner_text() == "Победа без игры"
        words = result.inner_text()
        assert "в турнире это победа без игры" in words and "не в счёт" not in words, words
        assert not page.locator("#rematch").is_visible(), "no «Реванш» on a tournament board"
        board = _board_recorded(org, tid)  # the driver records it just after the match ends
        assert board["forfeit"] and board["result"] in ("+/-", "-/+"), board
        page.goto(f"{live_server}/tournaments/{tid}")  # a forfeit has no moves to replay
        assert page.locator(f"li[data-match='{mid}'] a.tournament-match").inner_text() == "подробнее"
        assert "Победа без игры" in page.locator("#standings-legend").inner_text()  # why wins > played
        # the lobby's «Мои партии» says the same, and which tournament it was (it said «Отменена»)
        page.goto(f"{live_server}/")
        item = page.locator(f"#finished-matches li:has(a[href='/matches/{mid}'])")
        item.wait_for()
        assert item.locator(".badge").inner_text() == "Победа без игры"
        assert "турнир «" in item.inner_text() and "Отменена" not in item.inner_text()
        assert org.errors == [] and other.errors == []
    finally:
        org.close()
        other.close()


def test_an_arena_shows_its_end_and_counts_down(browser: Any, live_server: str) -> None:
    org, other = Member(browser, live_server, "tqa"), Member(browser, live_server, "tqe")
    try:
        tid = _tournament(org, format="arena", minutes=5)
        org.post(f"/api/tournaments/{tid}/join")
        other.post(f"/api/tournaments/{tid}/join")
        org.post(f"/api/tournaments/{tid}/start")
        page = org.page
        page.goto(f"{live_server}/tournaments/{tid}")
        countdown = page.locator("#tournament-countdown")
        countdown.wait_for()
        assert page.locator("#tournament-when").inner_text().startswith("Конец арены:")
        first = int(countdown.get_attribute("data-left") or "0")
        assert 0 < first <= 300 and "осталось " in countdown.inner_text()
        page.wait_for_function(
            "(s) => Number(document.getElementById('tournament-countdown').dataset.left) < s", arg=first
        )
        assert org.errors == [] and other.errors == []
    finally:
        org.close()
        other.close()


def test_an_unknown_tournament_is_the_404_page(
    browser: Any, live_server: str, console_allow: list[str]
) -> None:
    console_allow.append("status of 404")  # the page itself, on purpose
    member = Member(browser, live_server, "tqn")
    try:
        for tid in ("unknown", "424242", "0b7f6c3e-5d1a-4c43-9e0f-1f2a3b4c5d6e"):
            response = member.page.goto(f"{live_server}/tournaments/{tid}")
            assert response is not None and response.status == 404
            assert member.page.locator("#not-found h1").inner_text() == "Турнир не найден"
    finally:
        member.close()


def test_the_form_sets_a_round_deadline_for_a_round_robin_and_a_swiss_only(
    browser: Any, live_server: str
) -> None:
    org = Member(browser, live_server, "tqf")
    try:
        page = org.page
        page.goto(f"{live_server}/tournaments")
        deadline = page.locator("input[name=round_minutes]")
        assert deadline.is_visible(), "a round robin (the default) has a round deadline"
        page.check("input[name=format][value=arena]")
        assert not deadline.is_visible(), "an arena is a time box: no round deadline"
        page.check("input[name=format][value=swiss]")
        assert deadline.is_visible()
        page.fill("input[name=rounds]", "3")
        deadline.fill("20")
        page.click("#create-tournament")
        page.wait_for_url("**/tournaments/*")
        page.locator("#tournament[data-status='open']").wait_for()
        assert "20 мин на тур" in page.locator("#tournament-facts").inner_text()
        tid = page.url.rsplit("/", 1)[1]
        assert org.get(f"/api/tournaments/{tid}")["round_minutes"] == 20
        assert org.errors == []
    finally:
        org.close()
