"""Standings (issue 26 §Formats, §End): points, then Sonneborn–Berger, head-to-head, wins and seeding; the
crosstable and its CSV. Every expected table is worked out by hand in the comments."""

from __future__ import annotations

import csv
import io

import pytest

from duelclub.play.tournaments.model import Game, TournamentError
from duelclub.play.tournaments.standings import CSV_COLUMNS, Standing, crosstable, standings, to_csv


def _order(table: list[Standing]) -> list[int]:
    return [s.player for s in table]


# A four-player round robin: 4 beats 1, 2 beats 3 | 3 beats 4, 1 beats 2 | 2 beats 4, 1 and 3 draw.
# Points: 2 has 2, 1 and 3 have 1½, 4 has 1. Sonneborn–Berger: 1 beat 2 (2) and drew 3 (½ of 1½) = 2.75;
# 3 beat 4 (1) and drew 1 (¾) = 1.75; 2 beat 3 and 4 = 2.5; 4 beat 1 = 1.5.
SB_GAMES = [
    Game(1, 1, 4, 0.0),
    Game(1, 2, 3, 1.0),
    Game(2, 4, 3, 0.0),
    Game(2, 1, 2, 1.0),
    Game(3, 2, 4, 1.0),
    Game(3, 3, 1, 0.5),
]


def test_points_then_sonneborn_berger() -> None:
    table = standings([3, 1, 2, 4], SB_GAMES)  # 3 seeded above 1: Sonneborn–Berger still puts 1 first
    assert _order(table) == [2, 1, 3, 4]
    assert [(s.points, s.tiebreak) for s in table] == [(2.0, 2.5), (1.5, 2.75), (1.5, 1.75), (1.0, 1.5)]
    assert [s.rank for s in table] == [1, 2, 3, 4]
    assert [(s.wins, s.played) for s in table] == [(2, 3), (1, 3), (1, 3), (1, 3)]


def test_head_to_head_breaks_a_tie_on_points_and_sonneborn_berger() -> None:
    # 1 beats 4, 2 beats 3 | 4 beats 3, 2 beats 1 | 2-4 and 3-1 drawn. 1 and 4 have 1½ and a
    # Sonneborn–Berger of 1.75 each (1: 4's 1½ plus ¼; 4: 3's ½ plus half of 2's 2½); 1 beat 4.
    games = [
        Game(1, 1, 4, 1.0),
        Game(1, 2, 3, 1.0),
        Game(2, 4, 3, 1.0),
        Game(2, 1, 2, 0.0),
        Game(3, 2, 4, 0.5),
        Game(3, 3, 1, 0.5),
    ]
    table = standings([4, 3, 2, 1], games)
    assert _order(table) == [2, 1, 4, 3]
    one, four = table[1], table[2]
    assert (one.points, one.tiebreak, one.head_to_head) == (1.5, 1.75, 1.0)
    assert (four.points, four.tiebreak, four.head_to_head) == (1.5, 1.75, 0.0)
    assert table[0].head_to_head == 0.0  # level with nobody


def test_wins_break_a_tie_on_points_sonneborn_berger_and_head_to_head() -> None:
    # 1 beats 4, 2-3 drawn | 4 beats 3, 1-2 drawn | 2-4 drawn, 3 beats 1: everyone 1½, Sonneborn–Berger
    # 2.25 and head-to-head 1½ (all four are level), but 2 drew all three: no win, last.
    games = [
        Game(1, 1, 4, 1.0),
        Game(1, 2, 3, 0.5),
        Game(2, 4, 3, 1.0),
        Game(2, 1, 2, 0.5),
        Game(3, 2, 4, 0.5),
        Game(3, 3, 1, 1.0),
    ]
    table = standings([2, 1, 3, 4], games)
    assert _order(table) == [1, 3, 4, 2]
    assert {(s.points, s.tiebreak, s.head_to_head) for s in table} == {(1.5, 2.25, 1.5)}
    assert [s.wins for s in table] == [1, 1, 1, 0]


def test_level_on_everything_the_seeding_decides_and_ranks_are_never_shared() -> None:
    games = [Game(1, 1, 2, 1.0), Game(2, 2, 3, 1.0), Game(3, 3, 1, 1.0)]  # a cycle: all the same
    table = standings([3, 1, 2], games)
    assert [(s.rank, s.player) for s in table] == [(1, 3), (2, 1), (3, 2)]


def test_a_bye_scores_a_point_but_no_tiebreak_win_or_game() -> None:
    # 1 beat 2 and 3 had the bye: both have 1 point and a Sonneborn–Berger of 0 (2 has none, the bye
    # is nobody), no game between them; 1 has a win, the bye is none.
    table = standings([3, 1, 2], [Game(1, 1, 2, 1.0), Game.bye(1, 3)])
    assert _order(table) == [1, 3, 2]
    three = table[1]
    assert (three.points, three.tiebreak, three.wins, three.played) == (1.0, 0.0, 0, 0)


def test_a_forfeit_win_counts_as_points_a_win_and_in_the_tiebreak_but_not_as_a_game_played() -> None:
    # 2 did not show against 1; 1 then lost to 3. 1: 1 point, a win, one game played over the board.
    games = [Game(1, 1, 2, 1.0, forfeit=True), Game(2, 3, 1, 1.0), Game(2, 2, 4, 1.0)]
    table = {s.player: s for s in standings([1, 2, 3, 4], games, withdrawn={2})}
    assert (table[1].points, table[1].wins, table[1].played, table[1].tiebreak) == (1.0, 1, 1, 1.0)
    assert table[2].played == 1, "2's forfeit loss is no game played; their game with 4 is"
    assert table[2].withdrawn and not table[1].withdrawn
    assert (table[3].points, table[3].tiebreak) == (1.0, 1.0)


def test_a_double_forfeit_scores_nothing_for_either_and_is_no_game_played() -> None:
    table = standings([1, 2], [Game(1, 1, 2, None, forfeit=True)])
    assert [(s.points, s.wins, s.played) for s in table] == [(0.0, 0, 0), (0.0, 0, 0)]


def test_unfinished_games_count_for_nothing() -> None:
    table = standings([1, 2], [Game(1, 2, 1)])
    assert [(s.player, s.points, s.played) for s in table] == [(1, 0.0, 0), (2, 0.0, 0)]


def test_an_arena_ranks_by_its_own_points() -> None:
    # 1: win, win, win on fire (2 + 2 + 4 = 8); 2 lost to 1 then beat 3 twice (0 + 2 + 2 = 4); 3: 0.
    games = [
        Game(1, 1, 2, 1.0, ended_at=1.0),
        Game(2, 1, 3, 1.0, ended_at=2.0),
        Game(3, 2, 3, 1.0, ended_at=3.0),
        Game(4, 1, 3, 1.0, ended_at=4.0),
        Game(5, 3, 2, 0.0, ended_at=5.0),
    ]
    table = standings([3, 2, 1], games, arena=True)
    assert [(s.player, s.points, s.wins, s.played) for s in table] == [
        (1, 8.0, 3, 3),
        (2, 4.0, 2, 3),
        (3, 0.0, 0, 4),
    ]
    assert table[0].tiebreak == 4.0 + 0.0 + 0.0  # beaten: 2 (4 points) and 3 twice (0)


def test_standings_refuse_a_stranger_or_a_repeat() -> None:
    with pytest.raises(TournamentError):
        standings([1, 2], [Game(1, 1, 3, 1.0)])
    with pytest.raises(TournamentError):
        standings([1, 1], [])


def test_crosstable_marks_results_forfeits_byes_and_games_in_play() -> None:
    games = [
        Game(1, 1, 2, 1.0),
        Game.bye(1, 3),
        Game(2, 3, 1, 0.5),
        Game.bye(2, 2),
        Game(3, 2, 3, 1.0, forfeit=True),
        Game(4, 2, 1, 0.0),  # a double round robin's second cycle: 1 beats 2 again
        Game(5, 1, 3, None, forfeit=True),
        Game(6, 3, 2),
    ]
    rows = {r.player: r for r in crosstable([1, 2, 3], games)}
    assert rows[1].cells == {2: ["1", "1"], 3: ["½", "-"]}
    assert rows[2].cells == {1: ["0", "0"], 3: ["+", "*"]}
    assert rows[3].cells == {1: ["½", "-"], 2: ["-", "*"]}
    assert (rows[1].bye_rounds, rows[2].bye_rounds, rows[3].bye_rounds) == ([], [2], [1])
    assert [r.player for r in crosstable([3, 1, 2], games)] == [3, 1, 2]


def test_csv_round_trips_through_the_csv_reader() -> None:
    players = [1, 2, 3, 4]
    table = standings(players, SB_GAMES)
    names = {1: 'Олена "Ліса"', 2: "Bob, Jr.", 3: "Иван", 4: "bot:strong"}
    text = to_csv(table, crosstable(players, SB_GAMES), names)
    assert text.endswith("\r\n")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == [*CSV_COLUMNS, "1", "2", "3", "4"]
    # Placed: 2, 1, 3, 4. Column k holds the result against the player placed k.
    assert rows[1:] == [
        ["1", "Bob, Jr.", "2", "2.5", "2", "3", "0", "", "0", "1", "1"],
        ["2", 'Олена "Ліса"', "1.5", "2.75", "1", "3", "0", "1", "", "½", "0"],
        ["3", "Иван", "1.5", "1.75", "1", "3", "0", "0", "½", "", "1"],
        ["4", "bot:strong", "1", "1.5", "1", "3", "0", "0", "1", "0", ""],
    ]
    assert text.encode("utf-8").decode("utf-8") == text


def test_csv_joins_several_games_and_names_an_unnamed_player_by_id() -> None:
    games = [Game(1, 1, 2, 1.0), Game(2, 2, 1, 0.5)]
    text = to_csv(standings([1, 2], games), crosstable([1, 2], games), {1: "a"})
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[1] == ["1", "a", "1.5", "0.75", "1", "2", "0", "", "1 ½"]  # 2 beaten (½) and drawn (¼)
    assert rows[2] == ["2", "2", "0.5", "0.75", "0", "2", "0", "0 ½", ""]


def test_csv_counts_each_players_byes() -> None:
    """A bye is a point without a game: the ``byes`` column says where such points come from."""
    games = [Game(1, 1, 2, 1.0), Game(1, 3, None, 1.0), Game(2, 1, 3, 0.0), Game(2, 2, None, 1.0)]
    games += [Game(3, 2, 3, 0.5), Game(3, 1, None, 1.0)]
    text = to_csv(standings([1, 2, 3], games), crosstable([1, 2, 3], games), {1: "a", 2: "b", 3: "c"})
    rows = {r[1]: r for r in list(csv.reader(io.StringIO(text, newline="")))[1:]}
    # each played two games (played) and rested once (byes)
    assert {name: (r[5], r[6]) for name, r in rows.items()} == dict.fromkeys("abc", ("2", "1"))
