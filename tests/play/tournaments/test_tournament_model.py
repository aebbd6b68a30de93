"""The tournament's values (play/tournaments/model.py): pairings and game records check their shape."""

from __future__ import annotations

import pytest

from duelclub.play.tournaments.model import (
    Game,
    Pairing,
    TournamentError,
    met_pairs,
    points_by_player,
    seat_history,
)


def test_a_player_is_never_paired_with_themselves() -> None:
    with pytest.raises(TournamentError):
        Pairing(3, 3)
    with pytest.raises(TournamentError):
        Game(1, 3, 3, 1.0)


@pytest.mark.parametrize(
    "bad",
    [
        {"round": 0, "first": 1, "second": 2},
        {"round": 1, "first": 1, "second": 2, "score": 0.25},
        {"round": 1, "first": 1, "second": None, "score": 0.0},
        {"round": 1, "first": 1, "second": None, "score": 1.0, "forfeit": True},
        {"round": 1, "first": 1, "second": 2, "score": 0.5, "forfeit": True},
    ],
)
def test_a_game_record_of_a_bad_shape_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(TournamentError):
        Game(**bad)  # type: ignore[arg-type]  # a bad shape on purpose


def test_points_per_seat_bye_and_double_forfeit() -> None:
    assert Game(1, 1, 2, 1.0).points(1) == 1.0 and Game(1, 1, 2, 1.0).points(2) == 0.0
    assert Game(1, 1, 2, 0.5).points(2) == 0.5
    assert Game(1, 1, 2).points(1) is None and not Game(1, 1, 2).finished
    assert Game.bye(2, 7).points(7) == 1.0 and Game.bye(2, 7).opponent(7) is None
    double = Game(3, 1, 2, None, forfeit=True)
    assert double.finished and double.points(1) == double.points(2) == 0.0
    with pytest.raises(TournamentError):
        Game(1, 1, 2).seat(3)


def test_points_met_pairs_and_seats_over_games() -> None:
    games = [Game(2, 3, 1, 0.5), Game(1, 1, 2, 1.0), Game.bye(1, 3), Game(2, 2, 4)]
    assert points_by_player(games) == {1: 1.5, 2: 0.0, 3: 1.5, 4: 0.0}
    assert met_pairs(games) == {frozenset((1, 2)), frozenset((1, 3)), frozenset((2, 4))}
    assert seat_history(games) == {1: [0, 1], 2: [1, 0], 3: [0], 4: [1]}
