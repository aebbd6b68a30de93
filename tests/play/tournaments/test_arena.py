"""Arena (issue 26 §Formats): the pool pairer (no rematch in a row while others can come) and the scoring
(2 / 1 / 0, doubled on a streak after two wins in a row)."""

from __future__ import annotations

import pytest

from duelclub.play.tournaments.arena import RULES, ArenaRules, pair_pool, scores
from duelclub.play.tournaments.model import Game, TournamentError
from duelclub.play.tournaments.model import Pairing as P

RANKING = list(range(1, 61))


def test_the_pool_pairs_neighbours_in_the_ranking() -> None:
    boards = pair_pool([5, 1, 3, 2, 4, 6], ranking=RANKING, last_opponent={}, others_busy=False)
    assert boards == [P(1, 2), P(3, 4), P(5, 6)]


def test_no_rematch_in_a_row_while_someone_else_is_free() -> None:
    last = {1: 2, 2: 1, 3: 4, 4: 3}
    boards = pair_pool([1, 2, 3, 4], ranking=RANKING, last_opponent=last, others_busy=False)
    assert boards == [P(1, 3), P(2, 4)]


def test_the_last_two_opponents_wait_while_another_game_is_on() -> None:
    last = {1: 2, 2: 1}
    assert pair_pool([1, 2], ranking=RANKING, last_opponent=last, others_busy=True) == []


def test_the_last_two_opponents_meet_again_when_nobody_else_can_come() -> None:
    last = {1: 2, 2: 1}
    assert pair_pool([2, 1], ranking=RANKING, last_opponent=last, others_busy=False) == [P(2, 1)]


def test_a_rematch_in_a_row_for_one_of_the_two_is_enough_to_wait() -> None:
    # 1's last game was against 2; 2 has played 3 since. 1-2 would still be 1's second game in a row
    # against 2, so 1 meets 4 and 2 (free after 1) waits.
    last = {1: 2, 2: 3, 3: 2}
    assert pair_pool([1, 2, 4], ranking=RANKING, last_opponent=last, others_busy=True) == [P(1, 4)]


def test_with_an_odd_pool_the_last_to_become_free_waits() -> None:
    assert pair_pool([3, 1, 2], ranking=RANKING, last_opponent={}, others_busy=True) == [P(3, 1)]
    # ... even when that pairs players further apart in the ranking.
    assert pair_pool([1, 50, 2], ranking=RANKING, last_opponent={}, others_busy=True) == [P(1, 50)]


def test_the_ranking_not_the_ids_decides_who_is_a_neighbour() -> None:
    ranking = [9, 4, 7, 1]
    assert pair_pool([1, 4, 7, 9], ranking=ranking, last_opponent={}, others_busy=False) == [P(4, 9), P(1, 7)]


@pytest.mark.parametrize(
    ("last_seat", "board"),
    [
        ({1: 0, 2: 1}, P(2, 1)),  # 2 sat second last time
        ({1: 1, 2: 0}, P(1, 2)),
        ({2: 0}, P(1, 2)),  # 1 has no game yet: before one who sat first
        ({2: 1}, P(2, 1)),  # ... after one who sat second
        ({1: 1, 2: 1}, P(2, 1)),  # level: the one who waited longer (2)
        ({}, P(2, 1)),
    ],
)
def test_seat_zero_goes_to_the_one_who_last_sat_second(last_seat: dict[int, int], board: P) -> None:
    assert pair_pool([2, 1], ranking=RANKING, last_opponent={}, others_busy=True, last_seat=last_seat) == [
        board
    ]


def test_a_pool_of_one_or_none_pairs_nobody() -> None:
    assert pair_pool([], ranking=RANKING, last_opponent={}, others_busy=False) == []
    assert pair_pool([7], ranking=RANKING, last_opponent={}, others_busy=False) == []


def test_the_pool_refuses_a_player_twice_or_unranked() -> None:
    with pytest.raises(TournamentError, match="twice"):
        pair_pool([1, 1], ranking=RANKING, last_opponent={}, others_busy=False)
    with pytest.raises(TournamentError, match="ranking"):
        pair_pool([1, 99], ranking=RANKING, last_opponent={}, others_busy=False)


def test_the_whole_field_at_the_start_is_paired_down_the_ranking() -> None:
    ranking = list(range(1000, 1256))
    boards = pair_pool(list(reversed(ranking)), ranking=ranking, last_opponent={}, others_busy=False)
    assert [set(b.players) for b in boards] == [{1000 + 2 * i, 1001 + 2 * i} for i in range(128)]


# -- scoring --------------------------------------------------------------------------------------------
def _games(results: str, *, player: int = 1) -> list[Game]:
    """``player``'s games in order against fresh opponents: W, D, L over the board; + and - forfeits
    won and lost; = a double forfeit. Seats alternate; ``ended_at`` is the order."""
    games = []
    for i, mark in enumerate(results):
        opponent = 100 + i
        score = {"W": 1.0, "D": 0.5, "L": 0.0, "+": 1.0, "-": 0.0, "=": None}[mark]
        forfeit = mark in "+-="
        if i % 2 and score is not None:
            games.append(Game(i + 1, opponent, player, 1.0 - score, forfeit, ended_at=float(i)))
        elif i % 2:
            games.append(Game(i + 1, opponent, player, None, forfeit, ended_at=float(i)))
        else:
            games.append(Game(i + 1, player, opponent, score, forfeit, ended_at=float(i)))
    return games


@pytest.mark.parametrize(
    ("results", "sheet", "fire", "streak"),
    [
        ("WDL", [2, 1, 0], "---", False),
        ("WW", [2, 2], "--", True),  # on fire: the next game counts double
        ("WWWWLW", [2, 2, 4, 4, 0, 2], "--xxx-", False),
        ("WLWW", [2, 0, 2, 2], "----", True),
        ("WWDW", [2, 2, 2, 2], "--x-", False),  # a draw on fire scores 2 and ends the streak
        ("WWLWWW", [2, 2, 0, 2, 2, 4], "--x--x", True),
    ],
)
def test_streak_scoring(results: str, sheet: list[int], fire: str, streak: bool) -> None:
    score = scores(_games(results))[1]
    assert score.sheet == sheet
    assert score.fire == [f == "x" for f in fire]
    assert score.points == sum(sheet)
    assert score.streak is streak
    counts = (results.count("W"), results.count("D"), results.count("L"))
    assert (score.games, score.wins, score.draws, score.losses) == (len(results), *counts)


def test_a_forfeit_win_scores_a_plain_two_and_leaves_the_streak_as_it_was() -> None:
    score = scores(_games("WW+W"))[1]
    assert score.sheet == [2, 2, 2, 4]
    assert score.fire == [False, False, False, True]
    assert (score.wins, score.streak) == (4, True)
    assert scores(_games("+W"))[1].sheet == [2, 2]  # nor does it start one


def test_a_forfeit_loss_or_a_double_forfeit_ends_the_streak() -> None:
    assert scores(_games("WW-W"))[1].sheet == [2, 2, 0, 2]
    both = scores(_games("WW=W"))
    assert both[1].sheet == [2, 2, 0, 2] and both[1].losses == 1
    assert both[102].sheet == [0] and both[102].losses == 1


def test_the_loser_of_a_game_scores_nothing_and_the_opponents_are_in_the_table() -> None:
    table = scores(_games("WD"))
    assert table[100].sheet == [0] and table[101].sheet == [1]


def test_games_count_in_the_order_they_ended_not_the_order_they_were_paired() -> None:
    games = [
        Game(1, 1, 2, 0.0, ended_at=30.0),
        Game(2, 1, 3, 1.0, ended_at=10.0),
        Game(3, 1, 4, 1.0, ended_at=20.0),
    ]
    assert scores(games)[1].sheet == [2, 2, 0]


def test_unfinished_games_score_nothing_yet_and_a_bye_is_refused() -> None:
    table = scores([Game(1, 1, 2)])
    assert table[1].sheet == [] and table[1].points == 0 and table[1].games == 0
    with pytest.raises(TournamentError, match="no byes"):
        scores([Game.bye(1, 1)])


def test_the_rules_as_data() -> None:
    assert ArenaRules(win=2, draw=1, loss=0, streak_after=2, factor=2, forfeit_win=2) == RULES
    assert scores(_games("WWW"), rules=ArenaRules(streak_after=1, factor=3))[1].sheet == [2, 6, 6]
