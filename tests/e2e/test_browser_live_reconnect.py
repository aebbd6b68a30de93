"""The match page keeps a live match going by itself (issue 6): through a network drop, through a restart of
the server, and when the opponent leaves for good (the win by abandonment).

These tests run their own server (:class:`ServerProcess`: its own port and SQLite file, a short
``ABANDON_GRACE_SECONDS``), since one of them stops and starts it. Two members play Межа (no move clock);
the opponent acts through the API while the page under test is offline. Nobody reloads the page: it must
notice the drop, say so, reconnect and catch up on its own. Waits are on conditions, never fixed sleeps.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from live_helpers import (
    JS_CONN,
    JS_CONN_DOWN,
    JS_SEQ_ABOVE,
    JS_SEQ_AT_LEAST,
    Member,
    ServerProcess,
    api_move,
    api_moves_until,
    duel,
    server_env_with,
)

pytestmark = pytest.mark.browser

GRACE_SECONDS = 5


@pytest.fixture(scope="module")
def own_server(
    server_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("live-server")
    env = server_env_with(server_env, tmp, ABANDON_GRACE_SECONDS=str(GRACE_SECONDS))
    server = ServerProcess(env, tmp / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def members(browser: Any, own_server: ServerProcess) -> Iterator[tuple[Member, Member]]:
    a = Member(browser, own_server.base, "rca")
    b = Member(browser, own_server.base, "rcb")
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def _opponent_to_move(a: Member, b: Member) -> str:
    """A Межа duel (A seat 0, B seat 1) moved on through the API until only B may act."""
    mid = duel(a, b, "mezha", {"house": "olkha"})
    api_moves_until(a, mid, b, until=lambda st: st["to_move"] == [1])
    return mid


def _click_a_move(page: Any) -> None:
    """Act once in Межа by clicking, as a player would: a card onto a highlighted field, or «Пас»;
    «Следующий сезон» in the pause between seasons."""
    page.locator("#turn", has_text="Ваш ход").or_(page.locator("#next-season:enabled")).first.wait_for()
    before = int(page.get_attribute("#match", "data-seq") or -1)
    rng = random.Random(3)
    next_season = page.locator("#next-season")
    if next_season.is_visible() and next_season.is_enabled():
        next_season.click()
    elif page.locator("#hand [data-card]:enabled").count():
        cards = page.locator("#hand [data-card]:enabled")
        cards.nth(rng.randrange(cards.count())).click()
        fields = page.locator(".half-me.droppable[data-field]")
        fields.first.wait_for(state="visible")
        fields.nth(rng.randrange(fields.count())).click()
    else:
        page.locator("#pass").click()
    page.wait_for_function(JS_SEQ_ABOVE, arg=before)


def test_the_page_survives_a_network_drop(members: tuple[Member, Member], console_allow: list[str]) -> None:
    # A reconnect attempt made while the context is offline fails in the console, on purpose.
    console_allow.append(r"ERR_INTERNET_DISCONNECTED")
    a, b = members
    mid = _opponent_to_move(a, b)
    a.open_match(mid)
    a.page.wait_for_function(JS_CONN, arg="open")
    seen = a.seq()
    # B never opened the match: A's page says so, and offers the claim once the grace period is over.
    a.page.locator("#opponent-conn.opp-conn--off").wait_for()
    a.page.locator("#claim-box").wait_for(state="visible")

    a.context.set_offline(True)
    # The page says it lost the server and offers no moves meanwhile.
    a.page.wait_for_function(JS_CONN_DOWN)
    a.page.locator("#conn.conn-connecting, #conn.conn-closed").wait_for()
    assert a.page.locator("#resign").is_disabled()
    # What it knew of the opponent may be stale now: no connection status, no «Засчитать победу».
    a.page.locator("#opponent-conn").wait_for(state="hidden")
    assert a.page.locator("#claim-box").is_hidden()
    # The opponent moves while the page is offline (the API answers: only A's browser is cut off).
    moved = api_move(b, mid)
    assert moved is not None and moved > seen
    while (more := api_move(b, mid)) is not None:
        moved = more
    assert a.seq() == seen, "an offline page cannot have seen the opponent's move"

    a.context.set_offline(False)
    # No reload: the page reconnects and catches up to the opponent's move by itself.
    a.page.wait_for_function(JS_SEQ_AT_LEAST, arg=moved)
    a.page.wait_for_function(JS_CONN, arg="open")
    assert a.page.evaluate("performance.getEntriesByType('navigation').length") == 1
    a.page.locator("#opponent-conn.opp-conn--off").wait_for()
    a.page.locator("#claim-box").wait_for(state="visible")
    # The log has the opponent's move too, and the match goes on from the page.
    _click_a_move(a.page)
    st = b.get(f"/api/matches/{mid}/state")
    assert st["seq"] > moved
    assert not a.errors, a.errors


def test_the_page_survives_a_server_restart(
    members: tuple[Member, Member], own_server: ServerProcess, console_allow: list[str]
) -> None:
    console_allow.append(r"ERR_CONNECTION_REFUSED")  # the server is down for a moment on purpose
    a, b = members
    mid = _opponent_to_move(a, b)
    a.open_match(mid)
    a.page.wait_for_function(JS_CONN, arg="open")
    seen = a.seq()

    own_server.stop()
    a.page.wait_for_function(JS_CONN_DOWN)
    assert a.page.locator("#resign").is_disabled()
    own_server.start()

    # The same page reconnects to the new server process (same database) and the match goes on.
    a.page.wait_for_function(JS_CONN, arg="open", timeout=30_000)
    moved = api_move(b, mid)
    assert moved is not None and moved > seen
    a.page.wait_for_function(JS_SEQ_AT_LEAST, arg=moved)
    _click_a_move(a.page)
    assert b.get(f"/api/matches/{mid}/state")["seq"] > moved
    assert a.page.evaluate("performance.getEntriesByType('navigation').length") == 1
    assert not a.errors, a.errors


def test_a_win_by_abandonment(members: tuple[Member, Member]) -> None:
    a, b = members
    mid = duel(a, b, "mezha", {"house": "gorn"})
    a.open_match(mid)
    b.open_match(mid)
    a.page.locator("#opponent-conn.opp-conn--on").wait_for()

    # B closes the tab: A sees it at once, and the claim is offered only after the grace period.
    b.page.close()
    a.page.locator("#opponent-conn.opp-conn--off").wait_for()
    a.page.locator("#claim-box").wait_for(state="visible")
    claim = a.context.request.post(f"{a.base}/api/matches/{mid}/claim", data={})
    assert claim.status == 409 and claim.json()["code"] == "claim_too_early", claim.text()
    assert a.page.locator("#claim-win").is_disabled()
    assert "Если он не вернётся" in a.page.locator("#claim-text").inner_text()

    a.page.locator("#claim-win:enabled").wait_for(timeout=GRACE_SECONDS * 1000 + 20_000)
    a.page.click("#claim-win")
    a.page.locator("#result").wait_for(state="visible")
    assert "Победа" in a.page.locator("#result").inner_text()
    assert a.page.locator("#claim-box").is_hidden()
    st = b.get(f"/api/matches/{mid}/state")
    assert st["status"] == "finished" and st["result"]["winner"] == 0
    assert st["result"]["reason"] == "abandoned"
    assert not a.errors, a.errors


def test_the_page_notices_a_silent_network_death(members: tuple[Member, Member]) -> None:
    """A socket whose network died without an event (no "offline", no close) delivers nothing: the page's
    heartbeat pings after 20 quiet seconds and drops the socket when no answer comes 10 seconds later, then
    reconnects and catches up. The quiet time passes on the page's fake clock (Playwright's clock); the
    socket is routed through the test, which stops passing anything on to simulate the dead network."""
    a, b = members
    mid = _opponent_to_move(a, b)
    sockets: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        me: dict[str, Any] = {"dead": False, "pongs": 0}
        sockets.append(me)
        server = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            if me["dead"]:
                return
            if isinstance(message, str) and '"pong"' in message:
                me["pongs"] += 1
            ws.send(message)

        ws.on_message(lambda message: None if me["dead"] else server.send(message))
        server.on_message(down)

    page = a.page
    page.route_web_socket(re.compile(r"/ws/matches/"), route)
    page.clock.install()
    a.open_match(mid)
    page.wait_for_function(JS_CONN, arg="open")
    seen = a.seq()

    # A quiet but healthy socket: the ping is answered and the socket stays. A frame that arrives just after
    # the jump (the server's greeting can trail the "open" event) restarts the quiet time, so the jump is
    # repeated until the socket has been quiet for a full PING_AFTER_MS on the page's clock.
    deadline = time.monotonic() + 15
    while sockets[0]["pongs"] == 0:
        assert time.monotonic() < deadline, "the page did not ping a quiet socket"
        page.clock.fast_forward(21_000)
        page.wait_for_timeout(500)
    page.clock.fast_forward(12_000)
    assert len(sockets) == 1 and page.get_attribute("#match", "data-conn") == "open"

    # The network dies silently; the opponent moves meanwhile.
    sockets[0]["dead"] = True
    moved = api_move(b, mid)
    assert moved is not None and moved > seen
    page.clock.fast_forward(21_000)  # quiet for 20 s: ping (lost)
    page.clock.fast_forward(11_000)  # no answer for 10 s: the socket is dropped
    page.wait_for_function(JS_SEQ_AT_LEAST, arg=moved)
    page.wait_for_function(JS_CONN, arg="open")
    assert len(sockets) == 2
    _click_a_move(page)
    assert b.get(f"/api/matches/{mid}/state")["seq"] > moved
    assert not a.errors, a.errors


def test_an_open_socket_told_store_unavailable_shows_the_banner_and_syncs_later(
    members: tuple[Member, Member],
) -> None:
    """Issue 29 §6: a server whose database is down keeps the match socket and answers with an error frame
    ``store_unavailable`` (here injected by the test into a socket routed through it). The page keeps the
    socket, shows «Нет связи с сервером, пробуем снова…», asks for the state again on its own after a
    backoff wait, and drops the banner when a state comes."""
    a, b = members
    mid = _opponent_to_move(a, b)
    seen: dict[str, Any] = {"to_page": None, "syncs": 0, "opens": 0, "states": 0, "hold": False}
    held: list[str] = []  # the page's syncs kept from the server while the banner is checked

    def route(ws: Any) -> None:
        seen["opens"] += 1
        server = ws.connect_to_server()
        seen["to_page"], seen["server"] = ws, server

        def up(message: str | bytes) -> None:
            if isinstance(message, str) and '"sync"' in message:
                seen["syncs"] += 1
                if seen["hold"]:  # its answer (a state) would drop the banner before a loaded CI saw it
                    held.append(message)
                    return
            server.send(message)

        def down(message: str | bytes) -> None:
            if isinstance(message, str) and '"type":"state"' in message.replace(" ", ""):
                seen["states"] += 1
            ws.send(message)

        ws.on_message(up)
        server.on_message(down)

    page = a.page
    page.route_web_socket(re.compile(r"/ws/matches/"), route)
    a.open_match(mid)
    page.wait_for_function(JS_CONN, arg="open")
    # The server's greeting (its state) can trail the "open" event, and a state drops the banner: inject the
    # error only once the greeting has reached the page.
    deadline = time.monotonic() + 15
    while seen["states"] == 0:
        assert time.monotonic() < deadline, "no state from the server"
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)
    syncs = seen["syncs"]
    seen["hold"] = True
    seen["to_page"].send('{"type":"error","id":null,"code":"store_unavailable","message":"down"}')
    page.wait_for_selector("#server-unavailable:visible")
    assert page.inner_text("#server-unavailable") == "Нет связи с сервером, пробуем снова…"
    deadline = time.monotonic() + 15
    while seen["syncs"] == syncs:  # the page's own sync after its wait (the server answers it: a state)
        assert time.monotonic() < deadline, "the page did not ask for the state again"
        page.wait_for_timeout(100)
    seen["hold"] = False
    for message in held:
        seen["server"].send(message)
    page.wait_for_selector("#server-unavailable", state="hidden")
    assert seen["opens"] == 1  # the same socket throughout
    page.wait_for_function(JS_CONN, arg="open")
    assert not a.errors, a.errors
