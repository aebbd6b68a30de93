"""What a tournament does next (issue 26 §Lifecycle): a pure function of its format, players and results.

The driver (play/tournament_driver.py) reads the stored tournament, asks :func:`next_step` and writes the
answer under the tournament's version guard; this module decides, without I/O:

- **Round robin** and **Swiss**: nothing while a game of the current round is unfinished; after the last
  round, ``finish``; else ``pair`` the next round. A round robin plays its Berger round as scheduled: a board
  with one withdrawn player is a forfeit won by the other, with two a double forfeit, and a withdrawn player's
  bye is dropped (:func:`.roundrobin.withdrawal_forfeits`'s rules). A Swiss pairs only those still in.
- **Arena**: while the time box runs, ``pair`` the free players (:func:`.arena.pair_pool`), in the order they
  became free; once it is over, ``finish`` when no game is unfinished (games running at the end still count).
- Every format finishes early when fewer than two players are still in.

Boards come back as :class:`Board`: a match to open (``score`` None, not ``forfeit``), a bye (``second``
None, score 1) or a forfeit decided now.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Literal

from . import arena, roundrobin, swiss
from .model import Game, Pairing, PlayerId, TournamentError

Format = Literal["round_robin", "swiss", "arena"]
FORMATS: tuple[Format, ...] = ("round_robin", "swiss", "arena")


@dataclass(frozen=True, slots=True)
class Board:
    """A board to write: ``first`` (seat 0) and ``second`` (seat 1, None for a bye); ``score`` of the first
    seat when decided without play (a bye 1, a forfeit 1 or 0, a double forfeit None with ``forfeit``)."""

    first: PlayerId
    second: PlayerId | None
    score: float | None = None
    forfeit: bool = False

    @property
    def is_match(self) -> bool:
        """Whether this board is played: an ordinary match is opened for it."""
        return self.second is not None and not self.forfeit


@dataclass(frozen=True, slots=True)
class Step:
    """``wait`` (nothing to do now), ``pair`` (write ``boards`` as round ``round``) or ``finish``."""

    kind: Literal["wait", "pair", "finish"]
    round: int = 0
    boards: list[Board] = field(default_factory=list)


WAIT = Step("wait")
FINISH = Step("finish")


def total_rounds(fmt: Format, player_count: int, *, rounds: int | None, double: bool) -> int | None:
    """The rounds a round robin or a Swiss plays (None for an arena): a round robin's Berger count, a
    Swiss's chosen ``rounds`` — cut to :func:`.swiss.max_rounds` of ``player_count`` when it is more (2 or
    more players): a Swiss the server starts at its start time with fewer players than its rounds need
    plays as many rounds as they allow, rather than not at all (an organiser's own start of such a Swiss is
    refused instead, play/tournament_ops.py ``start``)."""
    if fmt == "round_robin":
        return roundrobin.round_count(player_count, double=double)
    if fmt == "swiss":
        if rounds is None:
            raise TournamentError("a Swiss needs its number of rounds")
        return min(rounds, swiss.max_rounds(player_count)) if player_count >= 2 else rounds
    return None


def next_step(
    fmt: Format,
    *,
    players: Sequence[PlayerId],
    games: Sequence[Game],
    withdrawn: Collection[PlayerId] = (),
    current_round: int,
    rounds: int | None = None,
    double: bool = False,
    arena_over: bool = False,
) -> Step:
    """The next step of a tournament in ``fmt`` whose ``players`` are in seeding order, with ``games`` so
    far (all rounds, finished or not), ``withdrawn`` players, the last paired ``current_round`` (0 before
    the first) and, for a Swiss, its ``rounds``; an arena says whether its time is up (``arena_over``).

    Raises :class:`~.model.PairingError` when a Swiss round cannot be paired without a rematch."""
    out = set(withdrawn)
    active = [p for p in players if p not in out]
    unfinished = [g for g in games if not g.finished]
    if fmt == "arena":
        if arena_over or len(active) < 2:
            return WAIT if unfinished else FINISH
        return _arena(active, games, unfinished, current_round)
    if unfinished:
        return WAIT
    total = total_rounds(fmt, len(players), rounds=rounds, double=double)
    assert total is not None
    if current_round >= total or len(active) < 2:
        return FINISH
    number = current_round + 1
    if fmt == "round_robin":
        schedule = roundrobin.schedule(players, double=double)
        return Step("pair", number, _round_robin_boards(schedule[number - 1], out))
    pairings = swiss.pair_round(players, games, withdrawn=out, rounds=total)
    return Step("pair", number, [_board(p) for p in pairings])


def _board(pairing: Pairing) -> Board:
    if pairing.second is None:
        return Board(pairing.first, None, 1.0)
    return Board(pairing.first, pairing.second)


def _round_robin_boards(pairings: Sequence[Pairing], out: Collection[PlayerId]) -> list[Board]:
    boards: list[Board] = []
    for p in pairings:
        if p.second is None:
            if p.first not in out:
                boards.append(Board(p.first, None, 1.0))
        elif p.first in out and p.second in out:
            boards.append(Board(p.first, p.second, None, forfeit=True))
        elif p.first in out or p.second in out:
            boards.append(Board(p.first, p.second, 0.0 if p.first in out else 1.0, forfeit=True))
        else:
            boards.append(Board(p.first, p.second))
    return boards


def _arena(active: list[PlayerId], games: Sequence[Game], unfinished: list[Game], current_round: int) -> Step:
    busy = {p for g in unfinished for p in g.players}
    seed = {p: i for i, p in enumerate(active)}
    last_end: dict[PlayerId, float] = {}
    last_opponent: dict[PlayerId, PlayerId] = {}
    last_seat: dict[PlayerId, int] = {}
    for g in sorted((g for g in games if g.finished and g.second is not None), key=_ended):
        for p in g.players:
            last_end[p] = _ended(g)[0]
            other = g.opponent(p)
            if other is not None:
                last_opponent[p] = other
            last_seat[p] = g.seat(p)
    waiting = sorted((p for p in active if p not in busy), key=lambda p: (last_end.get(p, -1.0), seed[p]))
    if len(waiting) < 2:
        return WAIT
    table = arena.scores(games)
    ranking = sorted(active, key=lambda p: (-(table[p].points if p in table else 0), seed[p]))
    pairs = arena.pair_pool(
        waiting, ranking=ranking, last_opponent=last_opponent, others_busy=bool(busy), last_seat=last_seat
    )
    if not pairs:
        return WAIT
    return Step("pair", current_round + 1, [_board(p) for p in pairs])


def _ended(game: Game) -> tuple[float, int]:
    return (game.ended_at if game.ended_at is not None else 0.0, game.round)
