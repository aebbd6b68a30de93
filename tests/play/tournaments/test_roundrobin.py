"""Round robin (issue 26 §Formats): the FIDE Berger tables, odd counts, double round robin, withdrawal."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from duelclub.play.tournaments.model import Game, Pairing, TournamentError
from duelclub.play.tournaments.roundrobin import berger_table, round_count, schedule, withdrawal_forfeits

# FIDE Handbook C.05 Annex 1, "Berger tables for round-robin tournaments", typed in as published: one string
# per round, boards "first seat-second seat" in board order.
FIDE = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
    10: [
        "1-10 2-9 3-8 4-7 5-6",
        "10-6 7-5 8-4 9-3 1-2",
        "2-10 3-1 4-9 5-8 6-7",
        "10-7 8-6 9-5 1-4 2-3",
        "3-10 4-2 5-1 6-9 7-8",
        "10-8 9-7 1-6 2-5 3-4",
        "4-10 5-3 6-2 7-1 8-9",
        "10-9 1-8 2-7 3-6 4-5",
        "5-10 6-4 7-3 8-2 9-1",
    ],
    12: [
        "1-12 2-11 3-10 4-9 5-8 6-7",
        "12-7 8-6 9-5 10-4 11-3 1-2",
        "2-12 3-1 4-11 5-10 6-9 7-8",
        "12-8 9-7 10-6 11-5 1-4 2-3",
        "3-12 4-2 5-1 6-11 7-10 8-9",
        "12-9 10-8 11-7 1-6 2-5 3-4",
        "4-12 5-3 6-2 7-1 8-11 9-10",
        "12-10 11-9 1-8 2-7 3-6 4-5",
        "5-12 6-4 7-3 8-2 9-1 10-11",
        "12-11 1-10 2-9 3-8 4-7 5-6",
        "6-12 7-5 8-4 9-3 10-2 11-1",
    ],
}


def _published(size: int) -> list[list[tuple[int, int]]]:
    return [
        [(int(a), int(b)) for a, b in (board.split("-") for board in line.split())] for line in FIDE[size]
    ]


def _players(n: int) -> list[int]:
    """Member ids unlike their player numbers, so that a mix-up shows."""
    return [100 + 7 * i for i in range(n)]


@pytest.mark.parametrize("size", sorted(FIDE))
def test_berger_table_is_fides_published_table(size: int) -> None:
    assert berger_table(size) == _published(size)


@pytest.mark.parametrize("size", [4, 6, 8, 10, 12])
def test_even_schedule_maps_table_numbers_to_the_seeding(size: int) -> None:
    players = _players(size)
    expected = [[Pairing(players[a - 1], players[b - 1]) for a, b in boards] for boards in _published(size)]
    assert schedule(players) == expected


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11])
def test_odd_count_plays_the_next_table_with_the_last_number_as_the_bye(n: int) -> None:
    players = _players(n)
    got = schedule(players)
    assert len(got) == n == round_count(n)
    for boards, published in zip(got, _published(n + 1), strict=True):
        games = [Pairing(players[a - 1], players[b - 1]) for a, b in published if n + 1 not in (a, b)]
        (sitter,) = [a if b == n + 1 else b for a, b in published if n + 1 in (a, b)]
        assert boards == [*games, Pairing(players[sitter - 1], None)]


def test_berger_table_refuses_an_odd_or_tiny_size() -> None:
    for size in (0, 1, 3, 7):
        with pytest.raises(TournamentError):
            berger_table(size)


@pytest.mark.parametrize("n", range(2, 13))
def test_each_pair_meets_exactly_once_and_nobody_twice_a_round(n: int) -> None:
    players = _players(n)
    rounds = schedule(players)
    met = Counter(frozenset(p.players) for boards in rounds for p in boards if p.second is not None)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}
    for boards in rounds:
        seated = [q for p in boards for q in p.players]
        assert sorted(seated) == sorted(players)
        assert all(p.second is not None for p in boards[:-1])  # the bye, if any, last


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11])
def test_odd_count_gives_each_player_exactly_one_bye(n: int) -> None:
    byes = [p.first for boards in schedule(_players(n)) for p in boards if p.second is None]
    assert sorted(byes) == _players(n)


@pytest.mark.parametrize("n", range(2, 13))
def test_round_count(n: int) -> None:
    single = n - 1 if n % 2 == 0 else n
    assert round_count(n) == single == len(schedule(_players(n)))
    assert round_count(n, double=True) == 2 * single == len(schedule(_players(n), double=True))


def test_round_count_and_schedule_refuse_fewer_than_two_or_a_repeat() -> None:
    with pytest.raises(TournamentError):
        round_count(1)
    with pytest.raises(TournamentError):
        schedule([5])
    with pytest.raises(TournamentError):
        schedule([5, 6, 5])


@pytest.mark.parametrize("n", range(2, 13))
def test_double_round_robin_plays_every_pair_once_in_each_seat(n: int) -> None:
    players = _players(n)
    rounds = schedule(players, double=True)
    single = round_count(n)
    seatings = Counter((p.first, p.second) for boards in rounds for p in boards if p.second is not None)
    assert set(seatings) == set(itertools.permutations(players, 2))
    assert set(seatings.values()) == {1}
    # The second cycle is the table again, every board's seats swapped.
    for boards, again in zip(schedule(players), rounds[single:], strict=True):
        assert again == [p if p.second is None else Pairing(p.second, p.first) for p in boards]


@pytest.mark.parametrize("n", range(4, 13))
def test_double_round_robin_swaps_the_first_cycles_last_two_rounds(n: int) -> None:
    players = _players(n)
    single = schedule(players)
    front = schedule(players, double=True)[: len(single)]
    assert front == [*single[:-2], single[-1], single[-2]]


@pytest.mark.parametrize("n", range(3, 13))
def test_double_round_robin_never_gives_a_seat_three_times_in_a_row(n: int) -> None:
    """FIDE's reason for the swap: without it player 1 of 6 sits second in rounds 5, 6 and 7."""
    rounds = schedule(_players(n), double=True)
    for player in _players(n):
        seats = [
            b.players.index(player) for boards in rounds for b in boards if b.second and player in b.players
        ]
        assert all(len(set(seats[i : i + 3])) == 2 for i in range(len(seats) - 2)), (player, seats)


def test_withdrawal_forfeits_the_remaining_games_and_keeps_the_finished_ones() -> None:
    a, b, c, d = players = [11, 12, 13, 14]
    rounds = schedule(players)  # 1: a-d b-c   2: d-c a-b   3: b-d c-a
    assert [[p.players for p in boards] for boards in rounds] == [
        [(a, d), (b, c)],
        [(d, c), (a, b)],
        [(b, d), (c, a)],
    ]
    games = [Game(1, a, d, 0.5), Game(1, b, c, 1.0)]
    # d withdraws after round 1: their draw with a stands; c and b win their games against d by forfeit.
    assert withdrawal_forfeits(rounds, games, {d}) == [
        Game(2, d, c, 0.0, forfeit=True),
        Game(3, b, d, 1.0, forfeit=True),
    ]


def test_withdrawal_of_both_players_is_a_double_forfeit_and_drops_a_withdrawn_bye() -> None:
    a, b, c = players = [1, 2, 3]
    rounds = schedule(players)  # 1: b-c, a bye   2: a-b, c bye   3: c-a, b bye
    assert rounds == [
        [Pairing(b, c), Pairing(a, None)],
        [Pairing(a, b), Pairing(c, None)],
        [Pairing(c, a), Pairing(b, None)],
    ]
    forfeits = withdrawal_forfeits(rounds, [Game(1, b, c, 0.0), Game.bye(1, a)], {a, b})
    assert forfeits == [Game(2, a, b, None, forfeit=True), Game(3, c, a, 1.0, forfeit=True)]
    assert all(f.finished for f in forfeits)
    assert forfeits[0].points(a) == forfeits[0].points(b) == 0.0


def test_withdrawal_leaves_an_unfinished_game_of_the_current_round_to_forfeit() -> None:
    a, b, c, d = players = [11, 12, 13, 14]
    rounds = schedule(players)
    games = [Game(1, a, d), Game(1, b, c, 1.0)]  # a-d still being played when a withdraws
    assert withdrawal_forfeits(rounds, games, {a})[0] == Game(1, a, d, 0.0, forfeit=True)
