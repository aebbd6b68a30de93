"""What a tournament does next (play/tournaments/progress.py; issue 26 §Lifecycle)."""

from __future__ import annotations

from duelclub.play.tournaments.model import Game
from duelclub.play.tournaments.progress import Board, next_step


def test_a_round_robin_waits_for_its_round_then_pairs_the_next_and_finishes_after_the_last() -> None:
    players = [1, 2, 3, 4]
    first = next_step("round_robin", players=players, games=[], current_round=0)
    assert first.kind == "pair" and first.round == 1 and all(b.is_match for b in first.boards)
    games = [Game(1, b.first, b.second) for b in first.boards]
    assert next_step("round_robin", players=players, games=games, current_round=1).kind == "wait"
    done = [Game(1, g.first, g.second, 1.0) for g in games]
    assert next_step("round_robin", players=players, games=done, current_round=1).round == 2
    assert next_step("round_robin", players=players, games=done, current_round=3).kind == "finish"


def test_a_withdrawn_player_forfeits_the_rest_of_a_round_robin_and_loses_their_bye() -> None:
    step = next_step("round_robin", players=[1, 2, 3], games=[], withdrawn={3}, current_round=0)
    for board in step.boards:
        if 3 in (board.first, board.second):
            assert board.forfeit and board.score == (0.0 if board.first == 3 else 1.0)
    assert Board(3, None, 1.0) not in step.boards
    both = next_step("round_robin", players=[1, 2, 3, 4], games=[], withdrawn={1, 4}, current_round=0)
    assert Board(1, 4, None, forfeit=True) in both.boards or Board(4, 1, None, forfeit=True) in both.boards


def test_a_swiss_finishes_after_its_rounds_or_with_fewer_than_two_players_in() -> None:
    step = next_step("swiss", players=[1, 2, 3], games=[], current_round=0, rounds=2)
    assert step.kind == "pair" and sum(b.second is None for b in step.boards) == 1
    assert next_step("swiss", players=[1, 2, 3], games=[], current_round=2, rounds=2).kind == "finish"
    assert (
        next_step("swiss", players=[1, 2], games=[], withdrawn={2}, current_round=1, rounds=3).kind
        == "finish"
    )


def test_an_arena_pairs_the_free_and_finishes_once_over_and_empty() -> None:
    playing = [Game(1, 1, 2)]
    step = next_step("arena", players=[1, 2, 3, 4], games=playing, current_round=1)
    assert step.kind == "pair" and [(b.first, b.second) for b in step.boards] in ([(3, 4)], [(4, 3)])
    assert (
        next_step("arena", players=[1, 2, 3, 4], games=playing, current_round=1, arena_over=True).kind
        == "wait"
    )
    ended = [Game(1, 1, 2, 1.0, ended_at=5.0)]
    assert next_step("arena", players=[1, 2], games=ended, current_round=1, arena_over=True).kind == "finish"
