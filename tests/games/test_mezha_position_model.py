"""Межа positions: the declared model rejects states the engine never reaches (docs/positions.md §mezha)."""

from __future__ import annotations

import pytest
from test_mezha_helpers import position, unit, won_result

from duelclub.games.mezha import GAME

FULL = ["bortnik", "bortnik", "otshelnik", "otshelnik"]


def _rejects(match: str, **kw: object) -> None:
    with pytest.raises(ValueError, match=match):
        GAME.from_position(position(**kw))  # type: ignore[arg-type]


def test_a_seat_on_turn_with_an_empty_hand_was_passed_automatically() -> None:
    # §A season — Passing: no legal play means an automatic pass at the moment it would be that seat's turn
    _rejects(r"seat 0 is on turn with no legal play", hands=([], ["kuznets"]))


def test_a_seat_on_turn_with_only_units_and_full_halves_was_passed_automatically() -> None:
    fields = {
        (0, 0): FULL[:],
        (1, 0): ["seyanets"] * 3 + ["ten_v_listve"],
        (2, 0): ["stary_dub"] * 2 + ["sova"] * 2,
    }
    _rejects(r"no legal play", hands=(["pen_velikan"], ["kuznets"]), fields=fields)


def test_a_tactic_is_a_legal_play_with_full_halves_d1() -> None:
    fields = {
        (0, 0): FULL[:],
        (1, 0): ["seyanets"] * 3 + ["ten_v_listve"],
        (2, 0): ["stary_dub"] * 2 + ["sova"] * 2,
    }
    s = GAME.from_position(position(hands=(["rosa"], ["kuznets"]), fields=fields))
    assert GAME.to_move(s) == frozenset({0})


def test_a_passed_seat_is_never_on_turn() -> None:
    _rejects(r"the seat on turn has passed", hands=(["bortnik"], ["kuznets"]), passed=(True, False))


def test_only_a_korni_unit_is_carried_over_d3() -> None:
    _rejects(
        r"only a корни unit is carried over",
        season=2,
        results=[won_result(1, 0)],
        hands=(["bortnik"], ["kuznets"]),
        fields={(0, 0): [unit("bortnik", season=1)]},
    )


def test_a_korni_unit_stays_one_season_only_d3() -> None:
    _rejects(
        r"stays one season only",
        season=3,
        results=[won_result(1, 0), won_result(2, 1)],
        hands=(["bortnik"], ["kuznets"]),
        fields={(0, 0): [unit("stary_dub", season=1)]},
    )


def test_a_korni_unit_of_the_previous_season_loads() -> None:
    s = GAME.from_position(
        position(
            season=2,
            results=[won_result(1, 0)],
            hands=(["bortnik"], ["kuznets"]),
            fields={(0, 0): [unit("stary_dub", season=1)]},
        )
    )
    assert s.halves[0][0][0].season == 1


def test_a_match_won_two_seasons_to_nil_is_not_still_in_play() -> None:
    _rejects(
        r"the match is decided .* but loaded as still in play",
        season=3,
        results=[won_result(1, 1), won_result(2, 1)],
        hands=(["bortnik"], ["kuznets"]),
    )


def test_a_decided_match_does_not_wait_in_the_pause() -> None:
    _rejects(
        r"decided",
        phase="pause",
        passed=(True, True),
        season=2,
        results=[won_result(1, 0), won_result(2, 0)],
    )


def test_a_finished_match_has_the_outcome_its_seasons_give_d10() -> None:
    _rejects(
        r"outcome must be \(0, 'two_seasons'\)",
        phase="over",
        season=2,
        passed=(True, True),
        results=[won_result(1, 0), won_result(2, 0)],
        outcome={"winner": 1, "reason": "two_seasons"},
    )


def test_a_season_result_agrees_with_its_totals() -> None:
    bad = won_result(1, 0) | {"winner": 1}
    _rejects(r"results\.0: .*season winner", season=2, results=[bad], hands=(["bortnik"], ["kuznets"]))


def test_face_down_units_are_revealed_at_scoring() -> None:
    _rejects(
        r"face down after scoring",
        phase="pause",
        passed=(True, True),
        results=[won_result(1, 0)],
        fields={(0, 0): [unit("sova", face_down=True)]},
    )


def test_a_hand_holds_at_most_ten_cards_d5() -> None:
    eleven = ["seyanets"] * 3 + ["bortnik"] * 2 + ["sova"] * 2 + ["vedunya"] * 2 + ["rosa"] * 2
    _rejects(r"hands\.0: List should have at most 10 items", hands=(eleven, ["kuznets"]))


def test_strict_types_a_bool_is_not_a_seat() -> None:
    pos = position(hands=(["bortnik"], ["kuznets"]))
    pos["starter"] = False
    with pytest.raises(ValueError, match=r"bad mezha position: starter"):
        GAME.from_position(pos)


def test_unknown_keys_are_rejected() -> None:
    pos = position(hands=(["bortnik"], ["kuznets"]))
    pos["extra"] = 1
    with pytest.raises(ValueError, match=r"extra: Extra inputs are not permitted"):
        GAME.from_position(pos)
