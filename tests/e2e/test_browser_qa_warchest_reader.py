"""QA: the Сундук войны log said «Волк: …» / «Ворон: …» without telling the reader which side is theirs.

A player now reads «Волк (вы): …» on their own side's lines (the resignation line too, which had no side
at all); a spectator reads the bare side names.
"""

from __future__ import annotations

from typing import Any

import pytest
from warchest_page import crowded_state, mount

pytestmark = pytest.mark.browser

JS_DESCRIBE = """(evs) => evs.map((e) => wcRenderer.describe(e).text)"""


@pytest.mark.parametrize("seat", [0, 1, None])
def test_log_marks_the_readers_side(live_server: str, browser: Any, seat: int | None) -> None:
    context = browser.new_context(locale="ru-RU")
    try:
        page = context.new_page()
        state = crowded_state()
        mount(page, live_server, state, seat)
        wolf = state.seat_of(0)
        raven = 1 - wolf
        events = [
            {"kind": "move", "seat": wolf, "side": 0, "text": "Волк: Мечник перемещается на Г5"},
            {"kind": "damage", "seat": raven, "side": 1, "text": "Ворон: Пикинёр: −1 монета"},
            {"kind": "resign", "seat": raven, "text": "сдаётся"},
        ]
        got = page.evaluate(JS_DESCRIBE, events)
        me = {None: "", wolf: "wolf", raven: "raven"}[seat]
        w, r = ("Волк (вы)" if me == "wolf" else "Волк"), ("Ворон (вы)" if me == "raven" else "Ворон")
        assert got == [f"{w}: Мечник перемещается на Г5", f"{r}: Пикинёр: −1 монета", f"{r}: сдаётся"], got
    finally:
        context.close()
