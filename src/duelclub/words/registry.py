"""slug → the game's :class:`~duelclub.words.base.GameWords` (one module per game: ``words/<slug>.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import import_module
from typing import Any

from duelclub.games.contract import JSON, Seat
from duelclub.games.registry import all_games
from duelclub.words.base import NO_NAMES, GameWords, Names


@cache
def all_words() -> dict[str, GameWords[Any]]:
    """Every registered game's words, in lobby order; ImportError if a game's words module is missing."""
    out: dict[str, GameWords] = {}
    for slug in all_games():
        words: GameWords[Any] = import_module(f"duelclub.words.{slug}").WORDS
        if words.slug != slug:
            raise ImportError(f"duelclub.words.{slug}.WORDS has slug {words.slug!r}")
        out[slug] = words
    return out


class PlainWords(GameWords[Any]):
    """Words of a game the club does not list (a test's game plugged into the service): its slug as the
    title, no log lines."""

    def __init__(self, slug: str) -> None:
        self.slug = self.title = slug  # type: ignore[misc]

    def event_lines(
        self, events: Sequence[Any], seat: Seat | None, names: Names = NO_NAMES
    ) -> list[JSON | None]:
        return [None] * len(events)


_PLUGGED: dict[str, GameWords[Any]] = {}


def register_words(words: GameWords[Any]) -> None:
    """Give a game the club does not list (a test's game plugged into the service) its words; a listed game's
    words cannot be replaced (ValueError)."""
    if words.slug in all_words():
        raise ValueError(f"{words.slug!r} is a club game; its words live in duelclub.words.{words.slug}")
    _PLUGGED[words.slug] = words


def words_for(slug: str) -> GameWords[Any]:
    """The words of the game ``slug``; for a game the club does not list, those given to
    :func:`register_words`, else :class:`PlainWords`."""
    words = all_words().get(slug) or _PLUGGED.get(slug)
    return words if words is not None else PlainWords(slug)
