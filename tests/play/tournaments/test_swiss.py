"""Swiss (issue 26 §Formats) on worked examples: score groups, no rematches, byes, seat balance, look-ahead.

Players are numbered by seeding (1 is the top seed); each expected round is worked out by hand from the
rules in play/tournaments/swiss.py."""

from __future__ import annotations

import pytest

from duelclub.play.tournaments import swiss
from duelclub.play.tournaments.model import Game, PairingError, TournamentError, met_pairs
from duelclub.play.tournaments.model import Pairing as P
from duelclub.play.tournaments.swiss import SeatWish, check_rounds, max_rounds, pair_round, seat_wish


def test_max_rounds_is_a_round_robins_length() -> None:
    assert [max_rounds(n) for n in range(0, 9)] == [0, 0, 1, 3, 3, 5, 5, 7, 7]


@pytest.mark.parametrize(("rounds", "players"), [(1, 2), (3, 4), (5, 5), (7, 8), (9, 200)])
def test_check_rounds_accepts_what_the_players_allow(rounds: int, players: int) -> None:
    check_rounds(rounds, players)


@pytest.mark.parametrize(
    ("rounds", "players", "words"),
    [(0, 8, "at least 1 round"), (4, 4, "at most 3 rounds"), (6, 5, "at most 5 rounds"), (1, 1, "2 players")],
)
def test_check_rounds_refuses_more_rounds_than_the_players_allow(
    rounds: int, players: int, words: str
) -> None:
    with pytest.raises(TournamentError, match=words):
        check_rounds(rounds, players)


def test_round_one_pairs_the_top_half_against_the_bottom_half_alternating_seats() -> None:
    assert pair_round([1, 2, 3, 4, 5, 6], []) == [P(1, 4), P(5, 2), P(3, 6)]
    assert pair_round(list(range(1, 9)), []) == [P(1, 5), P(6, 2), P(3, 7), P(8, 4)]


def test_round_one_of_an_odd_count_gives_the_bye_to_the_lowest_seed() -> None:
    assert pair_round([1, 2, 3, 4, 5], []) == [P(1, 3), P(4, 2), P(5, None)]


def test_players_meet_within_score_groups_and_the_lowest_of_an_odd_group_floats_down() -> None:
    # 1, 2 and 3 won round 1: 1 meets 2 (top half against bottom half of the group), 3 floats down to the
    # best of the losers; everyone alternates seats.
    games = [Game(1, 1, 4, 1.0), Game(1, 5, 2, 0.0), Game(1, 3, 6, 1.0)]
    assert pair_round([1, 2, 3, 4, 5, 6], games) == [P(2, 1), P(4, 3), P(6, 5)]


def test_a_rematch_is_never_paired_and_seats_choose_between_the_pairings_left() -> None:
    # All drew: the Dutch order wants 1-3 and 2-4 again. Of 1-2 3-4 and 1-4 2-3, only the first lets
    # everyone alternate seats.
    games = [Game(1, 1, 3, 0.5), Game(1, 4, 2, 0.5)]
    assert pair_round([1, 2, 3, 4], games) == [P(2, 1), P(3, 4)]


def test_the_bye_goes_to_the_lowest_ranked_even_if_the_others_must_float() -> None:
    # After round 1: 1 and 5 (bye) 1 point, 2 and 4 ½, 3 nothing. 3 sits out; 2 and 4 have met, so each
    # meets a leader (2 the one who can alternate with it).
    games = [Game.bye(1, 5), Game(1, 1, 3, 1.0), Game(1, 4, 2, 0.5)]
    assert pair_round([1, 2, 3, 4, 5], games) == [P(2, 1), P(5, 4), P(3, None)]


def test_the_bye_skips_a_player_who_had_one() -> None:
    # After two rounds 1 and 4 have 1½, 2, 3 and 5 one point. 5 is the lowest but had the bye of round 1,
    # so it goes to 3; of the rest only 1-5 and 2-4 are new. 1 (first twice) and 2 (second twice) must
    # switch.
    games = [
        Game.bye(1, 5),
        Game(1, 1, 2, 1.0),
        Game(1, 3, 4, 0.5),
        Game.bye(2, 4),
        Game(2, 1, 3, 0.5),
        Game(2, 5, 2, 0.0),
    ]
    assert pair_round([1, 2, 3, 4, 5], games) == [P(5, 1), P(2, 4), P(3, None)]


def test_nobody_takes_a_seat_a_third_time_in_a_row_even_across_score_groups() -> None:
    # A and B won twice in the first seat, C and D lost twice in the second (against players since
    # withdrawn). A-B and C-D would give two of them a third same seat: leaders meet the trailers instead.
    a, b, c, d, e, f, g, h = range(1, 9)
    games = [Game(1, a, e, 1.0), Game(1, b, f, 1.0), Game(1, g, c, 1.0), Game(1, h, d, 1.0)]
    games += [Game(2, a, f, 1.0), Game(2, b, e, 1.0), Game(2, h, c, 1.0), Game(2, g, d, 1.0)]
    boards = pair_round([a, b, c, d, e, f, g, h], games, withdrawn={e, f, g, h})
    assert {frozenset(p.players) for p in boards} == {frozenset((a, d)), frozenset((b, c))}
    assert all(p.first in (c, d) for p in boards)


@pytest.mark.parametrize(
    ("seats", "wish"),
    [
        ([], SeatWish(None, 0, 0)),
        ([0], SeatWish(1, 2, -1)),
        ([1], SeatWish(0, 2, 1)),
        ([0, 1], SeatWish(0, 1, 0)),
        ([1, 0], SeatWish(1, 1, 0)),
        ([0, 0], SeatWish(1, 3, -2)),
        ([1, 0, 0], SeatWish(1, 3, -1)),
        ([0, 1, 1], SeatWish(0, 3, 1)),
        ([1, 0, 1], SeatWish(0, 2, 1)),
        ([0, 1, 0, 0, 1], SeatWish(1, 2, -1)),
    ],
)
def test_seat_wish(seats: list[int], wish: SeatWish) -> None:
    assert seat_wish(seats) == wish


def test_equal_wishes_alternate_from_the_latest_game_the_two_sat_apart() -> None:
    # 1 sat 0 1 1 0, 2 sat 1 0 1 0 (against players since withdrawn, all drawn): both want seat 1 just as
    # much (alternation, level). In round 2 they last sat apart, 1 second: now 1 has the first seat, though
    # the higher-ranked would otherwise have their way.
    a, b = 1, 2
    games = [Game(1, a, 3, 0.5), Game(2, 4, a, 0.5), Game(3, 5, a, 0.5), Game(4, a, 6, 0.5)]
    games += [Game(1, 7, b, 0.5), Game(2, b, 8, 0.5), Game(3, 9, b, 0.5), Game(4, b, 10, 0.5)]
    assert seat_wish([0, 1, 1, 0]) == seat_wish([1, 0, 1, 0]) == SeatWish(1, 1, 0)
    assert pair_round(list(range(1, 11)), games, withdrawn=range(3, 11)) == [P(a, b)]


def test_with_the_same_seats_so_far_the_higher_ranked_player_has_their_wish() -> None:
    games = [Game(1, 1, 3, 0.5), Game(1, 2, 4, 0.5)]  # 1 and 2 both sat first: both want seat 1
    assert pair_round([1, 2, 3, 4], games, withdrawn={3, 4}) == [P(2, 1)]


def test_withdrawn_players_are_not_paired() -> None:
    boards = pair_round([1, 2, 3, 4, 5, 6], [], withdrawn={2, 5})
    assert boards == [P(1, 4), P(6, 3)]


def test_a_round_that_cannot_avoid_a_rematch_raises() -> None:
    games = [Game(r, p.first, p.second, 0.5) for r, boards in enumerate(_round_robin(4), 1) for p in boards]
    with pytest.raises(PairingError, match="rematch"):
        pair_round([1, 2, 3, 4], games)


def test_three_players_after_three_rounds_have_nothing_left() -> None:
    games = [Game(1, 1, 2, 1.0), Game.bye(1, 3), Game(2, 3, 1, 1.0), Game.bye(2, 2), Game(3, 2, 3, 1.0)]
    games.append(Game.bye(3, 1))
    with pytest.raises(PairingError):
        pair_round([1, 2, 3], games)


def test_fewer_than_two_players_still_in_raise() -> None:
    with pytest.raises(PairingError, match="at least 2"):
        pair_round([1, 2, 3], [], withdrawn={1, 2})


def test_bad_input_is_refused() -> None:
    with pytest.raises(TournamentError, match="twice"):
        pair_round([1, 2, 1], [])
    with pytest.raises(TournamentError, match="not in the tournament"):
        pair_round([1, 2], [Game(1, 1, 9, 1.0)])


# Six players whose first two rounds invite the dead end: the best round 3 (5-6 3-4 1-2) leaves the pairs
# not yet met as two triangles, {1, 3, 5} and {2, 4, 6}, and round 4 could not be paired.
SIX_PLAYERS = [1, 2, 3, 4, 5, 6]
TWO_ROUNDS = [
    Game(1, 1, 4, 0.0),
    Game(1, 5, 2, 1.0),
    Game(1, 3, 6, 0.0),
    Game(2, 4, 5, 0.5),
    Game(2, 6, 1, 0.0),
    Game(2, 2, 3, 0.5),
]


def test_without_the_round_count_the_best_round_can_dead_end() -> None:
    third = pair_round(SIX_PLAYERS, TWO_ROUNDS)
    assert third == [P(5, 6), P(3, 4), P(1, 2)]
    games = TWO_ROUNDS + [Game(3, p.first, p.second, 0.5) for p in third]
    with pytest.raises(PairingError):
        pair_round(SIX_PLAYERS, games)


def test_with_the_round_count_the_pairing_looks_ahead_and_all_five_rounds_are_played() -> None:
    games = list(TWO_ROUNDS)
    for number in (3, 4, 5):
        boards = pair_round(SIX_PLAYERS, games, rounds=5)
        games += [Game(number, p.first, p.second, 0.5) for p in boards]
    assert pair_round(SIX_PLAYERS, TWO_ROUNDS, rounds=5) == [P(5, 1), P(3, 4), P(2, 6)]
    assert len(met_pairs(games)) == 15  # everyone met everyone once


def test_the_answer_does_not_depend_on_the_order_of_the_games() -> None:
    games = [*TWO_ROUNDS, Game(3, 5, 1, 1.0), Game(3, 3, 4, 0.0), Game(3, 2, 6, 0.5)]
    assert pair_round(SIX_PLAYERS, games) == pair_round(SIX_PLAYERS, list(reversed(games)))


def test_round_one_of_256_players_pairs_the_halves_through_the_near_graph() -> None:
    players = list(range(1000, 1256))
    boards = pair_round(players, [])
    assert [frozenset(p.players) for p in boards] == [frozenset((1000 + i, 1128 + i)) for i in range(128)]
    assert [p.first for p in boards[:2]] == [1000, 1129]


def _round_robin(n: int) -> list[list[P]]:
    from duelclub.play.tournaments.roundrobin import schedule

    return schedule(list(range(1, n + 1)))


def test_the_near_graph_falls_back_to_all_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    # With every pair near but the rematches, the near graph of 4 players (one neighbour each way) has no
    # perfect matching; the full one does.
    monkeypatch.setattr(swiss, "DENSE_UP_TO", 0)
    monkeypatch.setattr(swiss, "NEAR", 1)
    games = [Game(1, 1, 2, 0.5), Game(1, 3, 4, 0.5), Game(2, 2, 3, 0.5), Game(2, 4, 1, 0.5)]
    assert {frozenset(p.players) for p in pair_round([1, 2, 3, 4], games)} == {
        frozenset((1, 3)),
        frozenset((2, 4)),
    }
