"""The games the platform offers, by slug.

A game plugs in as the package ``duelclub.games.<slug>`` exporting ``GAME`` (a
:class:`~duelclub.games.contract.Game`); :data:`LOBBY_ORDER` lists the slugs in lobby order.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from duelclub.games.contract import Game

LOBBY_ORDER: tuple[str, ...] = ("mezha", "towers", "warchest", "artania")
"""Every game of DESIGN.md, in the order the lobby shows them."""


@cache
def all_games() -> dict[str, Game[Any, Any, Any]]:
    """Slug → game object, in lobby order. Raises ImportError if a listed game's package is missing."""
    games: dict[str, Game[Any, Any, Any]] = {}
    for slug in LOBBY_ORDER:
        game = importlib.import_module(f"duelclub.games.{slug}").GAME
        if game.slug != slug:
            raise ImportError(f"duelclub.games.{slug}.GAME has slug {game.slug!r}")
        games[slug] = game
    return games


def get_game(slug: str) -> Game[Any, Any, Any]:
    """The game with this slug; KeyError if there is none."""
    return all_games()[slug]
