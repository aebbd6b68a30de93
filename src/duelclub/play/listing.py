"""Lists of matches (``GET /api/matches``, the admins' list): stored rows with the seats' names and ratings
(issue 14 §4: ratings as they stand now, play/rating_views.py).

Blocking: :func:`match_list` runs its reads in one database session; call it in a worker thread
(play/threads.py ``in_thread``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from duelclub.play import rating_views, views
from duelclub.play.live import AnyGame
from duelclub.play.schemas import MatchListItem, TournamentRef
from duelclub.ratings.rules import RatingRules
from duelclub.store import matches as repo
from duelclub.store import tournaments, users
from duelclub.store.db import Database


def match_list(
    db: Database,
    games: Mapping[str, AnyGame],
    rating_rules: RatingRules,
    now: Callable[[], datetime],
    filters: dict[str, Any],
    viewer: int | None,
) -> list[MatchListItem]:
    """The matches of ``viewer`` (``filters``: ``user_id``, ``limit``), or with ``viewer`` None all matches
    as ``store.matches.list_matches`` filters them (``status``, ``game``, ``limit``; ``username``: a
    member's, an unknown name matches nothing), newest first, each seat with its name and rating, each
    tournament board with its tournament."""
    with db.session() as s:
        username = filters.pop("username", None)
        if username is not None:
            user = users.find_user(s, username)
            if user is None:
                return []
            filters["user_id"] = user.id
        records = (
            repo.list_for_user(s, filters["user_id"], filters["limit"])
            if viewer is not None
            else repo.list_matches(s, **filters)
        )
        ids = {u for r in records for u in r.seat_users if u is not None}
        names = users.usernames(s, ids)
        ratings = rating_views.seat_ratings(s, rating_rules, records, rating_views.rated_games(games), now())
        boards = tournaments.tournaments_of(s, [r.id for r in records])
    items = [
        views.list_item(
            r,
            (names.get(r.seat_users[0] or -1), names.get(r.seat_users[1] or -1)),
            viewer,
            games.get(r.game),
        )
        for r in records
    ]
    for item in items:
        if item.id in boards:
            tid, name = boards[item.id]
            item.tournament = TournamentRef(id=tid, name=name)
        for seat, brief in zip(item.seats, ratings.get(item.id, []), strict=False):
            seat.rating = brief
    return items
