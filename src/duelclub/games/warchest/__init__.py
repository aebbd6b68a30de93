"""Сундук войны (warchest): bag-building hex duel with Nobility and Nightfall (rules/warchest.md).

``GAME`` is the :class:`~duelclub.games.contract.Game` instance the registry serves.
"""

from __future__ import annotations

from duelclub.games.warchest.game import WarchestGame

GAME = WarchestGame()

__all__ = ["GAME", "WarchestGame"]
