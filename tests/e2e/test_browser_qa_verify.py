"""QA: the verify page of an ended match of a game whose deal the browser does not recompute.

Seen by a new member: for a finished Дві вежі / Сундук войны / Артания match the verdict read «Проверено то,
что уже можно проверить; остальное — после окончания партии.» — but the match had ended; the rest is the
deal, which for these games the command ``duelclub verify log.json`` checks.
"""

from __future__ import annotations

from typing import Any

import pytest
from accounts import sign_up

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", ["towers", "warchest", "artania"])
def test_verdict_of_an_ended_match_points_to_the_cli(live_server: str, browser: Any, game: str) -> None:
    context = browser.new_context(locale="ru-RU")
    try:
        sign_up(context, live_server, "vq")
        made = context.request.post(
            f"{live_server}/api/matches", data={"game": game, "vs": "bot", "bot_level": "easy"}
        )
        assert made.status == 201, made.text()
        mid = made.json()["id"]
        # the bot may move between our read and our resignation (stale_seq): read again
        for attempt in range(5):
            state = context.request.get(f"{live_server}/api/matches/{mid}/state").json()
            resign = context.request.post(
                f"{live_server}/api/matches/{mid}/actions",
                data={"id": f"r{attempt}", "seq": state["seq"], "action": {"kind": "resign"}},
            )
            if resign.status != 409:
                break
        assert resign.status == 200, resign.text()
        page = context.new_page()
        page.goto(f"{live_server}/matches/{mid}/verify")
        page.wait_for_selector("#verify[data-verdict]")
        verdict = page.locator("#verdict").inner_text()
        assert "после окончания партии" not in verdict, verdict
        assert "duelclub verify log.json" in verdict
        assert page.get_attribute('[data-check="commitment"]', "data-ok") == "true"
        assert page.get_attribute('[data-check="key"]', "data-ok") == "true"
    finally:
        context.close()
