"""The history and leaderboard queries (store/history.py, store/ratings.py) on SQLite and PostgreSQL: the
result filter reads the winner seat from the result JSON, which each database answers its own way."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from support import new_users

from duelclub.store import history, ratings
from duelclub.store import matches as repo
from duelclub.store.db import Database
from duelclub.store.history import HistoryFilter
from duelclub.store.models import Match, MemberRating, Tournament, TournamentGame

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def _match(
    s: Any, n: int, a: int, b: int | None, *, status: str, winner: int | None, game: str = "towers"
) -> str:
    mid = f"m{n:03d}"
    repo.insert_match(
        s,
        id=mid,
        game=game,
        options={},
        status=status,
        seat0_user_id=a,
        seat1_user_id=b,
        seat1_bot=None if b is not None else "easy",
        commitment="c" * 64,
        server_seed="0" * 64,
        created_at=T0 + timedelta(minutes=n),
        started_at=T0 + timedelta(minutes=n),
        finished_at=T0 + timedelta(minutes=n, seconds=30),
        result={"winner": winner, "reason": "resign" if winner is not None else "draw"},
    )
    return mid


def test_history_filters_by_result_from_the_members_side_game_and_opponent(db: Database) -> None:
    a, b, c = new_users(db, "hista", "histb", "histc")
    with db.session() as s:
        won0 = _match(s, 1, a, b, status="finished", winner=0)  # a at seat 0 wins
        won1 = _match(s, 2, b, a, status="finished", winner=1)  # a at seat 1 wins
        lost = _match(s, 3, a, c, status="finished", winner=1)
        draw = _match(s, 4, c, a, status="finished", winner=None)
        gone = _match(s, 5, a, b, status="aborted", winner=None)
        bot = _match(s, 6, a, None, status="finished", winner=0, game="mezha")
        _match(s, 7, a, b, status="active", winner=None)  # live: not history
        _match(s, 8, b, c, status="finished", winner=0)  # not a's
    with db.session() as s:

        def ids(**f: Any) -> list[str]:
            flt = HistoryFilter(**f)
            rows = history.page(s, a, flt, offset=0, limit=50)
            assert history.count(s, a, flt) == len(rows)
            return [r.id for r in rows]

        assert ids() == [bot, gone, draw, lost, won1, won0]
        assert ids(result="win") == [bot, won1, won0]
        assert ids(result="loss") == [lost]
        assert ids(result="draw") == [draw]
        assert ids(result="aborted") == [gone]
        assert ids(game="mezha") == [bot]
        assert ids(opponent_id=b) == [gone, won1, won0]
        assert ids(opponent_id=c, result="win") == []
        assert [r.id for r in history.page(s, a, HistoryFilter(), offset=2, limit=2)] == [draw, lost]
        assert [len(chunk) for chunk in history.every(s, a, HistoryFilter(), chunk=4)] == [4, 2]


def test_a_tournament_forfeit_counts_as_the_members_win_or_loss(db: Database) -> None:
    """A board aborted before both first moves with a seat at fault is the tournament's forfeit: a loss for
    that seat, a win for the other — not aborted; the same abort outside a tournament stays aborted."""
    a, b = new_users(db, "hfa", "hfb")
    with db.session() as s:
        board = _match(s, 1, a, b, status="aborted", winner=None)
        plain = _match(s, 2, a, b, status="aborted", winner=None)
        for mid in (board, plain):
            s.get(Match, mid).result = {"winner": None, "reason": "unplayed", "seat": 0}  # a at fault
        s.add(
            Tournament(
                id="hft", name="Вечер", game="towers", format="swiss", status="finished", organiser_id=a,
                options={}, max_players=8,
            )
        )  # fmt: skip
        s.flush()
        s.add(TournamentGame(tournament_id="hft", round=1, board=1, first=1, second=2, match_id=board))
        s.add(
            TournamentGame(tournament_id="hft", round=1, board=2, first=3, second=None, match_id=None)
        )  # a bye
    with db.session() as s:

        def ids(user: int, **f: Any) -> list[str]:
            flt = HistoryFilter(**f)
            rows = history.page(s, user, flt, offset=0, limit=50)
            assert history.count(s, user, flt) == len(rows)
            return [r.id for r in rows]

        assert ids(a, result="loss") == [board] and ids(b, result="win") == [board]
        assert ids(a, result="aborted") == [plain] and ids(b, result="aborted") == [plain]
        assert ids(a, result="win") == [] and ids(b, result="loss") == []
        records = {r.id: r for r in history.page(s, a, HistoryFilter(), offset=0, limit=50)}
        assert history.forfeit_board(records[board], True) and not history.forfeit_board(
            records[plain], False
        )


def test_the_leaderboard_query_filters_rd_activity_and_orders_by_rating(db: Database) -> None:
    names = ["lba", "lbb", "lbc", "lbd", "lbe"]
    ids = dict(zip(names, new_users(db, *names), strict=True))
    rows = {  # name: (rating, rd, days since the last rated match, matches)
        "lba": (1700, 80, 1, 10),
        "lbb": (1800, 111, 1, 10),  # RD too wide
        "lbc": (1650, 60, 100, 10),  # idle for too long
        "lbd": (1750, 90, 10, 30),
        "lbe": (1750, 90, 10, 12),  # same rating: more matches first
    }
    with db.session() as s:
        for name, (rating, rd, days, n) in rows.items():
            s.add(
                MemberRating(
                    user_id=ids[name], game="towers", rating=rating, rd=rd, volatility=0.06, matches=n,
                    wins=n, draws=0, losses=0, best=rating, streak=0, last_rated_at=T0 - timedelta(days=days),
                )
            )  # fmt: skip
    with db.session() as s:
        board = ratings.leaderboard(s, "towers", active_since=T0 - timedelta(days=90), max_rd=110, limit=10)
        assert [r.username for r in board] == ["lbd", "lbe", "lba"]
        assert ratings.leaderboard(s, "warchest", active_since=T0, max_rd=110, limit=10) == []
        assert (
            len(ratings.leaderboard(s, "towers", active_since=T0 - timedelta(days=90), max_rd=110, limit=2))
            == 2
        )
