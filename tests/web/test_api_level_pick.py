"""``GET /api/games/{slug}/level-for-rating`` («Подобрать по силе», issue 17)."""

from __future__ import annotations

from collections.abc import Callable

from httpx import AsyncClient

from duelclub.bots.ladder import ladder_rating, level_for_rating


async def test_level_for_rating_endpoint(client_factory: Callable[[], AsyncClient]) -> None:
    client = client_factory()
    r = await client.get("/api/games/towers/level-for-rating")
    assert r.status_code == 200 and r.json() == {
        "level": "medium",
        "ladder_rating": ladder_rating("towers", "medium"),
    }
    picked = set()
    for rating in (-1000, 600, 1000, 5000):
        got = (await client.get(f"/api/games/towers/level-for-rating?rating={rating}")).json()
        assert got["level"] == level_for_rating("towers", rating)
        assert got["ladder_rating"] == ladder_rating("towers", got["level"])
        picked.add(got["level"])
    assert len(picked) >= 2  # the rating is used (the stored ladder spreads the levels)
    r = await client.get("/api/games/chess/level-for-rating")
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"
