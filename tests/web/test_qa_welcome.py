"""QA: the welcome page a visitor sees names every game of the club (it listed Межа only)."""

from __future__ import annotations

from collections.abc import Callable

from httpx import AsyncClient

from duelclub.games.registry import all_games


async def test_welcome_page_lists_every_game(client_factory: Callable[[], AsyncClient]) -> None:
    r = await client_factory().get("/")
    assert r.status_code == 200
    games = list(all_games().values())
    assert len(games) == 4
    for game in games:
        assert f"<h2>{game.title}</h2>" in r.text, game.slug
