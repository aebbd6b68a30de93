"""The games the platform offers, by slug.

A game plugs in as a package ``duelclub.games.<slug>`` exporting ``GAME`` (a
:class:`~duelclub.games.contract.Game` whose ``slug`` is the package's name): every package under
``games/`` is a game, found by :func:`all_games`, nowhere listed (docs/adding-a-game.md). The lobby shows them
by ``Game.lobby_order``.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from duelclub.games.contract import AnyGame, Game


def game_packages() -> list[str]:
    """The names of the packages under ``duelclub.games`` (each one a game), sorted."""
    import duelclub.games

    return sorted(m.name for m in pkgutil.iter_modules(duelclub.games.__path__) if m.ispkg)


@cache
def all_games() -> dict[str, AnyGame]:
    """Slug → game object, in lobby order (``lobby_order``, then slug). ImportError if a game package has no
    ``GAME`` or its slug is not the package's name."""
    games: list[AnyGame] = []
    for slug in game_packages():
        game = getattr(importlib.import_module(f"duelclub.games.{slug}"), "GAME", None)
        if not isinstance(game, Game):
            raise ImportError(f"duelclub.games.{slug} exports no GAME")
        if game.slug != slug:
            raise ImportError(f"duelclub.games.{slug}.GAME has slug {game.slug!r}")
        games.append(game)
    return {g.slug: g for g in sorted(games, key=lambda g: (g.lobby_order, g.slug))}


def lobby_order() -> tuple[str, ...]:
    """Every game's slug, in the order the lobby shows them."""
    return tuple(all_games())


def get_game(slug: str) -> AnyGame:
    """The game with this slug; KeyError if there is none."""
    return all_games()[slug]
