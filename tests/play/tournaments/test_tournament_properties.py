"""Property tests (issue 26 §Done when): random results for random player counts keep every invariant of a
round robin and a Swiss, and the standings and the arena pool keep theirs."""

from __future__ import annotations

import itertools
from collections import Counter

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from duelclub.play.tournaments import swiss
from duelclub.play.tournaments.arena import pair_pool
from duelclub.play.tournaments.model import Game, Pairing, PairingError, met_pairs, points_by_player
from duelclub.play.tournaments.roundrobin import round_count, schedule, withdrawal_forfeits
from duelclub.play.tournaments.standings import standings

results = st.sampled_from([0.0, 0.5, 1.0])


def _play(boards: list[Pairing], number: int, data: st.DataObject) -> list[Game]:
    return [
        Game.bye(number, p.first) if p.second is None else Game(number, p.first, p.second, data.draw(results))
        for p in boards
    ]


def _points_add_up(games: list[Game]) -> None:
    """Every game with a result hands out exactly one point (a bye too); a double forfeit none."""
    with_result = sum(1 for g in games if g.score is not None)
    assert sum(points_by_player(games).values()) == with_result


def _pairable(active: list[int], games: list[Game]) -> bool:
    """Whether any pairing of ``active`` avoids a rematch and a second bye (brute force, for small fields)."""
    met = met_pairs(games)
    had_bye = {g.first for g in games if g.second is None}
    graph = nx.Graph()
    graph.add_nodes_from(active)
    graph.add_edges_from(e for e in itertools.combinations(active, 2) if frozenset(e) not in met)
    if len(active) % 2:
        graph.add_edges_from(("bye", p) for p in active if p not in had_bye)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(active) + len(active) % 2


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=12), st.booleans(), st.data())
def test_round_robin_with_random_results_and_withdrawals(n: int, double: bool, data: st.DataObject) -> None:
    players = list(range(10, 10 + n))
    rounds = schedule(players, double=double)
    assert len(rounds) == round_count(n, double=double)
    quit_after = data.draw(st.integers(min_value=0, max_value=len(rounds)))
    withdrawn = set(data.draw(st.lists(st.sampled_from(players), max_size=2)))
    games: list[Game] = []
    for number, boards in enumerate(rounds[:quit_after], start=1):
        games += _play(boards, number, data)
    games += withdrawal_forfeits(rounds, games, withdrawn)
    for number in range(quit_after + 1, len(rounds) + 1):  # the rest is played by those still in
        for p in rounds[number - 1]:
            if not withdrawn.intersection(p.players):
                games += _play([p], number, data)
    meetings = Counter(frozenset(g.players) for g in games if g.second is not None)
    assert set(meetings) == {frozenset(pair) for pair in itertools.combinations(players, 2)}
    assert set(meetings.values()) == {2 if double else 1}
    for number in range(1, len(rounds) + 1):
        seated = [p for g in games if g.round == number for p in g.players]
        assert len(seated) == len(set(seated))
    byes = Counter(g.first for g in games if g.second is None)
    cycles = 2 if double else 1
    assert all(byes[p] == cycles * (n % 2) for p in players if p not in withdrawn)
    assert all(byes[p] <= cycles * (n % 2) for p in withdrawn)  # a withdrawn player's later byes are dropped
    _points_add_up(games)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=20), st.data())
def test_swiss_with_random_results_and_withdrawals(n: int, data: st.DataObject) -> None:
    players = list(range(100, 100 + n))
    rounds = data.draw(st.integers(min_value=1, max_value=min(swiss.max_rounds(n), 7)))
    withdrawn: set[int] = set()
    games: list[Game] = []
    for number in range(1, rounds + 1):
        withdrawn |= set(data.draw(st.lists(st.sampled_from(players), max_size=1)))
        active = [p for p in players if p not in withdrawn]
        try:
            boards = swiss.pair_round(players, games, withdrawn=withdrawn, rounds=rounds)
        except PairingError:
            assert len(active) < 2 or not _pairable(active, games)
            break
        seated = [p for b in boards for p in b.players]
        assert sorted(seated) == sorted(active)  # everyone still in, once
        assert [b.second is None for b in boards].count(True) == len(active) % 2
        assert all(b.second is not None for b in boards[:-1])  # the bye last
        games += _play(boards, number, data)
    meetings = Counter(frozenset(g.players) for g in games if g.second is not None)
    assert set(meetings.values()) <= {1}
    assert set(Counter(g.first for g in games if g.second is None).values()) <= {1}
    _points_add_up(games)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=10), st.data())
def test_a_swiss_of_the_most_rounds_allowed_is_always_paired(n: int, data: st.DataObject) -> None:
    """With its round count the pairing looks ahead, so even a Swiss as long as a round robin ends with
    everyone having met everyone (odd counts: and one bye each)."""
    players = list(range(n))
    rounds = swiss.max_rounds(n)
    games: list[Game] = []
    for number in range(1, rounds + 1):
        games += _play(swiss.pair_round(players, games, rounds=rounds), number, data)
    assert len(met_pairs(games)) == n * (n - 1) // 2
    assert sorted(g.first for g in games if g.second is None) == (players if n % 2 else [])


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=16), st.data())
def test_swiss_seats_follow_the_wishes(n: int, data: st.DataObject) -> None:
    """A player gets the seat they must have (a third same seat in a row, or two games ahead in it)
    unless their opponent must have the same one; wishes that do not clash are both granted."""
    players = list(range(n))
    games: list[Game] = []
    total = min(swiss.max_rounds(n), 6)
    for number in range(1, total + 1):
        boards = swiss.pair_round(players, games, rounds=total)
        seats = {
            p: [
                g.seat(p)
                for g in sorted(games, key=lambda g: g.round)
                if g.second is not None and p in g.players
            ]
            for p in players
        }
        for board in boards:
            if board.second is None:
                continue
            first, second = swiss.seat_wish(seats[board.first]), swiss.seat_wish(seats[board.second])
            if first.seat != second.seat or first.seat is None:
                assert first.seat in (0, None) and second.seat in (1, None)
            elif first.strength != second.strength:
                winner = first if first.strength > second.strength else second
                assert (winner is first) == (winner.seat == 0)
        games += _play(boards, number, data)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=12), st.data())
def test_standings_rank_everyone_once_by_the_tie_break_chain(n: int, data: st.DataObject) -> None:
    players = list(range(1, n + 1))
    games: list[Game] = []
    for number, boards in enumerate(schedule(players), start=1):
        games += _play(boards, number, data)
    table = standings(players, games)
    assert [s.rank for s in table] == list(range(1, n + 1))
    assert sorted(s.player for s in table) == players
    assert {s.player: s.points for s in table} == {p: points_by_player(games).get(p, 0.0) for p in players}
    keys = [(-s.points, -s.tiebreak, -s.head_to_head, -s.wins, players.index(s.player)) for s in table]
    assert keys == sorted(keys)
    assert all(s.played == n - 1 for s in table)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=12), st.booleans(), st.data())
def test_arena_pool_never_repeats_a_pairing_while_others_can_come(
    n: int, busy: bool, data: st.DataObject
) -> None:
    ranking = list(range(1, 21))
    waiting = data.draw(st.permutations(ranking).map(lambda p: p[:n]))
    last = {p: data.draw(st.sampled_from([q for q in ranking if q != p])) for p in waiting}
    boards = pair_pool(waiting, ranking=ranking, last_opponent=last, others_busy=busy)
    paired = [p for b in boards for p in b.players]
    assert len(paired) == len(set(paired)) and set(paired) <= set(waiting)
    relaxed = len(waiting) == 2 and not busy

    def allowed(a: int, b: int) -> bool:
        return relaxed or (last.get(a) != b and last.get(b) != a)

    assert all(allowed(b.first, b.second) for b in boards if b.second is not None)
    graph = nx.Graph()
    graph.add_edges_from(e for e in itertools.combinations(waiting, 2) if allowed(*e))
    assert len(boards) == len(nx.max_weight_matching(graph, maxcardinality=True))  # as many as can be
