"""The tournament's values (issue 26): player ids, pairings and game results, shared by every format.

- A **player** is a member id (:data:`PlayerId`, an ``int``); a list of players is in seeding order (the
  first is the top seed, player number 1 of a round robin).
- A :class:`Pairing` is what a pairer returns: the first seat (seat 0, "white") and the second seat, or
  ``None`` for a bye.
- A :class:`Game` is a result record as the store keeps it: its round, its seats, the first seat's score
  (``1``, ``0.5``, ``0``, or ``None`` while unfinished), whether it was decided by forfeit, and, for the
  arena, when it ended. A bye is a game whose second seat is ``None``; it always scores ``1`` (issue 26
  §Formats: "a bye 1"). A **double forfeit** (both players withdrawn from a round robin, §Byes, no-shows and
  withdrawal) is ``forfeit=True`` with ``score=None``: finished, and neither player scores.

Every constructor checks its shape and raises :class:`TournamentError` (a ``ValueError``) on a bad one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

PlayerId = int
"""A member id."""

SCORES = (0.0, 0.5, 1.0)
"""The scores a finished game gives its first seat (the second seat gets ``1 - score``)."""


class TournamentError(ValueError):
    """A shape the tournament rules do not allow (a bad game record, a bad round count, an unknown player)."""


class PairingError(TournamentError):
    """No pairing of the round keeps the format's absolute rules (a Swiss round without a rematch)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: ``first`` plays in seat 0, ``second`` in seat 1; ``second is None`` is a bye."""

    first: PlayerId
    second: PlayerId | None

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise TournamentError(f"player {self.first} cannot be paired with themselves")

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """The one or two players of the board, first seat first."""
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True, slots=True)
class Game:
    """A result record: ``round`` (from 1; in an arena the order of pairing will do), ``first`` and ``second``
    seats (``second is None``: a bye), ``score`` of the first seat (``1``, ``0.5``, ``0``; ``None`` while the
    game is unfinished), ``forfeit`` (decided without play: a no-show or a withdrawal) and ``ended_at``
    (arena: when the game ended, any monotonic number such as seconds since the start; it orders a
    player's games for the streak rule)."""

    round: int
    first: PlayerId
    second: PlayerId | None
    score: float | None = None
    forfeit: bool = False
    ended_at: float | None = None

    def __post_init__(self) -> None:
        if self.round < 1:
            raise TournamentError(f"round {self.round}: rounds count from 1")
        if self.first == self.second:
            raise TournamentError(f"player {self.first} cannot play themselves")
        if self.score is not None and self.score not in SCORES:
            raise TournamentError(f"score {self.score}: a game scores 1, 0.5 or 0 for its first seat")
        if self.second is None and (self.score != 1.0 or self.forfeit):
            raise TournamentError("a bye scores 1 for its player and is no forfeit")
        if self.forfeit and self.score == 0.5:
            raise TournamentError("a forfeit has a winner (or, as a double forfeit, score None)")

    @classmethod
    def bye(cls, round: int, player: PlayerId) -> Game:
        """The bye of ``player`` in ``round`` (1 point)."""
        return cls(round, player, None, 1.0)

    @property
    def finished(self) -> bool:
        """Whether the game has its result (a double forfeit is finished)."""
        return self.score is not None or self.forfeit

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def seat(self, player: PlayerId) -> int:
        """``0`` for the first seat, ``1`` for the second; :class:`TournamentError` for a stranger."""
        if player == self.first:
            return 0
        if player == self.second:
            return 1
        raise TournamentError(f"player {player} is not in this game")

    def opponent(self, player: PlayerId) -> PlayerId | None:
        """The other player (``None`` for a bye)."""
        return self.second if self.seat(player) == 0 else self.first

    def points(self, player: PlayerId) -> float | None:
        """``player``'s score in this game on the 1 / ½ / 0 scale (a bye 1, a double forfeit 0), ``None``
        while unfinished."""
        seat = self.seat(player)
        if self.score is None:
            return 0.0 if self.forfeit else None
        return self.score if seat == 0 else 1.0 - self.score


def points_by_player(games: Iterable[Game]) -> dict[PlayerId, float]:
    """Each player's total on the 1 / ½ / 0 scale over the finished games (byes 1); every player of a game
    has an entry, 0 if they have not scored yet."""
    totals: dict[PlayerId, float] = {}
    for game in games:
        for player in game.players:
            totals[player] = totals.get(player, 0.0) + (game.points(player) or 0.0)
    return totals


def met_pairs(games: Iterable[Game]) -> set[frozenset[PlayerId]]:
    """The pairs of players that have a game together, finished or not (a forfeit counts: issue 26's "never
    meet twice" is about being paired)."""
    return {frozenset((g.first, g.second)) for g in games if g.second is not None}


def seat_history(games: Iterable[Game]) -> dict[PlayerId, list[int]]:
    """Each player's seats (0 first, 1 second) in their games with an opponent, in round order."""
    history: dict[PlayerId, list[int]] = {}
    for game in sorted(games, key=lambda g: g.round):
        if game.second is not None:
            history.setdefault(game.first, []).append(0)
            history.setdefault(game.second, []).append(1)
    return history
