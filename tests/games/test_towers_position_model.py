"""Дві вежі positions: the declared model rejects states the engine never reaches
(docs/positions/towers.md)."""

from __future__ import annotations

from typing import Any

import pytest
from test_towers_helpers import position

from duelclub.games.towers import GAME


def _rejects(match: str, pos: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=match):
        GAME.from_position(pos)


def test_a_destroyed_tower_ends_the_match() -> None:
    # §7.2: the check after production (turn start) and after every card ends a won match
    _rejects(r"a victory condition holds \(\(.destruction., None\)\)", position(en={"tower": 0}))


def test_a_resource_victory_ends_the_match() -> None:
    _rejects(r"victory condition holds", position(me={"ore": 150}))


def test_the_forced_discard_waits_for_its_victory_check() -> None:
    # §6 step 6: the card's check comes after the forced discard, so a win may be pending there
    pos = position(en={"tower": 0}, phase="forced_discard")
    pos["last"] = [[[4, "play"]], []]
    assert GAME.outcome(GAME.from_position(pos)) is None


def test_a_finished_match_is_not_in_play() -> None:
    pos = position(en={"tower": 0})
    pos.update(phase="over", outcome={"winner": 1, "reason": "tower"})
    _rejects(r"tower does not hold", pos)


def test_a_third_timeout_has_already_lost() -> None:
    _rejects(r"a third timed-out turn has already lost", position(timeouts=(3, 0)))


def test_turn_limit_ends_turn_500_only() -> None:
    pos = position()
    pos.update(phase="over", outcome={"winner": None, "reason": "turn_limit"})
    _rejects(r"turn_limit ends turn 500 only", pos)


def test_a_main_phase_has_moved_no_card_yet() -> None:
    pos = position()
    pos["last"] = [[[4, "play"]], []]
    _rejects(r"no card has left the active hand", pos)


def test_counters_are_bounded_integers() -> None:
    pos = position()
    pos["players"][0]["ore"] = -1
    _rejects(r"players\.0\.ore: Input should be greater than or equal to 0", pos)
    pos["players"][0]["ore"] = 5.0
    _rejects(r"players\.0\.ore: Input should be a valid integer", pos)


def test_history_entries_are_seat_card_tag() -> None:
    pos = position()
    pos["history"] = [[0, 4, "thrown"]]
    _rejects(r"history\.0\.2: Input should be", pos)
