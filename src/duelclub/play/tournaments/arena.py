"""Arena (issue 26 §Formats): a time box in which a player who finishes goes back to the pool and is paired
again as soon as someone else is free; scored 2 / 1 / 0 with a streak bonus.

Pairing (:func:`pair_pool`), in priority order, as one :func:`networkx.max_weight_matching`
(``maxcardinality=True``) over the free players:

1. **No rematch in a row**: two players whose last game was against each other are not paired while anyone
   else is free or about to be (in a game now); only when they are the two only free players and nobody is
   playing do they meet again. A player whose last opponent is the other one counts ("twice in a row" for
   either of them).
2. **As many boards as possible**; a player left over stays in the pool (an arena has no byes).
3. **Who waits**: with an odd count, the one left over is the one who became free last.
4. **Neighbours in the ranking**: the smallest sum of squared rank gaps, so 1 meets 2, 3 meets 4, ...

Seats: seat 0 goes to the player whose last seat was 1 (a player with no game yet counts between: before one
whose last seat was 0, after one whose last seat was 1); between equals, to the one who has waited longer.

Scoring (:func:`scores`, :data:`RULES`): a win scores 2, a draw 1, a loss 0. After two wins in a row a
player is **on fire**: each further game is worth double (a win 4, a draw 2, as on Lichess) until one is not
won, which ends the streak. Forfeits (a no-show): the winner scores a plain 2, never doubled, and the game
neither starts, extends nor ends a streak (nobody played it); the no-show scores 0 and loses their streak.
A double forfeit is a forfeit loss for both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from .model import Game, Pairing, PlayerId, TournamentError


@dataclass(frozen=True, slots=True)
class ArenaRules:
    """The arena's scoring as data (for the page that explains it): points for a ``win``, a ``draw`` and a
    ``loss``; after ``streak_after`` wins in a row each game counts ``factor`` times; a forfeit win scores
    ``forfeit_win``, never multiplied."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    streak_after: int = 2
    factor: int = 2
    forfeit_win: int = 2


RULES = ArenaRules()
"""The arena's rules (issue 26 §Formats: 2 / 1 / 0, "after two wins in a row the next win counts double")."""
WIN = RULES.win

NEAR = 4
"""How many neighbours in the ranking each free player is linked to before all pairs are tried."""


class _Pool:
    """The node of "nobody": the one left over is matched to it."""

    def __repr__(self) -> str:
        return "POOL"


_LEFT_OVER: Any = _Pool()


def pair_pool(
    waiting: Sequence[PlayerId],
    *,
    ranking: Sequence[PlayerId],
    last_opponent: Mapping[PlayerId, PlayerId],
    others_busy: bool,
    last_seat: Mapping[PlayerId, int] | None = None,
) -> list[Pairing]:
    """The boards to start now among the free players ``waiting`` (in the order they became free).

    ``ranking`` is the current standings order (first is rank 1; every waiting player must be in it),
    ``last_opponent[p]`` the opponent of ``p``'s previous game, ``others_busy`` whether any player outside
    ``waiting`` is still in a game, ``last_seat[p]`` the seat (0 or 1) of ``p``'s previous game. Returns
    the boards (module rules), the better-ranked board first; players not in them stay waiting; an empty
    list when nobody can be paired. :class:`~.model.TournamentError` for a player waiting twice or not
    ranked."""
    if len(set(waiting)) != len(waiting):
        raise TournamentError("a player is waiting twice")
    rank = {p: i for i, p in enumerate(ranking)}
    for p in waiting:
        if p not in rank:
            raise TournamentError(f"player {p} is waiting but not in the ranking")
    if len(waiting) < 2:
        return []
    only_two = len(waiting) == 2 and not others_busy

    def allowed(a: PlayerId, b: PlayerId) -> bool:
        return only_two or (last_opponent.get(a) != b and last_opponent.get(b) != a)

    line = sorted(waiting, key=lambda p: rank[p])
    arrival = {p: i for i, p in enumerate(waiting)}
    pairs = _match(line, rank, arrival, allowed, NEAR)
    if len(pairs) < len(line) // 2 and len(line) > NEAR:
        pairs = _match(line, rank, arrival, allowed, len(line))
    seats = last_seat or {}
    boards = []
    for a, b in sorted(pairs, key=lambda ab: min(rank[ab[0]], rank[ab[1]])):
        claim_a, claim_b = _claim(seats.get(a)), _claim(seats.get(b))
        a_first = claim_a > claim_b or (claim_a == claim_b and arrival[a] < arrival[b])
        boards.append(Pairing(a, b) if a_first else Pairing(b, a))
    return boards


def _claim(seat: int | None) -> int:
    """How strongly a player whose last seat was ``seat`` should have seat 0 now."""
    return 1 if seat is None else 2 * seat


def _match(
    line: list[PlayerId],
    rank: Mapping[PlayerId, int],
    arrival: Mapping[PlayerId, int],
    allowed: Callable[[PlayerId, PlayerId], bool],
    near: int,
) -> list[tuple[PlayerId, PlayerId]]:
    """The best pairs of ``line`` (ranked order), each player linked to the next ``near`` in it."""
    gaps: dict[tuple[Any, Any], int] = {}
    for i, a in enumerate(line):
        for b in line[i + 1 : i + 1 + near]:
            if allowed(a, b):
                gaps[(a, b)] = (rank[b] - rank[a]) ** 2
    boards = len(line) // 2
    gap_scale = boards * max(gaps.values(), default=0) + 1
    top = gap_scale * (len(line) + 1)
    graph = nx.Graph()
    graph.add_nodes_from(line)
    for (a, b), gap in gaps.items():
        graph.add_edge(a, b, weight=top - gap)
    if len(line) % 2:
        graph.add_node(_LEFT_OVER)
        for p in line:
            # Leaving out the latest to become free costs nothing, the earliest the most.
            graph.add_edge(p, _LEFT_OVER, weight=top - gap_scale * (len(line) - 1 - arrival[p]))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[PlayerId, PlayerId]] = []
    for a, b in matching:
        if a is not _LEFT_OVER and b is not _LEFT_OVER:
            pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    return pairs


@dataclass(slots=True)
class ArenaScore:
    """A player's arena score: ``points`` in total, ``games`` finished (forfeits included) of which
    ``wins``, ``draws`` and ``losses``, ``streak`` (on fire now: the next game counts double),
    ``sheet`` the points of each game in order (e.g. ``[2, 2, 4, 0, 1]``) and ``fire`` whether each was
    played on fire."""

    player: PlayerId
    points: int = 0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    streak: bool = False
    sheet: list[int] = field(default_factory=list)
    fire: list[bool] = field(default_factory=list)


def game_order(game: Game) -> tuple[bool, float, int]:
    """The order of an arena's games: by ``ended_at`` (games without one after those with one), then by
    round."""
    return (game.ended_at is None, game.ended_at or 0.0, game.round)


def scores(games: Sequence[Game], *, rules: ArenaRules = RULES) -> dict[PlayerId, ArenaScore]:
    """Each player's :class:`ArenaScore` over the finished ``games`` (the module's scoring), every player of
    a game included (zero while their games are unfinished); their games are taken in :func:`game_order`.
    :class:`~.model.TournamentError` for a bye (an arena has none)."""
    table: dict[PlayerId, ArenaScore] = {}
    run: dict[PlayerId, int] = {}  # wins in a row, forfeit wins skipped
    for game in sorted(games, key=game_order):
        if game.second is None:
            raise TournamentError(f"round {game.round}: an arena has no byes")
        for player in game.players:
            score = table.setdefault(player, ArenaScore(player))
            if not game.finished:
                continue
            points = game.points(player)
            on_fire = run.get(player, 0) >= rules.streak_after
            if game.forfeit:
                on_fire = False
                if points == 1.0:
                    gained, score.wins = rules.forfeit_win, score.wins + 1
                else:
                    gained, score.losses, run[player] = rules.loss, score.losses + 1, 0
            elif points == 1.0:
                gained, score.wins = rules.win, score.wins + 1
                run[player] = run.get(player, 0) + 1
            elif points == 0.5:
                gained, score.draws, run[player] = rules.draw, score.draws + 1, 0
            else:
                gained, score.losses, run[player] = rules.loss, score.losses + 1, 0
            if on_fire:
                gained *= rules.factor
            score.points += gained
            score.games += 1
            score.sheet.append(gained)
            score.fire.append(on_fire)
    for player, score in table.items():
        score.streak = run.get(player, 0) >= rules.streak_after
    return table
