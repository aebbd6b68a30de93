"""Round robin (issue 26 §Formats): everyone meets everyone once, by the FIDE Berger tables.

The tables are FIDE Handbook C.05 Annex 1 ("Berger tables for round-robin tournaments"), generated rather
than copied: for an even size ``n`` (``m = n - 1``), the partner ``a`` of player ``n`` is 1 in round 1 and
moves on by ``n / 2`` (mod ``m``, numbers 1..m) each round; player ``n`` sits second in odd rounds and first
in even ones (the last player alternates); the other boards pair ``a + k`` (first seat) with ``a - k``
(mod ``m``) for ``k = 1 .. n/2 - 1``, in that board order. For 6 players::

    round 1: 1-6 2-5 3-4    round 2: 6-4 5-3 1-2    round 3: 2-6 3-1 4-5
    round 4: 6-5 1-4 2-3    round 5: 3-6 4-2 5-1

Player numbers are the seeding: the ``i``-th player of the list given is number ``i + 1``. An odd count adds
a dummy player ``n`` (FIDE: "the highest number counts as a bye"): whoever meets it has a bye that round
(1 point). A double round robin plays the table twice, the second time with every board's seats swapped
(issue 26: "seats swapped in the second cycle"); as C.05 Annex 1 recommends, the first cycle plays its last
two rounds in reverse order, so that nobody has the same seat three times in a row (without the swap, player
1 of 6 would sit second in rounds 5, 6 and 7).

Withdrawal (issue 26 §Byes, no-shows and withdrawal): the finished games of a withdrawn player stand, the
remaining ones are forfeits won by the opponent (:func:`withdrawal_forfeits`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .model import Game, Pairing, PlayerId, TournamentError

Schedule = list[list[Pairing]]
"""Rounds in order (round ``r`` is ``schedule[r - 1]``), each a list of boards; a round's bye comes last."""


def _wrap(number: int, modulus: int) -> int:
    return (number - 1) % modulus + 1


def berger_table(size: int) -> list[list[tuple[int, int]]]:
    """The FIDE Berger table for an even ``size`` ≥ 2: ``size - 1`` rounds, each a list of boards
    ``(first seat, second seat)`` of player numbers ``1 .. size``, in FIDE's board order."""
    if size < 2 or size % 2:
        raise TournamentError(f"a Berger table has an even size of at least 2, not {size}")
    modulus, half = size - 1, size // 2
    rounds: list[list[tuple[int, int]]] = []
    partner = 1
    for number in range(1, size):
        boards = [(partner, size) if number % 2 else (size, partner)]
        boards += [(_wrap(partner + k, modulus), _wrap(partner - k, modulus)) for k in range(1, half)]
        rounds.append(boards)
        partner = _wrap(partner + half, modulus)
    return rounds


def round_count(player_count: int, *, double: bool = False) -> int:
    """The number of rounds: ``n - 1`` for an even count, ``n`` for an odd one (one bye each); twice that for
    a double round robin."""
    if player_count < 2:
        raise TournamentError("a round robin needs at least 2 players")
    single = player_count - 1 + player_count % 2
    return 2 * single if double else single


def schedule(players: Sequence[PlayerId], *, double: bool = False) -> Schedule:
    """Every round of the round robin of ``players`` (seeding order, at least 2, no repeats).

    Each round lists its boards in Berger order with the bye (``Pairing(p, None)``), if any, last. A double
    round robin (``2 * round_count`` rounds) is the table's rounds ``1 .. m-2, m, m-1`` (FIDE's swap of the
    first cycle's last two rounds) followed by rounds ``1 .. m`` with every board's seats swapped; so each
    pair meets twice, once in each seat. :class:`TournamentError` for fewer than 2 players or a repeat."""
    if len(set(players)) != len(players):
        raise TournamentError("a player is listed twice")
    round_count(len(players))
    size = len(players) + len(players) % 2
    number = {i + 1: player for i, player in enumerate(players)}
    cycle: Schedule = []
    for boards in berger_table(size):
        games: list[Pairing] = []
        byes: list[Pairing] = []
        for first, second in boards:
            if first in number and second in number:
                games.append(Pairing(number[first], number[second]))
            else:
                byes.append(Pairing(number[first if first in number else second], None))
        cycle.append(games + byes)
    if not double:
        return cycle
    swapped = [[p if p.second is None else Pairing(p.second, p.first) for p in boards] for boards in cycle]
    front = [*cycle[:-2], cycle[-1], cycle[-2]] if len(cycle) >= 2 else cycle
    return front + swapped


def withdrawal_forfeits(
    rounds: Schedule, games: Sequence[Game], withdrawn: Collection[PlayerId]
) -> list[Game]:
    """The forfeits a withdrawal leaves: one :class:`Game` (``forfeit=True``) for every scheduled board with
    a withdrawn player that has no finished game yet, in round order.

    - one player withdrawn: the opponent wins (``score`` 1 if the opponent has the first seat, else 0);
    - both withdrawn: a double forfeit (``score=None``, neither scores);
    - a withdrawn player's own later bye is dropped (no record, no point): they no longer take part.

    A finished game stands (it is never in the answer); an unfinished one of the current round is answered
    like a future one (the driver ends that match). ``games`` are matched to boards by round and players."""
    out = set(withdrawn)
    done = {(g.round, frozenset(g.players)) for g in games if g.finished}
    forfeits: list[Game] = []
    for number, boards in enumerate(rounds, start=1):
        for board in boards:
            if board.second is None or not out.intersection(board.players):
                continue
            if (number, frozenset(board.players)) in done:
                continue
            if board.first in out and board.second in out:
                forfeits.append(Game(number, board.first, board.second, None, forfeit=True))
            else:
                score = 0.0 if board.first in out else 1.0
                forfeits.append(Game(number, board.first, board.second, score, forfeit=True))
    return forfeits
