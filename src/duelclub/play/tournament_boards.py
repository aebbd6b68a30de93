"""What the tournament driver keeps of one tournament between its passes (play/tournament_driver.py): the
boards read so far, so that a pass reads again only what can have changed (issue 26 §Real time and scale);
and what a board's ended match scores (:func:`board_result`), and the seeding order (:func:`seeded`).

The stored rows stay the truth — this is a copy that only ever moves forward:

- a board's row changes once (its result, ``ended_at`` set, once: store/tournaments.py ``record_result``)
  and its match's status once (active → finished/aborted); a board that has ended is never read again;
- boards are only added, a whole round per transaction (``write_boards``), in rounds after every round
  already stored;
- the players change only with a version bump (join, leave, start, withdrawal, a no-show counted).

So a pass reads the tournament row, the players if the version moved, and only the boards in play plus the
rounds after the last one known (:meth:`Boards.wanted`). The result is the same :class:`Snapshot` a full read
would give (tests/play/test_tournament_boards.py checks it), never older than the tournament row read first,
so the version compare-and-set of a pairing guards it exactly as before; after a restart the first pass reads
everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from duelclub.games.contract import Seat
from duelclub.play.tournaments.model import Game
from duelclub.store import history
from duelclub.store import tournaments as repo
from duelclub.store.matches import ENDED, FINISHED
from duelclub.store.tournaments import EntryRecord, GameRecord, Snapshot, TournamentRecord

NO_SHOW_ENDS = ("no_show", "abandoned", "timeout")
"""``ended_by`` values of an unplayed match that count as a no-show (towards withdrawal)."""

Key = tuple[int, int]
"""A board's (round, board)."""


def board_result(g: repo.GameRecord) -> tuple[float | None, bool, Seat | None] | None:
    """The result of a board whose match ended: (first seat's score, forfeit, seat at fault of a no-show or
    None); None while the match is in play."""
    if g.match_status not in ENDED:
        return None
    result = g.match_result or {}
    if g.match_status == FINISHED:
        winner = result.get("winner")
        return (0.5 if winner is None else 1.0 - float(winner), False, None)
    seat = history.forfeit_seat(result)
    if seat is not None:
        no_show = result.get("reason") == "no_first_move" or result.get("ended_by") in NO_SHOW_ENDS
        return (0.0 if seat == 0 else 1.0, True, seat if no_show else None)
    return (None, True, None)


def seeded(snap: Snapshot) -> list[int]:
    """The player numbers in seeding order (before the start: joining order)."""
    return [e.number for e in sorted(snap.entries, key=lambda e: (e.seed or 10**6, e.number))]


def core_games(snap: Snapshot) -> list[Game]:
    """The boards as the pairers' :class:`Game` records (``ended_at`` in seconds since the start)."""
    origin = snap.tournament.started_at or snap.tournament.created_at
    out = []
    for g in snap.games:
        ended = (g.ended_at - origin).total_seconds() if g.ended_at is not None else None
        score = g.score if g.ended_at is not None else None
        forfeit = g.forfeit if g.ended_at is not None else False
        out.append(Game(g.round, g.first, g.second, score, forfeit, ended))
    return out


@dataclass
class Boards:
    """The boards of one tournament as last read (by (round, board), in that order), its players at
    ``version``, the keys of the boards still in play and the match ids subscribed to for it."""

    games: dict[Key, GameRecord] = field(default_factory=dict)
    entries: list[EntryRecord] = field(default_factory=list)
    version: int = -1
    last_round: int = 0
    open: set[Key] = field(default_factory=set)
    watched: set[str] = field(default_factory=set)
    waited: tuple[int, bool] | None = None
    """The inputs (version, arena over) of the last plan that said ``wait``: the same inputs, the same
    answer, so the next pass need not compute it again."""

    def wanted(self) -> tuple[list[Key], int]:
        """What a pass reads: the boards in play, and the rounds after ``last_round``."""
        return sorted(self.open), self.last_round

    def merge(self, rows: Iterable[GameRecord]) -> None:
        """Take the rows read (a board known is replaced in place, a new one appended in order)."""
        for g in rows:
            key = (g.round, g.board)
            self.games[key] = g
            self.last_round = max(self.last_round, g.round)
            if g.ended_at is None and g.match_id is not None:
                self.open.add(key)
            else:
                self.open.discard(key)

    def snapshot(self, t: TournamentRecord) -> Snapshot:
        return Snapshot(t, self.entries, list(self.games.values()))

    def in_play(self) -> set[str]:
        """The match ids of the boards in play."""
        return {m for k in self.open if (m := self.games[k].match_id) is not None}


def read(s: Session, tournament_id: str, boards: Boards | None) -> tuple[Snapshot, Boards] | None:
    """The tournament as a full read would give it, reading only what can have changed since ``boards``
    (None: read everything); None if the tournament is unknown. ``boards`` is not changed (a fresh one is
    returned, sharing the unchanged rows), so a read that fails leaves the last one intact."""
    t = repo.get(s, tournament_id)
    if t is None:
        return None
    if boards is None or t.status == repo.OPEN:
        fresh = Boards(entries=repo.entries(s, tournament_id), version=t.version)
        fresh.merge(repo.games(s, tournament_id))
        return fresh.snapshot(t), fresh
    keys, after = boards.wanted()
    fresh = Boards(
        games=dict(boards.games),
        entries=boards.entries if boards.version == t.version else repo.entries(s, tournament_id),
        version=t.version,
        last_round=boards.last_round,
        open=set(boards.open),
        watched=boards.watched,
        waited=boards.waited,
    )
    fresh.merge(repo.games(s, tournament_id, boards=keys, after_round=after))
    return fresh.snapshot(t), fresh
