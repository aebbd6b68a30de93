"""rules/mezha.md §A season, §Decision points and actions; D1, D6, D9, D11, D18, D19; illegal actions."""

from __future__ import annotations

import pytest
from test_mezha_helpers import (
    hand,
    kinds,
    next_season,
    of_kind,
    pass_,
    play,
    position,
    resign,
    state,
    won_result,
)

from duelclub.games.contract import IllegalAction, Outcome
from duelclub.games.mezha import GAME
from duelclub.games.mezha.actions import NEXT_SEASON, PASS, RESIGN, NextSeason, Pass, Play

FOUR = ["seyanets", "seyanets", "seyanets", "otshelnik"]


def test_players_alternate_turns() -> None:
    s = state(hands=(["bortnik", "seyanets"], ["kuznets", "golem"]))
    play(s, 0, "bortnik", 0)
    assert GAME.to_move(s) == frozenset({1})
    play(s, 1, "kuznets", 0)
    assert GAME.to_move(s) == frozenset({0})


def test_after_a_pass_the_opponent_takes_every_remaining_turn() -> None:
    s = state(hands=(["bortnik"], ["kuznets", "golem", "liteyshchitsa"]))
    pass_(s, 0)
    play(s, 1, "kuznets", 0)
    assert GAME.to_move(s) == frozenset({1})
    play(s, 1, "golem", 1)
    assert GAME.to_move(s) == frozenset({1})


def test_pass_is_allowed_when_a_play_is_possible() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]))
    assert PASS in GAME.legal_actions(s, 0)
    assert of_kind(pass_(s, 0), "pass") == [{"kind": "pass", "seat": 0, "automatic": False}]


def test_legal_actions_list_units_per_free_field_and_tactics_on_every_field() -> None:
    # §Decision points: one per distinct unit id × free field, one per distinct tactic id × fields 0–2 (D6)
    s = state(hands=(["bortnik", "bortnik", "rosa"], []), fields={(1, 0): FOUR})
    assert GAME.legal_actions(s, 0) == [
        Play(card="bortnik", field=0),
        Play(card="bortnik", field=2),
        Play(card="rosa", field=0),
        Play(card="rosa", field=1),
        Play(card="rosa", field=2),
        Pass(),
    ]


def test_tactic_on_an_empty_field_is_legal_and_does_nothing() -> None:
    # D6
    s = state(hands=(["rosa"], ["kuznets"]))
    events = play(s, 0, "rosa", 2)
    assert kinds(events) == ["rosa"]
    assert GAME.view(s, 0)["discards"][0] == ["rosa"]


def test_player_not_on_turn_has_no_legal_actions() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]))
    assert GAME.legal_actions(s, 1) == []


def test_play_names_a_card_id_and_any_copy_is_used() -> None:
    # D18: copies are interchangeable; the hand is a multiset listed in table order
    s = state(hands=(["seyanets", "bortnik", "seyanets"], ["kuznets"]))
    assert hand(s, 0) == ["seyanets", "seyanets", "bortnik"]
    play(s, 0, "seyanets", 0)
    assert hand(s, 0) == ["seyanets", "bortnik"]


def test_automatic_pass_with_an_empty_hand() -> None:
    # §A season — Passing, D11: the engine passes at the moment it would be that player's turn
    s = state(hands=(["bortnik", "bortnik"], []), turn=0)
    events = play(s, 0, "bortnik", 0)
    assert of_kind(events, "pass") == [{"kind": "pass", "seat": 1, "automatic": True}]
    assert GAME.view(s, 0)["passed"] == [False, True]
    assert GAME.view(s, 0)["auto_passed"] == [False, True]
    assert GAME.to_move(s) == frozenset({0})


def test_automatic_pass_when_only_units_and_every_half_full() -> None:
    full = {(f, 1): ["kuznets", "shchitonosets", "shchitonosets", "arbaletchik"] for f in range(3)}
    full[(1, 1)] = ["podmasterye", "podmasterye", "podmasterye", "arbaletchik"]
    full[(2, 1)] = ["znamenosets", "znamenosets", "pushkar", "pushkar"]
    full[(0, 1)] = ["kuznets", "shchitonosets", "shchitonosets", "shchitonosets"]
    s = state(hands=(["bortnik", "bortnik"], ["golem"]), fields=full)
    events = play(s, 0, "bortnik", 0)
    assert of_kind(events, "pass") == [{"kind": "pass", "seat": 1, "automatic": True}]


def test_no_automatic_pass_with_a_tactic_in_hand_and_every_half_full() -> None:
    # D1: a tactic needs no slot, so the player still has a move
    full = {(f, 0): FOUR if f != 2 else ["ten_v_listve"] * 3 + ["sova"] for f in range(3)}
    full[(1, 0)] = ["stary_dub", "stary_dub", "otshelnik", "bortnik"]
    s = state(hands=(["pen_velikan", "rosa"], ["kuznets"]), fields=full, turn=1)
    play(s, 1, "kuznets", 0)
    assert GAME.to_move(s) == frozenset({0})
    assert GAME.legal_actions(s, 0) == [Play(card="rosa", field=f) for f in range(3)] + [Pass()]


def test_automatic_pass_at_the_first_turn_of_a_season() -> None:
    # D17 step 4: the new season's starter is passed at once if it has no legal play
    s = state(
        phase="pause",
        passed=(True, True),
        hands=([], ["kuznets"]),
        rest=("discard", "deck"),
        results=[won_result(1, 0)],
    )
    events = next_season(s, 1)
    assert of_kind(events, "pass") == [{"kind": "pass", "seat": 0, "automatic": True}]
    assert GAME.to_move(s) == frozenset({1})


def test_automatic_pass_is_a_pass_and_both_passing_scores() -> None:
    # D11: with both hands empty the season is scored straight away
    s = state(phase="pause", passed=(True, True), rest=("discard", "discard"), results=[won_result(1, 0)])
    events = next_season(s, 0)
    assert kinds(events)[-3:] == ["pass", "pass", "season_scored"]
    assert GAME.view(s, 0)["phase"] == "pause"


def test_both_passing_scores_the_season() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]), fields={(0, 0): ["bortnik"]})
    pass_(s, 0)
    events = pass_(s, 1)
    assert of_kind(events, "season_scored")[0]["winner"] == 0


def _rejects(s: object, seat: int, action: object, code: str) -> None:
    before = GAME.to_position(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, seat, action)  # type: ignore[arg-type]
    assert err.value.code == code
    assert GAME.to_position(s) == before


def test_acting_out_of_turn_is_rejected() -> None:
    _rejects(state(hands=(["bortnik"], ["kuznets"])), 1, Play(card="kuznets", field=0), "not_your_turn")


def test_acting_after_passing_is_rejected() -> None:
    s = state(hands=(["bortnik"], ["kuznets", "golem"]))
    pass_(s, 0)
    _rejects(s, 0, Play(card="bortnik", field=0), "already_passed")
    _rejects(s, 0, PASS, "already_passed")


def test_card_not_in_hand_is_rejected() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]))
    _rejects(s, 0, Play(card="sova", field=0), "card_not_in_hand")
    _rejects(s, 0, Play(card="kuznets", field=0), "card_not_in_hand")
    _rejects(s, 0, Play(card="no_such_card", field=0), "card_not_in_hand")


def test_unit_onto_a_full_half_is_rejected() -> None:
    s = state(hands=(["pen_velikan"], ["kuznets"]), fields={(1, 0): FOUR})
    _rejects(s, 0, Play(card="pen_velikan", field=1), "half_full")


@pytest.mark.parametrize("field", [-1, 3, 7])
def test_bad_field_is_rejected(field: int) -> None:
    _rejects(state(hands=(["bortnik"], ["kuznets"])), 0, Play(card="bortnik", field=field), "bad_field")


def test_next_season_during_a_season_is_rejected() -> None:
    _rejects(state(hands=(["bortnik"], ["kuznets"])), 0, NEXT_SEASON, "not_in_pause")


def test_play_or_pass_during_the_pause_is_rejected() -> None:
    s = state(
        phase="pause", passed=(True, True), hands=(["bortnik"], ["kuznets"]), results=[won_result(1, 0)]
    )
    _rejects(s, 0, PASS, "in_pause")
    _rejects(s, 1, Play(card="kuznets", field=0), "in_pause")


def test_any_action_after_the_match_is_over_is_rejected() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]))
    resign(s, 0)
    for action in (PASS, NEXT_SEASON, RESIGN, Play(card="bortnik", field=0)):
        _rejects(s, 0, action, "match_over")
        _rejects(s, 1, action, "match_over")


def test_bad_seat_is_rejected() -> None:
    _rejects(state(hands=(["bortnik"], ["kuznets"])), 2, PASS, "bad_seat")


def test_resign_on_own_turn_loses() -> None:
    # D9
    s = state(hands=(["bortnik"], ["kuznets"]))
    events = resign(s, 0)
    assert events == [{"kind": "resign", "seat": 0}, {"kind": "match_end", "winner": 1, "reason": "resign"}]
    assert GAME.outcome(s) == Outcome(1, "resign")


def test_resign_out_of_turn_loses() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]))
    resign(s, 1)
    assert GAME.outcome(s) == Outcome(0, "resign")


def test_resign_after_passing_loses() -> None:
    s = state(hands=(["bortnik"], ["kuznets", "golem"]))
    pass_(s, 0)
    resign(s, 0)
    assert GAME.outcome(s) == Outcome(1, "resign")


def test_resign_in_the_pause_loses() -> None:
    s = state(
        phase="pause", passed=(True, True), hands=(["bortnik"], ["kuznets"]), results=[won_result(1, 0)]
    )
    resign(s, 0)
    assert GAME.outcome(s) == Outcome(1, "resign")
    assert GAME.to_move(s) == frozenset()
    assert GAME.view(s, 1)["phase"] == "over"


def test_legal_actions_exclude_resign_and_are_empty_when_over() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]))
    assert RESIGN not in GAME.legal_actions(s, 0)
    resign(s, 1)
    assert GAME.legal_actions(s, 0) == GAME.legal_actions(s, 1) == []


def test_timeout_action_is_pass_in_a_season_and_next_season_in_the_pause() -> None:
    # D19: never triggered (no clock), but the contract needs one
    assert GAME.timeout_action(state(hands=(["bortnik"], ["kuznets"])), 0) == Pass()
    paused = state(phase="pause", passed=(True, True), results=[won_result(1, 0)])
    assert GAME.timeout_action(paused, 1) == NextSeason()


def test_timeout_action_after_the_match_is_rejected() -> None:
    s = state(hands=(["bortnik"], ["kuznets"]))
    resign(s, 0)
    with pytest.raises(IllegalAction):
        GAME.timeout_action(s, 0)


def test_helper_position_is_usable_for_turn_tests() -> None:
    assert position(turn=1)["turn"] == 1
