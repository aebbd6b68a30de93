"""slug → the game's :class:`~duelclub.words.base.GameWords` (one module per game: ``words/<slug>.py``)."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from duelclub.games.registry import LOBBY_ORDER
from duelclub.words.base import GameWords


@cache
def all_words() -> dict[str, GameWords]:
    """Every registered game's words, in lobby order; ImportError if a game's words module is missing."""
    out: dict[str, GameWords] = {}
    for slug in LOBBY_ORDER:
        words: GameWords = import_module(f"duelclub.words.{slug}").WORDS
        if words.slug != slug:
            raise ImportError(f"duelclub.words.{slug}.WORDS has slug {words.slug!r}")
        out[slug] = words
    return out


def words_for(slug: str) -> GameWords:
    """The words of the game ``slug``; KeyError for an unknown one."""
    return all_words()[slug]
