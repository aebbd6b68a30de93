"""Межа (mezha): the club's own three-field card duel (rules/mezha.md).

``GAME`` is the :class:`~duelclub.games.contract.Game` instance the registry serves.
"""

from __future__ import annotations

from duelclub.games.mezha.game import MezhaGame

GAME = MezhaGame()

__all__ = ["GAME", "MezhaGame"]
