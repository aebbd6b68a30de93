"""The games the platform offers, by slug."""

from __future__ import annotations

from typing import Any

from duelclub.games.contract import Game


def all_games() -> dict[str, Game[Any, Any, Any]]:
    """Slug → game object, in lobby order."""
    from duelclub.games.mezha import GAME as MEZHA

    return {MEZHA.slug: MEZHA}


def get_game(slug: str) -> Game[Any, Any, Any]:
    """The game with this slug; KeyError if there is none."""
    return all_games()[slug]
