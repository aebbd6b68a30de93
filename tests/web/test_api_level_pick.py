"""``GET /api/games/{slug}/level-for-rating`` («Подобрать по силе», issue 17)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from httpx import AsyncClient

from duelclub.bots.ladder import club_rating, level_for_rating
from duelclub.store import users
from duelclub.store.models import MemberRating, utcnow


async def test_level_for_rating_endpoint(client_factory: Callable[[], AsyncClient]) -> None:
    client = client_factory()
    r = await client.get("/api/games/towers/level-for-rating")
    assert r.status_code == 200 and r.json() == {
        "level": "medium",
        "ladder_rating": club_rating("towers", "medium"),
        "rating": None,
    }
    picked = set()
    for rating in (-1000, 600, 1000, 5000):
        got = (await client.get(f"/api/games/towers/level-for-rating?rating={rating}")).json()
        assert got["level"] == level_for_rating("towers", rating)
        assert got["ladder_rating"] == club_rating("towers", got["level"])
        picked.add(got["level"])
    assert len(picked) >= 2  # the rating is used (the stored ladder spreads the levels)
    r = await client.get("/api/games/chess/level-for-rating")
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"


@pytest.mark.parametrize("rating", [-1000.0, 5000.0])
async def test_a_rated_member_gets_the_level_for_their_own_rating(
    app: FastAPI, alice: AsyncClient, rating: float
) -> None:
    """No ``rating`` in the query: the caller's own rating in that game is used (the lobby's button)."""
    unrated = (await alice.get("/api/games/towers/level-for-rating")).json()
    assert unrated["rating"] is None and unrated["level"] == level_for_rating("towers", None)
    with app.state.db.session() as s:
        user = users.find_user(s, "alice")
        assert user is not None
        s.add(
            MemberRating(
                user_id=user.id,
                game="towers",
                rating=rating,
                rd=80.0,
                volatility=0.06,
                best=rating,
                last_rated_at=utcnow(),
            )
        )
    got = (await alice.get("/api/games/towers/level-for-rating")).json()
    assert got["rating"] == rating
    assert got["level"] == level_for_rating("towers", rating)
    other_game = (await alice.get("/api/games/artania/level-for-rating")).json()
    assert other_game["rating"] is None  # a rating is per game
