"""A tournament as its API shows it (issue 26 §API): ``GET /api/tournaments/{id}``, the list, the crosstable.

The JSON is built from the stored rows only (standings are recomputed from the results each time, never kept
in memory — DESIGN.md §Tournaments). Players are shown by username, bots as ``bot:<level>``. Fairness: each
pairing carries its match's ``commitment`` from the moment it is paired, and its ``server_seed`` once the
match has ended.
"""

from __future__ import annotations

from typing import Any

from duelclub.bots.levels import bot_name
from duelclub.play.tournament_boards import core_games, seeded
from duelclub.play.tournaments import arena, standings
from duelclub.play.tournaments.model import Game
from duelclub.play.tournaments.progress import Format, total_rounds
from duelclub.store.tournaments import EntryRecord, Snapshot, TournamentRecord

JSON = dict[str, Any]


def player_name(e: EntryRecord) -> str:
    """The username, or ``bot:<level>``."""
    return e.username if e.username is not None else f"bot:{e.bot_level}"


def summary(t: TournamentRecord, players: int, organiser: str | None) -> JSON:
    """A line of the tournament list."""
    return {
        "id": t.id,
        "name": t.name,
        "game": t.game,
        "format": t.format,
        "status": t.status,
        "organiser": organiser,
        "rated": t.rated,
        "players": players,
        "max_players": t.max_players,
        "rounds": t.rounds,
        "minutes": t.minutes,
        "move_seconds": t.move_seconds,
        "starts_at": _iso(t.starts_at),
        "started_at": _iso(t.started_at),
        "ends_at": _iso(t.ends_at),
        "finished_at": _iso(t.finished_at),
        "created_at": _iso(t.created_at),
    }


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def table(snap: Snapshot, games: list[Game] | None = None) -> list[standings.Standing]:
    """The standings: points, then Sonneborn–Berger, head-to-head and wins (arena: its 2/1/0 and streaks);
    ``games``: the boards as ``core_games(snap)``, when the caller has them already."""
    withdrawn = {e.number for e in snap.entries if e.withdrawn_at is not None}
    games = core_games(snap) if games is None else games
    return standings.standings(
        seeded(snap), games, arena=snap.tournament.format == "arena", withdrawn=withdrawn
    )


def detail(snap: Snapshot, organiser: str | None, viewer: int | None) -> JSON:
    """``GET /api/tournaments/{id}``: the summary plus ``planned_rounds`` (a Swiss's rounds as created; it
    plays ``total_rounds``, fewer when the server started it with fewer players than they need),
    ``players``, ``rounds`` (each with its ``pairings``:
    ``match_id``, ``seats`` [name, name | None], ``commitment``, ``server_seed``, ``result``, ``score``,
    ``forfeit``), ``standings`` ([{rank, username, points, tiebreak, wins, played, withdrawn}]: ``played``
    counts games over the board, no forfeits, no byes), ``arena``
    (per player: points, sheet, streak) and ``you`` (the viewer's place: ``joined``, ``withdrawn``,
    ``organiser``, ``match_id`` of their match in play)."""
    t = snap.tournament
    by_number = {e.number: e for e in snap.entries}
    names = {n: player_name(e) for n, e in by_number.items()}
    out = summary(t, len(snap.entries), organiser)
    out["options"] = t.options
    out["double"] = t.double
    out["round_minutes"] = t.round_minutes
    out["current_round"] = t.current_round
    out["planned_rounds"] = t.rounds  # a Swiss's rounds as created ("rounds" below is the list of rounds)
    fmt: Format = t.format  # type: ignore[assignment]
    out["total_rounds"] = (
        total_rounds(fmt, len(snap.entries), rounds=t.rounds, double=t.double)
        if (fmt != "arena" and len(snap.entries) >= 2)
        else t.rounds
    )
    out["players"] = [
        {
            "number": e.number,
            "username": names[e.number],
            "bot": e.bot_level,
            "seed": e.seed,
            "withdrawn": e.withdrawn_at is not None,
            "forfeits": e.forfeits,
        }
        for e in sorted(snap.entries, key=lambda e: (e.seed or 10**6, e.number))
    ]
    rounds: dict[int, list[JSON]] = {}
    for g in snap.games:
        rounds.setdefault(g.round, []).append(
            {
                "board": g.board,
                "match_id": g.match_id,
                "seats": [names.get(g.first), names.get(g.second) if g.second is not None else None],
                "commitment": g.commitment,
                "server_seed": g.server_seed,
                "result": None if g.ended_at is None else _result(g.score, g.forfeit, g.second is None),
                "score": g.score if g.ended_at is not None else None,
                "forfeit": g.forfeit,
                "status": g.match_status,
            }
        )
    out["rounds"] = [{"number": n, "pairings": rounds[n]} for n in sorted(rounds)]
    games = core_games(snap)  # once per read: the standings, the arena sheet and the crosstable share it
    rows = table(snap, games)
    out["standings"] = [
        {
            "rank": r.rank,
            "username": names[r.player],
            "points": r.points,
            "tiebreak": r.tiebreak,
            "head_to_head": r.head_to_head,
            "wins": r.wins,
            "played": r.played,
            "withdrawn": r.withdrawn,
        }
        for r in rows
    ]
    if t.format == "arena":
        scores = arena.scores(games)
        out["arena"] = {
            names[p]: {"points": a.points, "sheet": list(a.sheet), "streak": a.streak}
            for p, a in scores.items()
        }
    out["crosstable"] = [
        {
            "username": names[r.player],
            "cells": {names[o]: list(cells) for o, cells in r.cells.items()},
            "byes": list(r.bye_rounds),
        }
        for r in standings.crosstable(seeded(snap), games)
    ]
    out["you"] = _you(snap, viewer)
    return out


def _result(score: float | None, forfeit: bool, bye: bool) -> str:
    """``1-0``, ``0-1``, ``½-½``, ``+/-`` (forfeit), ``-/-`` (double forfeit), ``bye``."""
    if bye:
        return "bye"
    if forfeit:
        return "-/-" if score is None else ("+/-" if score == 1.0 else "-/+")
    return {1.0: "1-0", 0.0: "0-1"}.get(score if score is not None else -1.0, "½-½")


def _you(snap: Snapshot, viewer: int | None) -> JSON:
    mine = next((e for e in snap.entries if viewer is not None and e.user_id == viewer), None)
    playing = None
    if mine is not None:
        playing = next(
            (
                g.match_id
                for g in reversed(snap.games)
                if g.match_id and g.match_status == "active" and mine.number in (g.first, g.second)
            ),
            None,
        )
    return {
        "joined": mine is not None,
        "number": mine.number if mine else None,
        "withdrawn": bool(mine and mine.withdrawn_at is not None),
        "organiser": viewer is not None and viewer == snap.tournament.organiser_id,
        "match_id": playing,
    }


def crosstable_csv(snap: Snapshot) -> str:
    """The final (or current) standings and crosstable as CSV (``standings.to_csv``); a player is written
    as the page shows them: the username, or the bot's name in the current language («Бот (новичок)»)."""
    games = core_games(snap)
    rows = standings.crosstable(seeded(snap), games)
    names = {e.number: e.username if e.username is not None else bot_name(e.bot_level) for e in snap.entries}
    return standings.to_csv(table(snap, games), rows, names)
