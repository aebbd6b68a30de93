"""Артания и Куявия (artania): the warrior card duel with counter-classes (rules/artania.md).

``GAME`` is the :class:`~duelclub.games.contract.Game` instance the registry serves.
"""

from __future__ import annotations

from duelclub.games.artania.game import ArtaniaGame

GAME = ArtaniaGame()

__all__ = ["GAME", "ArtaniaGame"]
