"""Артания и Куявия positions: the declared model rejects states the engine never reaches
(docs/positions/artania.md)."""

from __future__ import annotations

from typing import Any

import pytest
from artania_helpers import past_results, position

from duelclub.games.artania import GAME


def _rejects(match: str, pos: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=match):
        GAME.from_position(pos)


def test_an_empty_hand_window_actor_was_passed_by_the_engine() -> None:
    # §Equipment windows, rule 6: a player whose hand is empty when due to act is passed by the engine
    _rejects(r"seat 0 acts in W0 with an empty hand", position(hands=([], ["strazh_1"]), step="W0", first=0))


def test_known_cards_are_equipment_from_a_tiebreak_d35() -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1", "idol"]), known=([], ["strazh_1"]), step="W0", first=0)
    _rejects(r"known cards can only be equipment", pos)


def test_a_known_equipment_card_loads() -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1", "idol"]), known=([], ["idol"]), step="W0", first=0)
    assert GAME.from_position(pos).known[1] != 0


def test_five_tokens_end_the_game_at_once() -> None:
    # §End of the game: a player who takes their 5th token wins immediately
    _rejects(r"five tokens has already won", position(hands=(["vityaz_1"], ["strazh_1"]), tokens=(5, 0)))


def test_a_finished_game_by_five_tokens_needs_them() -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1"]), step="over", tokens=(4, 0))
    pos["turn"] = 4  # over after turn 4's clean-up: four scored turns, F of turn 4 is seat 0
    pos["results"] = past_results(5, 1, (4, 0))
    pos["outcome"] = {"winner": 0, "reason": "five_tokens"}
    _rejects(r"five_tokens needs 5 tokens", pos)


def test_tokens_count_the_scored_turns_won() -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1"]), tokens=(2, 0))
    pos["tokens"] = [1, 1]
    _rejects(r"tokens must be \[2, 0\]", pos)


def test_the_turn_follows_its_scored_turns() -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1"]), tokens=(1, 0))
    pos["turn"] = 5
    _rejects(r"turn 5 must follow 4 scored turns, not 1", pos)


def test_no_warrior_is_only_known_of_a_hand_without_warriors_d10() -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1"]), no_warrior=(True, False), step="W0", first=0)
    _rejects(r"seat 0 is marked as holding no warrior but holds one", pos)


def test_deck_exhausted_needs_an_empty_deck_d22() -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1"]), step="over", tokens=(1, 0))
    pos["turn"] = 1
    pos["results"] = past_results(2, 1, (1, 0))
    pos["outcome"] = {"winner": 0, "reason": "deck_exhausted"}
    _rejects(r"deck_exhausted needs an empty deck", pos)


def test_shape_errors_name_the_key() -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1"]))
    pos["hands"][0] = ["vityaz_9"]
    _rejects(r"bad artania position: hands\.0\.0: Input should be", pos)


def test_passes_is_not_a_boolean() -> None:
    pos = position(hands=(["vityaz_1"], ["strazh_1"]), step="W0", first=0)
    pos["passes"] = True
    _rejects(r"passes: Input should be a valid integer", pos)
