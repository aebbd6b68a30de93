"""Standings, the crosstable and its CSV (issue 26 §Formats, §End), recomputed from the stored results.

Ranking, in order (issue 26: "Ties are broken by Sonneborn–Berger, then head-to-head, then wins"):

1. **Points**: round robin and Swiss 1 / ½ / 0, a bye 1, a forfeit win 1; an arena its own points
   (:func:`.arena.scores`: 2 / 1 / 0 and the streak).
2. **Sonneborn–Berger** (``tiebreak``): the final points of every opponent beaten plus half those of every
   opponent drawn, game by game (a double round robin or an arena counts each game). A forfeit win counts
   like a win over the board; a bye adds nothing (there is no opponent); nor do a loss, a forfeit loss and a
   double forfeit.
3. **Head-to-head**: the 1 / ½ / 0 points a player took in the games among the players level with them on
   points and Sonneborn–Berger (0 when nobody is level; in an arena too, without the streak bonus).
4. **Wins**: games won, over the board or by forfeit; a bye is not a win.
5. **Seeding**: the order of ``players`` (the ranks are 1 .. n, never shared).

A withdrawn player keeps their results and their place by these rules; :attr:`Standing.withdrawn` marks them.

**Played** (:attr:`Standing.played`, the API's ``standings[].played``, the page's «Сыграно» and the CSV's
``played``) counts the games played over the board, as FIDE counts games played: a forfeit (won, lost or
double) and a bye are not games played, though they score.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from . import arena as arena_format
from .model import Game, PlayerId, TournamentError, points_by_player


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the table: ``rank`` (from 1), ``player``, ``points``, ``tiebreak`` (Sonneborn–Berger),
    ``head_to_head`` (points among those level on both), ``wins``, ``played`` (finished games played over
    the board: forfeits and byes not) and ``withdrawn``."""

    rank: int
    player: PlayerId
    points: float
    tiebreak: float
    head_to_head: float
    wins: int
    played: int
    withdrawn: bool


def _check(players: Sequence[PlayerId], games: Sequence[Game]) -> dict[PlayerId, int]:
    seed = {p: i for i, p in enumerate(players)}
    if len(seed) != len(players):
        raise TournamentError("a player is listed twice")
    for game in games:
        for p in game.players:
            if p not in seed:
                raise TournamentError(f"round {game.round}: player {p} is not in the tournament")
    return seed


def standings(
    players: Sequence[PlayerId],
    games: Sequence[Game],
    *,
    arena: bool = False,
    withdrawn: Collection[PlayerId] = (),
) -> list[Standing]:
    """The table of ``players`` (seeding order, all of them, withdrawn ones too) after ``games`` (any
    rounds; unfinished ones count for nothing), best first, by the module's rules. ``arena`` scores by the
    arena's rules. :class:`~.model.TournamentError` for a player listed twice or a game with a stranger."""
    seed = _check(players, games)
    finished = [g for g in games if g.finished]
    if arena:
        table = arena_format.scores(finished)
        points = {p: float(table[p].points) if p in table else 0.0 for p in players}
    else:
        totals = points_by_player(finished)
        points = {p: totals.get(p, 0.0) for p in players}
    tiebreak = dict.fromkeys(players, 0.0)
    wins = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    for game in finished:
        if game.second is None:
            continue
        for p in game.players:
            opponent = game.opponent(p)
            assert opponent is not None
            result = game.points(p) or 0.0
            tiebreak[p] += result * points[opponent]
            wins[p] += result == 1.0
            played[p] += not game.forfeit
    level: dict[tuple[float, float], set[PlayerId]] = {}
    for p in players:
        level.setdefault((points[p], tiebreak[p]), set()).add(p)
    head = dict.fromkeys(players, 0.0)
    for game in finished:
        if game.second is not None and game.second in level[(points[game.first], tiebreak[game.first])]:
            for p in game.players:
                head[p] += game.points(p) or 0.0
    out = set(withdrawn)
    order = sorted(players, key=lambda p: (-points[p], -tiebreak[p], -head[p], -wins[p], seed[p]))
    return [
        Standing(rank, p, points[p], tiebreak[p], head[p], wins[p], played[p], p in out)
        for rank, p in enumerate(order, start=1)
    ]


RESULT_MARKS = {1.0: "1", 0.5: "½", 0.0: "0"}
"""Crosstable marks of a game played: won, drawn, lost."""
FORFEIT_WIN, FORFEIT_LOSS, UNFINISHED = "+", "-", "*"
"""Crosstable marks of a forfeit won, a forfeit lost (a double forfeit too) and a game still going."""


@dataclass(slots=True)
class CrosstableRow:
    """A player's row: ``cells[opponent]`` their results against that opponent in round order (marks of
    :data:`RESULT_MARKS`, ``+`` / ``-`` for forfeits, ``*`` unfinished), ``bye_rounds`` the rounds of their
    byes."""

    player: PlayerId
    cells: dict[PlayerId, list[str]]
    bye_rounds: list[int]


def _mark(game: Game, player: PlayerId) -> str:
    if not game.finished:
        return UNFINISHED
    points = game.points(player)
    if game.forfeit:
        return FORFEIT_WIN if points == 1.0 else FORFEIT_LOSS
    assert points is not None
    return RESULT_MARKS[points]


def crosstable(players: Sequence[PlayerId], games: Sequence[Game]) -> list[CrosstableRow]:
    """One row per player of ``players``, in that order (see :class:`CrosstableRow`); games are taken by
    round, then end time. :class:`~.model.TournamentError` as :func:`standings`."""
    _check(players, games)
    rows = {p: CrosstableRow(p, {}, []) for p in players}
    for game in sorted(games, key=lambda g: (g.round, arena_format.game_order(g))):
        if game.second is None:
            if game.first in rows:
                rows[game.first].bye_rounds.append(game.round)
            continue
        for p in game.players:
            opponent = game.opponent(p)
            assert opponent is not None
            rows[p].cells.setdefault(opponent, []).append(_mark(game, p))
    return [rows[p] for p in players]


CSV_COLUMNS = ("rank", "player", "points", "tiebreak", "wins", "played", "byes")
"""The CSV's first columns (``byes``: the player's byes, a point each, not among ``played``); one column per
place (``1`` .. ``n``) follows, as in a printed crosstable."""


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(value)


def to_csv(
    standings: Sequence[Standing], rows: Sequence[CrosstableRow], names: Mapping[PlayerId, str]
) -> str:
    """The final table as CSV text (``csv`` module, ``\\r\\n`` line ends like the other exports): a header
    of :data:`CSV_COLUMNS` and ``1`` .. ``n``, then one line per standing in order. Column ``k`` of a line
    holds the player's results against the player placed ``k`` (marks joined by spaces, e.g. ``1 ½`` in a
    double round robin; empty on the diagonal and against a player never met). Points and tiebreak are
    written as numbers (``2``, ``2.5``, ``6.25``); a player is written by ``names`` (the id when missing)."""
    cells = {row.player: row.cells for row in rows}
    byes = {row.player: len(row.bye_rounds) for row in rows}
    order = [s.player for s in standings]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*CSV_COLUMNS, *(str(k) for k in range(1, len(order) + 1))])
    for s in standings:
        mine = cells.get(s.player, {})
        results = ["" if q == s.player else " ".join(mine.get(q, [])) for q in order]
        name = names.get(s.player, str(s.player))
        numbers = [_number(s.points), _number(s.tiebreak), s.wins, s.played, byes.get(s.player, 0)]
        writer.writerow([s.rank, name, *numbers, *results])
    return out.getvalue()
