"""Ratings next to names (issue 14 §4): lobby lists, the challenge table, match pages, spectators, admins.

Blocking helpers over a Session (call them in a worker thread, inside the read they decorate). A member's
rating is shown as it stands *now*: the stored rating with its deviation grown for the time since their last
rated match (ratings/rules.py ``aged``), so it turns provisional («1500?») again after a long pause; a member
who has no rated match in a game shows the start rating, provisional. On the seats of an ended rated match
the rating is the one that match left, with its ``delta``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from duelclub.play.schemas import RatingBrief
from duelclub.ratings.glicko2 import Rating
from duelclub.ratings.rules import RatingRules, aged
from duelclub.store import ratings as repo
from duelclub.store.matches import ENDED, MatchRecord
from duelclub.store.ratings import ChangeRecord, RatingRecord

Pair = tuple[int, str]


def rated_games(games: Mapping[str, Any]) -> set[str]:
    """The slugs of the games whose matches may be rated (``Game.rated``)."""
    return {slug for slug, g in games.items() if getattr(g, "rated", False)}


def brief(rules: RatingRules, r: Rating, *, delta: int | None = None) -> RatingBrief:
    """A rating rounded for display."""
    return RatingBrief(
        rating=round(r.rating), rd=round(r.rd), provisional=rules.provisional(r.rd), delta=delta
    )


def now_brief(rules: RatingRules, stored: RatingRecord | None, now: datetime) -> RatingBrief:
    """The rating to show at ``now`` for a stored row (None: the member has no rated match in the game)."""
    if stored is None or stored.matches == 0:
        return brief(rules, rules.start)
    return brief(rules, aged(rules, stored.rating, stored.last_rated_at, now))


def change_brief(rules: RatingRules, change: ChangeRecord) -> RatingBrief:
    """The rating a rated match left, with what it changed."""
    return brief(rules, change.after, delta=round(change.after.rating) - round(change.before.rating))


def current(
    s: Session, rules: RatingRules, pairs: Iterable[Pair], rated_games: set[str], now: datetime
) -> dict[Pair, RatingBrief]:
    """(user id, game) → the rating to show now, for the pairs whose game is rated."""
    wanted = {p for p in pairs if p[1] in rated_games}
    stored = repo.ratings_of(s, wanted)
    return {p: now_brief(rules, stored.get(p), now) for p in wanted}


def seat_ratings(
    s: Session, rules: RatingRules, records: list[MatchRecord], rated_games: set[str], now: datetime
) -> dict[str, list[RatingBrief | None]]:
    """Match id → the ratings to show beside its two seats: what the match left (with the delta) once a rated
    match has ended, else the members' ratings now; None for bots, empty seats and unrated games."""
    changes = repo.changes_for_matches(s, [r.id for r in records if r.rated and r.status in ENDED])
    pairs = {(u, r.game) for r in records for u in r.seat_users if u is not None}
    now_ratings = current(s, rules, pairs, rated_games, now)
    out: dict[str, list[RatingBrief | None]] = {}
    for r in records:
        seats: list[RatingBrief | None] = []
        for uid in r.seat_users:
            change = changes.get((r.id, uid)) if uid is not None else None
            if change is not None:
                seats.append(change_brief(rules, change))
            else:
                seats.append(now_ratings.get((uid, r.game)) if uid is not None else None)
        out[r.id] = seats
    return out
