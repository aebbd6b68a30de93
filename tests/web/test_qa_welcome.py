"""QA: the welcome page a visitor sees names every game of the club (it listed Межа only)."""

from __future__ import annotations

from collections.abc import Callable

from httpx import AsyncClient

from duelclub.words import all_words


async def test_welcome_page_lists_every_game(client_factory: Callable[[], AsyncClient]) -> None:
    r = await client_factory().get("/")
    assert r.status_code == 200
    games = list(all_words().values())
    assert len(games) == 4
    for words in games:
        assert f"<h2>{words.game_title()}</h2>" in r.text, words.slug
