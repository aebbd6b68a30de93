"""Bridge until this game's words move here (issue 15 §2): delegates to the game object's own texts."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from duelclub.games.contract import JSON, Seat
from duelclub.games.registry import get_game
from duelclub.words.base import GameWords

_GAME: Any = get_game("towers")


class _Words(GameWords):
    slug: ClassVar[str] = "towers"
    title: ClassVar[str] = _GAME.title
    tagline: ClassVar[str] = _GAME.tagline
    summary: ClassVar[str] = _GAME.summary

    def catalog(self) -> JSON:
        return dict(_GAME.catalog())

    def options_form(self) -> list[JSON]:
        return list(_GAME.options_form())

    def options_text(self, options: BaseModel, seat: Seat | None) -> str:
        return str(_GAME.options_text(options, seat))

    def event_lines(self, events: list[JSON], seat: Seat | None) -> list[JSON | None]:
        return [None for _ in events]


WORDS = _Words()
